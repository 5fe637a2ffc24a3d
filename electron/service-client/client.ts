// The service client the app uses: the raw calls plus the resolving helpers
// the scan pipeline needs, behind one object.
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { UploadFile } from './multipart-body.ts';
import { recoverByReference, submitAndResolve, type ResolvedSubmission, type ResolveOptions, type RetryOptions } from './resolve-submission.ts';
import { createBaseServiceClient, type BaseServiceClient, type ServiceClientOptions } from './service-client.ts';

export interface ServiceClient extends BaseServiceClient {
  /** Submit and come back with the scan: continues 408s, adopts 409s, retries transient failures. */
  submitAndResolve(file: UploadFile, options: ResolveOptions): Promise<ResolvedSubmission>;
  /** Crash recovery by reference: the scan, or null when the service never received it. */
  recoverByReference(externalReferenceId: string, options?: RetryOptions): Promise<Scan | null>;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const base = createBaseServiceClient(options);
  return Object.assign(base, {
    submitAndResolve: (file: UploadFile, resolveOptions: ResolveOptions) => submitAndResolve(base, file, resolveOptions),
    recoverByReference: (ref: string, retryOptions?: RetryOptions) => recoverByReference(base, ref, retryOptions),
  });
}

export type { ServiceClientOptions, ServiceTimeouts, CallOptions, SubmitOptions } from './service-client.ts';
export type { ResolvedSubmission, ResolveOptions, RetryOptions } from './resolve-submission.ts';
export type { UploadFile, UploadProgress } from './multipart-body.ts';
export { ServiceError, type ServiceErrorKind } from './service-error.ts';
