// The calls the scan pipeline makes: submit a file and come back with *the*
// scan for it, whatever happened on the way. A 408 continues with the scan it
// names; a 409 (our reference was used already, e.g. by a retried POST whose
// first answer got lost) adopts the existing scan; 429/5xx/network/timeouts
// are retried with backoff. Every submission carries an external reference,
// which is what makes retrying a POST safe.
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { UploadFile, UploadProgress } from './multipart-body.ts';
import type { BaseServiceClient } from './service-client.ts';
import { ServiceError } from './service-error.ts';
import { withRetries, type Clock, type RetryOptions } from './with-retries.ts';

export { withRetries, type RetryOptions };

export interface ResolveOptions extends RetryOptions {
  mode: 'sync' | 'async';
  /** Strongly recommended: without it a POST is not retried (it could create a second scan). */
  externalReferenceId?: string;
  /** attributes.file_name; defaults to file.name. */
  fileName?: string;
  /** attributes.basic_checks_only (Verdict's embedded service: the file need not wait for ClamAV). */
  basicChecksOnly?: boolean;
  /** Upload progress; `attempt` starts at 1 and `sent` restarts at 0 on each attempt. */
  onProgress?: (progress: UploadProgress & { attempt: number }) => void;
}

export interface ResolvedSubmission {
  /**
   * The scan: terminal for a sync submission that finished, otherwise possibly
   * `processing` (async, after a 408, or adopted) and to be polled.
   */
  scan: Scan;
  /** How it was obtained. */
  via: 'submitted' | 'sync_timeout' | 'adopted';
  /** Requests that failed and were retried. */
  retries: number;
}

export async function submitAndResolve(client: BaseServiceClient, file: UploadFile, options: ResolveOptions): Promise<ResolvedSubmission> {
  const { mode, externalReferenceId: ref, signal } = options;
  const clock: Clock = { startedAt: performance.now(), policy: { ...client.retryPolicy, ...options.retry } };
  let retries = 0;
  const retryOptions = {
    signal,
    clock,
    onRetry: (event: { error: ServiceError; attempt: number; delayMs: number }) => {
      retries++;
      options.onRetry?.(event);
    },
  };
  const attributes = {
    file_name: options.fileName ?? file.name,
    ...(ref !== undefined ? { external_reference_id: ref } : {}),
    ...(options.basicChecksOnly ? { basic_checks_only: true } : {}),
  };

  let submissionError: ServiceError;
  try {
    const scan = await withRetries<Scan>(
      client,
      (attempt): Promise<Scan> => {
        const callOptions = { signal, onProgress: options.onProgress && ((p: UploadProgress) => options.onProgress!({ ...p, attempt })) };
        return mode === 'sync' ? client.submitSync(file, attributes, callOptions) : client.submitAsync(file, attributes, callOptions);
      },
      // Without a reference a retried POST could scan the file twice: one attempt only.
      ref !== undefined ? retryOptions : { ...retryOptions, clock: { ...clock, policy: { ...clock.policy, maxAttempts: 1 } } },
    );
    return { scan, via: 'submitted', retries };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    submissionError = error;
  }

  const fail = submissionError;
  if (fail.kind === 'sync_timeout' && fail.scanId) {
    // The scan exists and proceeds: continue with it, never resubmit.
    const scanId = fail.scanId;
    const scan = await withRetries(client, () => client.getScan(scanId, { signal }), retryOptions);
    return { scan, via: 'sync_timeout', retries };
  }
  if (ref !== undefined && (fail.kind === 'duplicate_reference' || fail.kind === 'malformed_response')) {
    // 409: our reference exists (a retried POST whose first answer was lost, or
    // a crash before we stored the answer). An unreadable answer to a POST may
    // hide a created scan too: look it up before giving up.
    try {
      const scan = await withRetries(client, () => client.getByReference(ref, { signal }), retryOptions);
      return { scan, via: 'adopted', retries };
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'not_found') throw fail;
      throw error;
    }
  }
  throw fail;
}

/**
 * Crash recovery: was a submission with this reference received? The scan if
 * so, null if the service has never seen the reference (404): submit again.
 */
export async function recoverByReference(client: BaseServiceClient, externalReferenceId: string, options: RetryOptions = {}): Promise<Scan | null> {
  try {
    return await withRetries(client, () => client.getByReference(externalReferenceId, { signal: options.signal }), options);
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'not_found') return null;
    throw error;
  }
}
