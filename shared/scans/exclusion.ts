// Why a file (or a folder, or a link) was left out of scanning, as the core records it
// on a `skipped` scan and the UI words it: the codes, and the parameters each carries.
import { z } from 'zod';

/** The record's error code of a file an exclusion rule or the automatic size limit left out. */
export const EXCLUSION_REASONS = ['excluded_path', 'excluded_glob', 'excluded_extension', 'over_auto_scan_size'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

export const isExclusionReason = (code: string | null | undefined): code is ExclusionReason => (EXCLUSION_REASONS as readonly string[]).includes(code ?? '');

/**
 * The record error's `params` for an exclusion:
 * - scope: whose rule matched, the global ones, the watched folder's or a saved scan's (with its name);
 * - target: a file, or a folder that was not walked at all;
 * - rule: the path, pattern or extension as the user wrote it (path, glob, extension rules);
 * - limit / size: the automatic-scan size limit and the file's size in bytes (size limit; size when known).
 */
export const exclusionParamsSchema = z.union([
  z.object({
    scope: z.enum(['global', 'folder']),
    target: z.enum(['file', 'folder']),
    rule: z.string(),
  }),
  // A folder a saved scan's settings leave out (electron/jobs/walk-job.ts): the saved scan by its name.
  z.object({ scope: z.literal('saved'), target: z.literal('folder'), rule: z.string(), name: z.string() }),
  z.object({
    scope: z.enum(['global', 'folder']),
    target: z.literal('file'),
    limit: z.number().int().nonnegative(),
    size: z.number().int().nonnegative().optional(),
  }),
]);
export type ExclusionParams = z.infer<typeof exclusionParamsSchema>;

/**
 * The record's error code of a symbolic link met while walking a folder that leads out of it
 * (its real target is not inside the folder the user chose): not followed, nothing opened through it.
 * A link named directly (dropped, picked, on the command line) is followed: the user chose it.
 */
export const LINK_OUTSIDE = 'link_outside';

/**
 * Its `params`: the link (as found in the folder), the real path it leads to, and the real path
 * of the folder it was found in (a rescan checks the link against that folder again).
 */
export const linkOutsideParamsSchema = z.object({ path: z.string(), target: z.string(), folder: z.string() });
export type LinkOutsideParams = z.infer<typeof linkOutsideParamsSchema>;
