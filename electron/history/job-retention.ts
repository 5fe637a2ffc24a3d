// History retention with scan jobs: a finished job is one entry, like one scan, however
// many files it scanned. When it expires its clean, failed and skipped rows go with its
// `jobs` row; its threats and any file in quarantine stay (they also show in the list as
// rows of their own). Unfinished jobs and their rows are never touched.
import type { HistoryDb } from './history-db.ts';
import { deleteWhere, ENTRIES_BEYOND, EXPIRES, FINAL_JOB } from './history-writes.ts';
import { deleteCompactFiles, dropUnusedFolders } from './job-files/compact-expire.ts';

/** A job's rows that go with it: those retention removes of a single scan too (finished, not a threat, not in quarantine). */
const GOES_WITH_JOB = EXPIRES;

/** Removes a finished job: its rows that go with it, then its own row. Returns how many scan rows went. */
export function expireJob(h: HistoryDb, id: number): number {
  return h.transaction(() => {
    const removed = deleteWhere(h, `SELECT seq FROM scans WHERE job_id = ? AND ${GOES_WITH_JOB}`, id).length + deleteCompactFiles(h, id);
    h.prepare(`DELETE FROM jobs WHERE id = ? AND ${FINAL_JOB}`).run(id);
    return removed;
  });
}

const expireAll = (h: HistoryDb, ids: number[]): number[] => {
  for (const id of ids) expireJob(h, id);
  if (ids.length > 0) dropUnusedFolders(h);
  return ids;
};

/** Removes the finished jobs that ended before `iso`; returns their ids. */
export function expireJobsOlderThan(h: HistoryDb, iso: string): number[] {
  const rows = h.prepare(`SELECT id FROM jobs WHERE ${FINAL_JOB} AND coalesce(finished_at, started_at) < ?`).all(iso) as Array<{ id: number }>;
  return expireAll(h, rows.map((row) => Number(row.id)));
}

/** Removes the finished jobs that are not among the newest `count` entries; returns their ids. */
export function expireJobsBeyond(h: HistoryDb, count: number): number[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('Retention keeps a whole number of entries (0 or more).');
  const rows = h.prepare(`SELECT key FROM (${ENTRIES_BEYOND}) WHERE kind = 1`).all(count) as Array<{ key: number }>;
  return expireAll(h, rows.map((row) => Number(row.key)));
}
