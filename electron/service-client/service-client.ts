// HTTP client of the File Scanning Service (spec: ../shared/spec/file-scanning-service.md):
// both submission modes, both GETs, responses validated with the shared
// schemas, failures as ServiceError kinds. One request per call; retries,
// 408 continuation and 409 adoption live in resolve-submission.ts.
// The client's state is ClientState (client-state.ts); one request is call.ts,
// the submissions submit-scan.ts, the reads get-scan.ts.
import type { AsyncSubmission, Scan, SubmissionAttributes } from '../../shared/service-contract/scan.ts';
import type { RequestBudget } from '../request-budget/request-budget.ts';
import { createClientState, type ServiceClientOptions } from './client-state.ts';
import { getByReference, getScan } from './get-scan.ts';
import type { UploadFile, UploadProgress } from './multipart-body.ts';
import type { RetryPolicy } from './retry-policy.ts';
import { submitAsync, submitSync } from './submit-scan.ts';

export { DEFAULT_TIMEOUTS, type ServiceTimeouts } from './timeouts.ts';
export type { ServiceClientOptions };

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SubmitOptions extends CallOptions {
  /** Upload progress in body bytes, per attempt; `sent` rises monotonically to `total`. */
  onProgress?: (progress: UploadProgress) => void;
}

/** The raw, one-request-per-call surface. */
export interface ServiceCalls {
  submitAsync(file: UploadFile, attributes: SubmissionAttributes, options?: SubmitOptions): Promise<AsyncSubmission>;
  /** Resolves with a terminal scan; a 408 rejects with kind `sync_timeout` and `scanId`. */
  submitSync(file: UploadFile, attributes: SubmissionAttributes, options?: SubmitOptions): Promise<Scan>;
  getScan(id: string, options?: CallOptions): Promise<Scan>;
  getByReference(externalReferenceId: string, options?: CallOptions): Promise<Scan>;
}

export interface BaseServiceClient extends ServiceCalls {
  readonly baseUrl: string;
  /** The budget every request draws from, if any (the poller uses it to avoid double counting). */
  readonly budget: RequestBudget | undefined;
  readonly retryPolicy: RetryPolicy;
  readonly random: () => number;
  /** Closes the client's own Agent (not a dispatcher passed in). */
  close(): Promise<void>;
}

export function createBaseServiceClient(options: ServiceClientOptions): BaseServiceClient {
  const state = createClientState(options);
  return {
    baseUrl: state.baseUrl,
    budget: state.budget,
    retryPolicy: state.retryPolicy,
    random: state.random,
    async submitAsync(file, attributes, callOptions = {}) {
      return submitAsync(state, file, attributes, callOptions);
    },
    async submitSync(file, attributes, callOptions = {}) {
      return submitSync(state, file, attributes, callOptions);
    },
    async getScan(id, callOptions = {}) {
      return getScan(state, id, callOptions.signal);
    },
    async getByReference(externalReferenceId, callOptions = {}) {
      return getByReference(state, externalReferenceId, callOptions.signal);
    },
    async close() {
      await state.closeOwnAgent();
    },
  };
}
