// The two submissions: POST /file-scans (async) and POST /file-scans/sync.
import type { z } from 'zod';
import {
  asyncSubmissionSchema,
  externalReferenceIdSchema,
  terminalScanSchema,
  type AsyncSubmission,
  type Scan,
  type SubmissionAttributes,
} from '../../shared/service-contract/scan.ts';
import { call } from './call.ts';
import type { ClientState } from './client-state.ts';
import type { UploadFile } from './multipart-body.ts';
import type { SubmitOptions } from './service-client.ts';
import { describeIssues } from './response-body.ts';
import { wordedServiceError } from './service-error.ts';

export function submitAsync(state: ClientState, file: UploadFile, attributes: SubmissionAttributes, options: SubmitOptions): Promise<AsyncSubmission> {
  return submission(state, '/file-scans', state.timeouts.headersMs, asyncSubmissionSchema, file, attributes, options);
}

/** The service's 90 s window counts from the end of the upload: its own, longer head timeout. */
export function submitSync(state: ClientState, file: UploadFile, attributes: SubmissionAttributes, options: SubmitOptions): Promise<Scan> {
  return submission(state, '/file-scans/sync', state.timeouts.syncHeadersMs, terminalScanSchema as z.ZodType<Scan>, file, attributes, options);
}

async function submission<T extends { external_reference_id?: string | undefined }>(
  state: ClientState,
  path: string,
  headersTimeoutMs: number,
  schema: z.ZodType<T>,
  file: UploadFile,
  attributes: SubmissionAttributes,
  options: SubmitOptions,
): Promise<T> {
  checkReference(attributes.external_reference_id);
  return call(state, {
    method: 'POST',
    path,
    operation: `POST ${path}`,
    headersTimeoutMs,
    upload: { file, attributes, onProgress: options.onProgress },
    schema,
    check: echoesReference(attributes.external_reference_id),
    signal: options.signal,
  });
}

/** Refuses, before any request, an external reference the service would reject. */
export function checkReference(ref: string | undefined): void {
  if (ref === undefined) return;
  const result = externalReferenceIdSchema.safeParse(ref);
  if (!result.success) {
    throw wordedServiceError('invalid_request', { cause: 'bad_reference', detail: describeIssues(result.error) });
  }
}

/** A scan that names another reference than the one sent is not ours. */
export const echoesReference = (ref: string | undefined) => (scan: { external_reference_id?: string | undefined }) =>
  ref !== undefined && scan.external_reference_id !== undefined && scan.external_reference_id !== ref
    ? 'external_reference_id differs from the one sent'
    : undefined;
