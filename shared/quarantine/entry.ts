// A quarantined file as the core, the IPC bridge and the renderer see it. The
// quarantine itself (electron/quarantine/) keeps these in its own database.
import { z } from 'zod';
import type { AppError } from '../result.ts';

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
  /** When a recheck after a signature update found nothing in it any more (electron/recheck/); absent otherwise. */
  noLongerDetectedAt: z.string().optional(),
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
 * Error codes of quarantine operations (Result.error.code, and a record's error
 * when its file could not be moved):
 * - not_found: no entry (or scan, or allowed content) with this id
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
export const QUARANTINE_ERROR_CODES = [
  'not_found',
  'invalid_state',
  'busy',
  'hash_mismatch',
  'restore_conflict',
  'target_folder_missing',
  'original_path_unknown',
  'source_missing',
  'not_regular_file',
  'invalid_target',
  'file_lost',
  'invalid_request',
  'io_error',
] as const;
export type QuarantineErrorCode = (typeof QUARANTINE_ERROR_CODES)[number];

export const isQuarantineErrorCode = (code: string | null | undefined): code is QuarantineErrorCode => (QUARANTINE_ERROR_CODES as readonly string[]).includes(code ?? '');

/**
 * Which case of a code, where one code covers several (the English message differs too):
 * - not_unsafe, in_quarantine, not_in_quarantine: invalid_state for a scan that is not a threat,
 *   a file in quarantine already, an entry no longer in quarantine;
 * - not_fingerprinted, quarantined_copy_changed: hash_mismatch for a scan without a digest, and
 *   for a quarantined copy whose content changed (on restore);
 * - not_allowed: not_found for content that is not on the allowed list.
 */
export const QUARANTINE_ERROR_CAUSES = ['not_unsafe', 'in_quarantine', 'not_in_quarantine', 'not_fingerprinted', 'quarantined_copy_changed', 'not_allowed'] as const;
export type QuarantineErrorCause = (typeof QUARANTINE_ERROR_CAUSES)[number];

/** The error's `params` the UI words a quarantine error with (each where it applies). */
export const quarantineErrorParamsSchema = z.object({
  /** The file concerned: the one to move, or where a restore would put it. */
  path: z.string().optional(),
  /** The folder a restore would put the file in. */
  folder: z.string().optional(),
  cause: z.enum(QUARANTINE_ERROR_CAUSES).optional(),
});
export type QuarantineErrorParams = z.infer<typeof quarantineErrorParamsSchema>;

/**
 * A record whose quarantined file was removed outside Verdict: the core marks it `deleted`
 * (the file is in neither place) with error `file_lost`, so the UI must not say the user deleted it.
 */
export const isLostFromQuarantine = (record: { disposition?: string | null; error?: { code: string } | null }): boolean =>
  record.disposition === 'deleted' && record.error?.code === 'file_lost';

/** One id's outcome in a bulk action. */
export type BulkOutcome<T> = { id: string; ok: true; value: T } | { id: string; ok: false; error: AppError };
