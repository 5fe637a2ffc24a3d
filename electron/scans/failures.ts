// What the pipeline does with an error, decided in one place: pause the queue
// for a key, try again later, or fail the file with a code the UI maps to a
// next step. Transient causes never fail a file.
import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import type { RecordError } from '../../shared/scans/record.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { FingerprintError } from '../fingerprint/fingerprint.ts';
import { isServiceError } from '../service-client/service-error.ts';
import { scanFailure } from './failure-text.ts';

/** A failure found on this machine (the file, not the service); fails the record. */
export class LocalFailure extends Error {
  readonly code: string;
  /** What the UI words the message from (failure-text.ts), when the core wrote it. */
  readonly params: ScanFailureParams | undefined;
  constructor(error: RecordError) {
    super(error.message);
    this.name = 'LocalFailure';
    this.code = error.code;
    this.params = error.params as ScanFailureParams | undefined;
  }

  /** As a record's `error`. */
  get recordError(): RecordError {
    return recordErrorOf(this);
  }
}

/** A failure as a record's `error` (its parameters only where the core wrote the message). */
export const recordErrorOf = (failure: { code: string; message: string; params?: ScanFailureParams | undefined }): RecordError =>
  failure.params ? { code: failure.code, message: failure.message, params: failure.params } : { code: failure.code, message: failure.message };

/** A local failure of this cause, with its code and English sentence. */
export const localFailure = (params: ScanFailureParams): LocalFailure => new LocalFailure(scanFailure(params));

/** What the record's `error` is built from: code, English sentence and, where the core wrote it, its parameters. */
type Failure = { code: string; message: string; params?: ScanFailureParams | undefined };

export type ErrorAction =
  | { action: 'pause_for_key'; message: string }
  | { action: 'retry'; reason: 'retrying' | 'service_unreachable'; code: string; message: string; retryAfterMs?: number }
  /** The POST may have reached the service but the answer was unusable: look the reference up, a few times at most. */
  | ({ action: 'retry_unclear' } & Failure)
  | ({ action: 'fail' } & Failure)
  | ({ action: 'file_problem' } & Failure)
  | { action: 'adopt'; scanId: string }
  | { action: 'lookup' }
  | { action: 'aborted' };

const failureOf = (error: { code: string; message: string; params?: ScanFailureParams | undefined }): Failure => ({
  code: error.code,
  message: error.message,
  params: error.params,
});

export function classifyError(error: unknown): ErrorAction {
  if (error instanceof LocalFailure) return { action: 'fail', ...failureOf(error) };
  if (isServiceError(error)) {
    const failure = { code: error.kind, message: error.message, params: error.params };
    switch (error.kind) {
      case 'unauthorized':
        return { action: 'pause_for_key', message: error.message };
      case 'rate_limited':
      case 'server_error':
        return { action: 'retry', reason: 'retrying', code: error.kind, message: error.message, retryAfterMs: error.retryAfterMs };
      case 'network':
      case 'timeout':
        return { action: 'retry', reason: 'service_unreachable', code: error.kind, message: error.message, retryAfterMs: error.retryAfterMs };
      case 'malformed_response':
        return { action: 'retry_unclear', ...failure };
      case 'sync_timeout':
        return error.scanId ? { action: 'adopt', scanId: error.scanId } : { action: 'retry_unclear', ...failure };
      case 'duplicate_reference':
        return { action: 'lookup' };
      case 'file_too_large':
      case 'invalid_request':
      case 'not_found':
        return { action: 'fail', ...failure };
      case 'file_unreadable':
        return { action: 'file_problem', ...failure };
      case 'aborted':
        return { action: 'aborted' };
    }
  }
  if (error instanceof FingerprintError) {
    const failure = fingerprintFailure(error);
    return { action: failure.code === 'file_changed' ? 'file_problem' : 'fail', ...failureOf(failure) };
  }
  const fsFailure = fileSystemFailure(error);
  if (fsFailure) return { action: 'fail', ...failureOf(fsFailure) };
  if ((error as { name?: string } | null)?.name === 'AbortError') return { action: 'aborted' };
  return { action: 'fail', ...failureOf(scanFailure({ cause: 'unexpected', detail: (error as Error)?.message ?? String(error) })) };
}

/** File system errors while reading a queued file, in words that say what to do. */
export function fileSystemFailure(error: unknown): LocalFailure | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return localFailure({ cause: 'gone' });
    case 'EACCES':
    case 'EPERM':
      return localFailure({ cause: 'permission_denied' });
    case 'ELOOP':
      return localFailure({ cause: 'symlink_loop' });
    case 'EISDIR':
      return localFailure({ cause: 'is_folder' });
    case 'EIO':
      return localFailure({ cause: 'disk_error' });
    default:
      return null;
  }
}

/** The fingerprint module's codes, with what to do next. */
function fingerprintFailure(error: FingerprintError): LocalFailure {
  const detail = error.detail;
  switch (error.code) {
    case 'not_found':
      return localFailure({ cause: 'gone' });
    case 'unreadable':
      return localFailure({ cause: 'permission_denied' });
    case 'not_regular_file':
      return notRegularFailure();
    case 'file_changed':
      return detail ? localFailure({ cause: 'replaced', path: detail.path }) : new LocalFailure({ code: 'file_changed', message: error.message });
    default:
      if (detail?.reason !== undefined) return localFailure({ cause: detail.phase === 'open' ? 'reopen_failed' : 'read_failed', path: detail.path, detail: detail.reason });
      return new LocalFailure({ code: 'read_failed', message: `${error.message} Check the disk and scan it again.` });
  }
}

/** Same code as intake's local size check: nothing was sent. */
export const tooLargeFailure = (size: number) => localFailure({ cause: 'over_service_limit', size, limit: MAX_ASYNC_FILE_SIZE });

export const notRegularFailure = () => localFailure({ cause: 'only_regular' });

export const fileChangedFailure = () => localFailure({ cause: 'kept_changing' });

export const changedDuringUploadFailure = () => localFailure({ cause: 'changed_during_upload' });
