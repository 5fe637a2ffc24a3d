// The history's scan jobs: one `jobs` row per job (its state, see electron/jobs/job-state.ts),
// and the questions a job asks about its own scan rows (scans.job_id).
import { jobRunOptionsSchema, type JobCounts, type JobKind, type JobRunOptions, type JobState } from '../jobs/job-state.ts';
import { SCANNED_IN_PART_LABEL } from '../../shared/scans/coverage.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { fromStoredText } from '../sqlite/stored-text.ts';
import type { HistoryDb } from './history-db.ts';
import { keysetRows } from './keyset-rows.ts';
import { rowToRecord } from './row-mapping.ts';
import { JOB_PENDING, NOT_CLEAN } from './migrations.ts';
import { expireJobsBeyond, expireJobsOlderThan } from './job-retention.ts';
import { compactStep, reclaimPages, uncompactedJobs, type CompactStep } from './job-files/compact-job.ts';
import { compactCount } from './job-files/compact-reads.ts';
import { addUnchangedFiles, compactJobPaths, compactJobRecords } from './job-files/add-unchanged.ts';

/** A job no process has ended: resumed at the next start. */
const UNFINISHED = "('running', 'paused', 'interrupted')";

interface JobRow {
  id: number;
  kind: string;
  roots_json: string;
  excluded_json: string;
  origin: string;
  status: string;
  walk_complete: number;
  found: number;
  bytes: number;
  scanned: number;
  threats: number;
  could_not_scan: number;
  basic_only: number | null;
  partial: number | null;
  skipped: number;
  started_at: string;
  finished_at: string | null;
  active_ms: number;
  run_json: string | null;
}

const fromRow = (row: JobRow): JobState => ({
  id: row.id,
  kind: row.kind as JobKind,
  roots: JSON.parse(row.roots_json) as string[],
  excluded: JSON.parse(row.excluded_json) as string[],
  origin: row.origin as JobState['origin'],
  status: row.status as JobState['status'],
  walkComplete: row.walk_complete === 1,
  counts: {
    found: row.found,
    bytes: row.bytes,
    scanned: row.scanned,
    threats: row.threats,
    couldNotScan: row.could_not_scan,
    skipped: row.skipped,
    // Kept since migration 15; a job counted before has neither.
    ...(row.basic_only !== null ? { basicOnly: row.basic_only } : {}),
    ...(row.partial !== null ? { partial: row.partial } : {}),
  },
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  activeMs: row.active_ms,
  currentFolder: null,
  runningSince: null,
  ...driveFields(row.run_json),
});

/** A drive job's drive and stop reason, a saved scan's name and left-out folders: kept in its run options (no column of their own). */
function driveFields(runJson: string | null): Pick<JobState, 'drive' | 'stopReason' | 'savedScan'> {
  if (!runJson?.includes('"drive"') && !runJson?.includes('"savedScan"')) return {};
  const parsed = jobRunOptionsSchema.safeParse(JSON.parse(runJson));
  if (!parsed.success) return {};
  const { drive, stopReason, savedScan } = parsed.data;
  return { ...(drive ? { drive } : {}), ...(stopReason ? { stopReason } : {}), ...(savedScan ? { savedScan } : {}) };
}

/** Stores a new job and how its files are scanned; returns its id. */
export function insertJob(h: HistoryDb, job: Omit<JobState, 'id'>, run: JobRunOptions = {}): number {
  const { lastInsertRowid } = h
    .prepare('INSERT INTO jobs (kind, roots_json, excluded_json, origin, status, started_at, run_json) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(job.kind, JSON.stringify(job.roots), JSON.stringify(job.excluded), job.origin, storedStatus(job.status), job.startedAt, JSON.stringify(jobRunOptionsSchema.parse(run)));
  saveJob(h, { ...job, id: Number(lastInsertRowid) });
  return Number(lastInsertRowid);
}

/**
 * A job running in this process is kept as `interrupted`: what the row says is true whenever another
 * process reads it, however this one ends (SIGKILL, a full disk); the running process shows its live state.
 */
const storedStatus = (status: JobState['status']) => (status === 'running' ? 'interrupted' : status);

export function saveJob(h: HistoryDb, job: JobState): void {
  const c = job.counts;
  h.prepare(
    `UPDATE jobs SET status = ?, walk_complete = ?, found = ?, bytes = ?, scanned = ?, threats = ?, could_not_scan = ?, skipped = ?, basic_only = ?, partial = ?,
       finished_at = ?, active_ms = ? WHERE id = ?`,
  ).run(storedStatus(job.status), job.walkComplete ? 1 : 0, c.found, c.bytes, c.scanned, c.threats, c.couldNotScan, c.skipped, c.basicOnly ?? null, c.partial ?? null, job.finishedAt, Math.round(job.activeMs), job.id);
  if (job.stopReason) h.prepare("UPDATE jobs SET run_json = json_set(coalesce(run_json, '{}'), '$.stopReason', ?) WHERE id = ?").run(job.stopReason, job.id);
}

export function jobById(h: HistoryDb, id: number): JobState | null {
  const row = h.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  return row ? fromRow(row) : null;
}

/** How the job's files are scanned, as it was started; the defaults for a job stored before schema 10 (or an unreadable value). */
export function jobRunOptions(h: HistoryDb, id: number): JobRunOptions {
  const row = h.prepare('SELECT run_json FROM jobs WHERE id = ?').get(id) as { run_json: string | null } | undefined;
  if (!row?.run_json) return {};
  try {
    const parsed = jobRunOptionsSchema.safeParse(JSON.parse(row.run_json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Unfinished jobs started with basic checks only: crash recovery sends their waiting rows so too. */
export function unfinishedBasicOnlyJobs(h: HistoryDb): number[] {
  const rows = h.prepare(`SELECT id FROM jobs WHERE status IN ${UNFINISHED} AND run_json IS NOT NULL AND json_extract(run_json, '$.basicOnly') = 1`).all() as Array<{ id: number }>;
  return rows.map((row) => Number(row.id));
}

/** Jobs, newest first. */
export function listJobs(h: HistoryDb, limit = 100): JobState[] {
  return (h.prepare('SELECT * FROM jobs ORDER BY id DESC LIMIT ?').all(limit) as unknown as JobRow[]).map(fromRow);
}

/** Jobs that were running, paused or interrupted when the app last stopped. */
export function unfinishedJobs(h: HistoryDb): JobState[] {
  return (h.prepare(`SELECT * FROM jobs WHERE status IN ${UNFINISHED} ORDER BY id`).all() as unknown as JobRow[]).map(fromRow);
}

/** The last completed job of a kind before `beforeId` (its pace gives the next run's ETA). */
export function lastCompletedJob(h: HistoryDb, kind: JobKind, beforeId: number): JobState | null {
  const row = h.prepare("SELECT * FROM jobs WHERE kind = ? AND status = 'completed' AND id < ? ORDER BY id DESC LIMIT 1").get(kind, beforeId) as JobRow | undefined;
  return row ? fromRow(row) : null;
}

/** The paths already recorded for a job (a resumed walk skips them), one at a time. */
export function* jobPaths(h: HistoryDb, id: number): Generator<string> {
  for (const row of h.prepare('SELECT path FROM scans WHERE job_id = ?').iterate(id)) yield fromStoredText((row as { path: string }).path);
  // Its unchanged files went straight to the compact store (add-unchanged.ts).
  yield* compactJobPaths(h, id);
}

/** The job's rows that have ended, oldest first, a batch at a time, then its compact files: what a resumed run reports again. */
export function* jobFinishedRecords(h: HistoryDb, id: number): Generator<ScanRecord> {
  const where = `FROM scans WHERE job_id = ? AND NOT (${JOB_PENDING})`;
  const rows = keysetRows(h, {
    first: `SELECT * ${where} ORDER BY seq LIMIT ?`,
    next: `SELECT * ${where} AND seq > ? ORDER BY seq LIMIT ?`,
    params: [id],
    keyOf: (row) => [row.seq as number],
    batch: 500,
  });
  for (const row of rows) yield rowToRecord(row);
  yield* compactJobRecords(h, id);
}

/** The job's rows not yet finished (recovery works on them; the job waits for them). */
export function jobPendingIds(h: HistoryDb, id: number): string[] {
  // The same WHERE as the partial index scans_job_pending (migration 8): a handful of rows, not the job's every file.
  return (h.prepare(`SELECT id FROM scans WHERE job_id = ? AND ${JOB_PENDING}`).all(id) as Array<{ id: string }>).map((row) => row.id);
}

/** The job's outcome counted from its rows (exact after a restart); found and bytes are the walk's. */
export type JobTotals = Omit<JobCounts, 'found' | 'bytes'> & { pending: number };

/** The job's rows (scans_by_job alone) and its other than clean rows by verdict (scans_job_not_clean): never each row's verdict. */
export const JOB_TOTALS_SQL = {
  rows: 'SELECT count(*) AS n FROM scans WHERE job_id = ?',
  // The generated verdict reads a file scanned in part as 'unsafe' (safe = 0): its label tells it apart (a threat's few rows are read).
  notClean: `SELECT CASE WHEN verdict = 'unsafe' AND detailed IS '${SCANNED_IN_PART_LABEL}' THEN 'partial' ELSE verdict END AS verdict, count(*) AS n FROM scans WHERE job_id = ? AND ${NOT_CLEAN} GROUP BY 1`,
};

export function jobTotals(h: HistoryDb, id: number): JobTotals {
  // Computing the verdict of each of a 100,000-file job's rows took 60 ms; its clean rows are what the others leave.
  const all = Number((h.prepare(JOB_TOTALS_SQL.rows).get(id) as { n: number }).n);
  const rows = h.prepare(JOB_TOTALS_SQL.notClean).all(id) as Array<{ verdict: string; n: number }>;
  const n = (verdict: string) => Number(rows.find((row) => row.verdict === verdict)?.n ?? 0);
  // A finished job's clean files are in the compact store (job-files/).
  const safe = all - rows.reduce((sum, row) => sum + Number(row.n), 0) + compactCount(h, id);
  return { scanned: safe + n('allowed') + n('unsafe') + n('partial'), threats: n('unsafe'), couldNotScan: n('could-not-scan'), skipped: n('skipped'), partial: n('partial'), pending: n('pending') };
}

export interface HistoryJobs {
  insert(job: Omit<JobState, 'id'>, run?: JobRunOptions): number;
  /** How the job's files are scanned, as it was started (a resume scans alike). */
  runOptions(id: number): JobRunOptions;
  /** Unfinished jobs started with basic checks only. */
  unfinishedBasicOnly(): number[];
  save(job: JobState): void;
  get(id: number): JobState | null;
  list(limit?: number): JobState[];
  unfinished(): JobState[];
  lastCompleted(kind: JobKind, beforeId: number): JobState | null;
  paths(id: number): Generator<string>;
  pendingIds(id: number): string[];
  /** The job's rows that have ended, oldest first (read in batches), then its files in the compact store. */
  finishedRecords(id: number): Generator<ScanRecord>;
  /** A job's files unchanged since an earlier clean verdict, written straight into its compact store; as stored (ids `clean:N`). */
  addUnchanged(records: readonly ScanRecord[]): ScanRecord[];
  totals(id: number): JobTotals;
  /** Retention: removes finished jobs that ended before `iso` (their threats and quarantined files stay); their ids. */
  expireOlderThan(iso: string): number[];
  /** Moves up to `max` of a finished job's clean rows into the compact store (one transaction). */
  compactStep(id: number, max: number): CompactStep;
  /** Finished jobs whose clean rows have not all moved yet, oldest first. */
  uncompacted(): number[];
  /** One step of tidying after a compaction (name indexes merged, free pages given back), about `maxPages` pages; 0: done. */
  reclaimSpace(maxPages: number): number;
  /** Retention: removes finished jobs beyond the newest `count` entries (a job is one entry); their ids. */
  expireBeyond(count: number): number[];
}

export const historyJobs = (h: HistoryDb): HistoryJobs => ({
  insert: (job, run) => h.transaction(() => insertJob(h, job, run)),
  runOptions: (id) => jobRunOptions(h, id),
  unfinishedBasicOnly: () => unfinishedBasicOnlyJobs(h),
  save: (job) => saveJob(h, job),
  get: (id) => jobById(h, id),
  list: (limit) => listJobs(h, limit),
  unfinished: () => unfinishedJobs(h),
  lastCompleted: (kind, beforeId) => lastCompletedJob(h, kind, beforeId),
  paths: (id) => jobPaths(h, id),
  pendingIds: (id) => jobPendingIds(h, id),
  finishedRecords: (id) => jobFinishedRecords(h, id),
  addUnchanged: (records) => addUnchangedFiles(h, records),
  totals: (id) => jobTotals(h, id),
  compactStep: (id, max) => compactStep(h, id, max),
  uncompacted: () => uncompactedJobs(h),
  reclaimSpace: (maxPages) => {
    h.flush();
    return reclaimPages(h, maxPages);
  },
  expireOlderThan: (iso) => expireJobsOlderThan(h, iso),
  expireBeyond: (count) => expireJobsBeyond(h, count),
});
