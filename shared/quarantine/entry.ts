// A quarantined file as the core, the IPC bridge and the renderer see it. The
// quarantine itself (electron/quarantine/) keeps these in its own database.
import { z } from 'zod';

/**
 * quarantining → quarantined → restoring → restored | allowed
 *                            → deleting  → deleted
 * The -ing states are intents written before a file is touched; recover() ends
 * each one (forward or back) after a crash. `lost`: the file vanished from the
 * quarantine folder through something other than Verdict.
 */
export const quarantineStateSchema = z.enum(['quarantining', 'quarantined', 'restoring', 'deleting', 'restored', 'allowed', 'deleted', 'lost']);
export type QuarantineState = z.infer<typeof quarantineStateSchema>;

/** States in which the file is (or is about to be) in the quarantine folder. */
export const ACTIVE_QUARANTINE_STATES: readonly QuarantineState[] = ['quarantining', 'quarantined', 'restoring', 'deleting'];

export const quarantineEntrySchema = z.object({
  id: z.string(),
  /** Where the file was; null for a file found in the quarantine folder without a record (adopted on recovery). */
  originalPath: z.string().nullable(),
  fileName: z.string(),
  size: z.number().int().nonnegative(),
  /** Permission bits the file had (e.g. 0o644); restored without setuid/setgid/sticky. */
  mode: z.number().int().nonnegative(),
  sha256: z.string(),
  /** The scan (ScanRecord.id) whose verdict led here, if any. */
  recordId: z.string().nullable(),
  state: quarantineStateSchema,
  quarantinedAt: z.string(),
  /** When it was restored, allowed, deleted or found lost. */
  resolvedAt: z.string().nullable(),
  /** Where a restore or allow put the file back. */
  restoredTo: z.string().nullable(),
});
export type QuarantineEntry = z.infer<typeof quarantineEntrySchema>;

/** Content the user allowed: never flagged again for this user. */
export const allowedContentSchema = z.object({
  sha256: z.string(),
  fileName: z.string(),
  allowedAt: z.string(),
  /** The quarantine entry or scan it was allowed from. */
  entryId: z.string().nullable(),
  recordId: z.string().nullable(),
});
export type AllowedContent = z.infer<typeof allowedContentSchema>;

/**
 * Error codes of quarantine operations (Result.error.code):
 * - not_found: no entry with this id
 * - invalid_state: e.g. restoring an entry that was deleted
 * - busy: another operation on this entry or file is running
 * - hash_mismatch: the content is not the one scanned (quarantine) or no longer the one quarantined (restore)
 * - restore_conflict: something exists at the target path; choose another location
 * - target_folder_missing: the folder to restore into does not exist
 * - original_path_unknown: an adopted file without a recorded path; choose a location
 * - source_missing: the file to quarantine is gone
 * - not_regular_file: only regular files are quarantined
 * - invalid_target: a restore into the quarantine folder itself
 * - file_lost: the quarantined file vanished (not through Verdict)
 * - invalid_request: a malformed argument
 * - io_error: the file system refused (the message says why)
 */
export type QuarantineErrorCode =
  | 'not_found'
  | 'invalid_state'
  | 'busy'
  | 'hash_mismatch'
  | 'restore_conflict'
  | 'target_folder_missing'
  | 'original_path_unknown'
  | 'source_missing'
  | 'not_regular_file'
  | 'invalid_target'
  | 'file_lost'
  | 'invalid_request'
  | 'io_error';

/** One id's outcome in a bulk action. */
export type BulkOutcome<T> = { id: string; ok: true; value: T } | { id: string; ok: false; error: { code: string; message: string } };
