// A scan job as every side sees it: the core runs it (electron/jobs/), the bridge
// carries it, the renderer shows it as one row. Declared once here; the core's
// job-state.ts re-exports these types.
import { z } from 'zod';
import type { ScanOrigin, ScanRecord } from '../scans/record.ts';

/** The kinds a user starts; `recheck` (recent files judged again after a signature update) is started by Verdict (electron/recheck/) or `verdict recheck`. */
export const STARTABLE_JOB_KINDS = ['quick', 'full', 'custom'] as const;
/** `drive`: a removable drive when it is mounted (electron/drives/), named after its label. */
export const JOB_KINDS = [...STARTABLE_JOB_KINDS, 'recheck', 'drive'] as const;
export const jobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof jobKindSchema>;

/**
 * running → paused → running …; then completed or cancelled (both final). `interrupted`: the process
 * running it stopped (quit, Ctrl-C, a crash, a full disk) before it ended; it is not final, and goes on
 * when it is resumed (at the next start, by *Resume*, or by the CLI running the same scan again).
 */
export type JobStatus = 'running' | 'paused' | 'interrupted' | 'completed' | 'cancelled';

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
  /** Among the scanned: judged by basic checks only (never clean). Absent in jobs counted before it was kept. */
  basicOnly?: number;
  /** Among the scanned: scanned in part (over a scan limit, encrypted; never clean). Absent as above. */
  partial?: number;
}

export interface JobState {
  id: number;
  kind: JobKind;
  roots: string[];
  /** Folders left out: the kind's default exclusions and a saved scan's own (shown with the job; each one met is a skipped row). */
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
  /** A `drive` job's drive: its label (the job's name) and filesystem UUID (null when it has none). */
  drive?: { label: string; uuid: string | null };
  /** A saved scan's job (electron/saved-scans/): the scan's name (the job's name) and the folders its settings leave out. */
  savedScan?: { name: string; excluded: string[] };
  /** Why a cancelled job ended, when not by the user: `drive_removed` (its drive was unmounted mid-scan). */
  stopReason?: JobStopReason;
}

export type JobStopReason = 'drive_removed';

export interface JobProgress {
  job: JobState;
  filesPerSecond: number;
  /** Seconds left, or null while the walk is still finding files (the total is not known). */
  etaSeconds: number | null;
}

/** What the window hears about jobs: progress (throttled; every change of state is sent) and jobs retention removed. */
export type JobUpdate = { type: 'progress'; progress: JobProgress } | { type: 'removed'; ids: number[] };

export const isFinalStatus = (status: JobStatus): boolean => status === 'completed' || status === 'cancelled';

/**
 * Whether a scan row shows in the main list as a row of its own: a job's clean,
 * failed and skipped files are reached through the job's row; its threats (and
 * content allowed after being flagged) also show among the other scans, so a
 * threat is never hidden behind a collapsed job.
 */
export function shownOutsideItsJob(record: Pick<ScanRecord, 'status' | 'safe' | 'jobId'>): boolean {
  return record.jobId === undefined || record.jobId === null || (record.status === 'completed' && record.safe === false);
}

const path = z.string().min(1).max(4096);
const jobId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A job to start: a quick or full scan of the user's folders, or a custom scan of chosen folders and files. */
export const jobStartSchema = z
  .object({ kind: z.enum(STARTABLE_JOB_KINDS), roots: z.array(path).min(1).max(1000).optional() })
  .strict()
  .refine((start) => (start.kind === 'custom') === (start.roots !== undefined), { message: 'A custom scan needs its folders; a quick or full scan takes none.' });
export type JobStart = z.infer<typeof jobStartSchema>;

export const jobIdSchema = jobId;
