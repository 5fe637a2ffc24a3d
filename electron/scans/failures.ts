// What the pipeline does with an error, decided in one place: pause the queue
// for a key, try again later, or fail the file with a code the UI maps to a
// next step. Transient causes never fail a file.
import { MAX_ASYNC_FILE_SIZE, MB } from '../../shared/service-contract/limits.ts';
import { FingerprintError } from '../fingerprint/fingerprint.ts';
import { isServiceError } from '../service-client/service-error.ts';

/** A failure found on this machine (the file, not the service); fails the record. */
export class LocalFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'LocalFailure';
    this.code = code;
  }
}

export type ErrorAction =
  | { action: 'pause_for_key'; message: string }
  | { action: 'retry'; reason: 'retrying' | 'service_unreachable'; code: string; message: string; retryAfterMs?: number }
  /** The POST may have reached the service but the answer was unusable: look the reference up, a few times at most. */
  | { action: 'retry_unclear'; code: string; message: string }
  | { action: 'fail'; code: string; message: string }
  | { action: 'file_problem'; code: string; message: string }
  | { action: 'adopt'; scanId: string }
  | { action: 'lookup' }
  | { action: 'aborted' };

export function classifyError(error: unknown): ErrorAction {
  if (error instanceof LocalFailure) return { action: 'fail', code: error.code, message: error.message };
  if (isServiceError(error)) {
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
        return { action: 'retry_unclear', code: error.kind, message: error.message };
      case 'sync_timeout':
        return error.scanId ? { action: 'adopt', scanId: error.scanId } : { action: 'retry_unclear', code: error.kind, message: error.message };
      case 'duplicate_reference':
        return { action: 'lookup' };
      case 'file_too_large':
      case 'invalid_request':
      case 'not_found':
        return { action: 'fail', code: error.kind, message: error.message };
      case 'file_unreadable':
        return { action: 'file_problem', code: error.kind, message: error.message };
      case 'aborted':
        return { action: 'aborted' };
    }
  }
  if (error instanceof FingerprintError) {
    const failure = fingerprintFailure(error);
    return failure.code === 'file_changed' ? { action: 'file_problem', code: failure.code, message: failure.message } : { action: 'fail', code: failure.code, message: failure.message };
  }
  const fsFailure = fileSystemFailure(error);
  if (fsFailure) return { action: 'fail', code: fsFailure.code, message: fsFailure.message };
  if ((error as { name?: string } | null)?.name === 'AbortError') return { action: 'aborted' };
  return { action: 'fail', code: 'internal_error', message: `Verdict could not handle this file: ${(error as Error)?.message ?? String(error)}` };
}

/** File system errors while reading a queued file, in words that say what to do. */
export function fileSystemFailure(error: unknown): LocalFailure | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new LocalFailure('not_found', 'The file is no longer there (moved or deleted). Add it again to scan it.');
    case 'EACCES':
    case 'EPERM':
      return new LocalFailure('unreadable', 'Verdict is not allowed to read this file (permission denied). Give your user read access and scan it again.');
    case 'ELOOP':
      return new LocalFailure('symlink_loop', 'The path is a symbolic link loop; there is no file to scan.');
    case 'EISDIR':
      return new LocalFailure('not_regular_file', 'This is a folder, not a file.');
    case 'EIO':
      return new LocalFailure('read_error', 'The disk reported an input/output error while reading the file.');
    default:
      return null;
  }
}

/** The fingerprint module's codes, with what to do next. */
function fingerprintFailure(error: FingerprintError): LocalFailure {
  switch (error.code) {
    case 'not_found':
      return fileSystemFailure(Object.assign(new Error(), { code: 'ENOENT' }))!;
    case 'unreadable':
      return fileSystemFailure(Object.assign(new Error(), { code: 'EACCES' }))!;
    case 'not_regular_file':
      return notRegularFailure();
    case 'file_changed':
      return new LocalFailure('file_changed', error.message);
    default:
      return new LocalFailure('read_failed', `${error.message} Check the disk and scan it again.`);
  }
}

/** Same code as intake's local size check: nothing was sent. */
export const tooLargeFailure = (size: number) =>
  new LocalFailure(
    'too_large',
    `The file is ${(size / MB).toFixed(1)} MB; the service accepts files up to ${MAX_ASYNC_FILE_SIZE / MB} MB. Nothing was sent.`,
  );

export const notRegularFailure = () =>
  new LocalFailure('not_regular_file', 'Only regular files are scanned (not folders, devices, pipes or sockets).');

export const fileChangedFailure = () =>
  new LocalFailure('file_changed', 'The file kept changing while Verdict read it. Scan it again once it is complete.');

export const changedDuringUploadFailure = () =>
  new LocalFailure(
    'file_changed',
    'The file changed while it was being uploaded: the service scanned other content than Verdict had read, so its verdict is not used. Scan it again.',
  );
