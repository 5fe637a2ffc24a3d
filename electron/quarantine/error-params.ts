// What a quarantine error is about, added to it as parameters (the file, the
// folder, which case of its code: shared/quarantine/entry.ts), so the UI can word
// it in its own language. The English message stays as it is, for the CLIs and logs.
import path from 'node:path';
import type { QuarantineErrorCause } from '../../shared/quarantine/entry.ts';
import type { AppError, ErrorParams } from '../../shared/result.ts';

/** What was attempted: moving a file in, putting it back (restore or allow), or deleting it. */
export type QuarantineOperation = 'move' | 'restore' | 'delete';

/**
 * `error` with the parameters its code needs: `file` is the file to move, or where a
 * restore would put it (null when not known). Parameters already there are kept.
 */
export function explainQuarantineError(error: AppError, operation: QuarantineOperation, file: string | null): AppError {
  if (error.params) return error;
  const params: ErrorParams = {};
  const cause = (value: QuarantineErrorCause) => (params.cause = value);
  switch (error.code) {
    case 'hash_mismatch':
      if (operation === 'restore') cause('quarantined_copy_changed');
      else if (file) params.path = file;
      break;
    case 'invalid_state':
      if (operation !== 'move') cause('not_in_quarantine');
      break;
    case 'target_folder_missing':
      if (file) params.folder = path.dirname(file);
      break;
    case 'restore_conflict':
    case 'source_missing':
    case 'not_regular_file':
    case 'io_error':
      if (file) params.path = file;
      break;
  }
  return Object.keys(params).length > 0 ? { ...error, params } : error;
}

/** An error of this code and case, with its English message (for the core's own refusals). */
export const quarantineRefusal = (code: string, message: string, cause?: QuarantineErrorCause): AppError =>
  cause ? { code, message, params: { cause } } : { code, message };
