// A scan job's state, the one type the jobs subsystem shares: what it scans (kind,
// roots, the folders its defaults leave out), where it is (status, whether the walk
// is done) and what it found. Persisted as one row of the history's `jobs` table;
// `currentFolder` and `runningSince` are live only.
import { z } from 'zod';
import type { JobCounts } from '../../shared/jobs/job.ts';
import { modeChoiceSchema } from '../../shared/scans/record.ts';

// Declared once in shared/ (the window shows jobs too).
export { JOB_KINDS, isFinalStatus as isFinal } from '../../shared/jobs/job.ts';
export type { JobCounts, JobKind, JobState, JobStatus } from '../../shared/jobs/job.ts';

export const emptyCounts = (): JobCounts => ({ found: 0, bytes: 0, scanned: 0, threats: 0, couldNotScan: 0, skipped: 0, basicOnly: 0, partial: 0 });

/** Files accounted for: every found entry ends in one of these (threats are among the scanned). */
export const doneCount = (counts: JobCounts): number => counts.scanned + counts.couldNotScan + counts.skipped;

/** How a job's files are scanned, as its caller asked (the CLI's --mode, --force, --basic-only); kept with the job, so a resume scans alike. */
export const jobRunOptionsSchema = z.object({
  mode: modeChoiceSchema.optional(),
  force: z.boolean().optional(),
  basicOnly: z.boolean().optional(),
  /** A `drive` job's drive (its name), and why it stopped when its drive went (set at the end). */
  drive: z.object({ label: z.string(), uuid: z.string().nullable() }).optional(),
  stopReason: z.literal('drive_removed').optional(),
  /** A saved scan's job: its name and the folders its settings leave out (shown and worded as the saved scan's). */
  savedScan: z.object({ name: z.string(), excluded: z.array(z.string()) }).optional(),
});
export type JobRunOptions = z.infer<typeof jobRunOptionsSchema>;
