// A quarantine operation's failures as Results: a file-system error becomes the code the
// UI words (source_missing, not_regular_file, io_error, …) with a message naming the file.
import type { QuarantineErrorCode } from '../../shared/quarantine/entry.ts';
import { err, type Result } from '../../shared/result.ts';
import { errorCode, HashMismatchError } from './file-moves.ts';

export type Failure = { ok: false; error: { code: QuarantineErrorCode; message: string } };
export const fail = (code: Failure['error']['code'], message: string): Failure => err(code, message) as Failure;

/** An unexpected exception becomes an io_error Result (the journal stays as it was: recover() ends it). */
export async function guarded<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn();
  } catch (error) {
    return fileError(error, null);
  }
}

export function fileError(error: unknown, file: string | null): Failure {
  const where = file ?? 'the file';
  if (error instanceof HashMismatchError) return fail('hash_mismatch', `${where} changed while it was being moved, so it was left where it was; scan it again.`);
  switch (errorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return fail('source_missing', `There is no file at ${where} any more.`);
    case 'ENOTREG':
    case 'ELOOP':
    case 'EISDIR':
      return fail('not_regular_file', `${where} is not a regular file; only files can be quarantined.`);
    case 'EACCES':
    case 'EPERM':
      return fail('io_error', `${where} could not be moved: permission denied.`);
    case 'EBUSY':
      return fail('io_error', `${where} is in use by another program; close it and try again.`);
    default:
      return fail('io_error', `${where}: ${(error as Error).message}`);
  }
}
