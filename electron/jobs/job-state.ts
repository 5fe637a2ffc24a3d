// A scan job's state, the one type the jobs subsystem shares: what it scans (kind,
// roots, the folders its defaults leave out), where it is (status, whether the walk
// is done) and what it found. Persisted as one row of the history's `jobs` table;
// `currentFolder` and `runningSince` are live only.
import type { ScanOrigin } from '../../shared/scans/record.ts';

export const JOB_KINDS = ['quick', 'full', 'custom'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** running → paused → running …; then completed or cancelled (both final). */
export type JobStatus = 'running' | 'paused' | 'completed' | 'cancelled';

export interface JobCounts {
  /** Entries the walk yielded: files, refusals and skipped folders or links. */
  found: number;
  /** Bytes of the files found. */
  bytes: number;
  /** Files that got a verdict (safe, unsafe or allowed): the threats are among them. */
  scanned: number;
  threats: number;
  couldNotScan: number;
  skipped: number;
}

export interface JobState {
  id: number;
  kind: JobKind;
  roots: string[];
  /** Folders left out by the kind's default exclusions (shown with the job; each one met is a skipped row). */
  excluded: string[];
  origin: ScanOrigin;
  status: JobStatus;
  walkComplete: boolean;
  counts: JobCounts;
  startedAt: string;
  finishedAt: string | null;
  /** Time spent running (not paused), summed over runs and restarts. */
  activeMs: number;
  currentFolder: string | null;
  /** When the current run started (ms), or null while paused or finished. */
  runningSince: number | null;
}

export const emptyCounts = (): JobCounts => ({ found: 0, bytes: 0, scanned: 0, threats: 0, couldNotScan: 0, skipped: 0 });

export const isFinal = (status: JobStatus): boolean => status === 'completed' || status === 'cancelled';

/** Files accounted for: every found entry ends in one of these (threats are among the scanned). */
export const doneCount = (counts: JobCounts): number => counts.scanned + counts.couldNotScan + counts.skipped;
