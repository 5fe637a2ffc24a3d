// A compacted file keeps its place wherever a scan is named by its id: a job's clean row that moves
// into the compact store gets a new one (`clean:<id>`). The recheck's memory (recheck_files,
// recheck_links): else its link to the earlier verdict named a row that no longer exists, and the
// history lost when that verdict was given ("what was known when"). The unchanged-file skip's memory
// and the job's rows reused from another of its files: else "reused from" named a scan that is gone.
import type { HistoryDb } from '../history-db.ts';
import { COMPACT_ID_PREFIX } from './compact-sql.ts';

const IDS_TABLE = 'temp.job_compact_ids';
export const CREATE_IDS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS job_compact_ids (scan_id TEXT PRIMARY KEY, compact_id TEXT NOT NULL) WITHOUT ROWID`;
/** Every id the job being compacted has renamed so far (its chunks are separate steps): a file reused from one in an earlier chunk. */
const JOB_IDS_TABLE = 'temp.job_compact_ids_of_job';
const CREATE_JOB_IDS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS job_compact_ids_of_job (scan_id TEXT PRIMARY KEY, compact_id TEXT NOT NULL, job_id INTEGER NOT NULL) WITHOUT ROWID`;

/** The chunk's scans ids paired with the compact ids written after `?`, into IDS_TABLE (its plan is tested). */
export const pairUpSql = (chunkTable: string): string =>
  `INSERT INTO ${IDS_TABLE} (scan_id, compact_id)
   SELECT moved.id, '${COMPACT_ID_PREFIX}' || made.id
     FROM (SELECT s.id, row_number() OVER (ORDER BY t.seq) AS k FROM ${chunkTable} AS t CROSS JOIN scans AS s ON s.seq = t.seq) AS moved
     JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM job_clean_files WHERE id > ?) AS made ON made.k = moved.k`;

const repoint = (table: string, column: string) =>
  `UPDATE ${table} SET ${column} = (SELECT m.compact_id FROM ${IDS_TABLE} AS m WHERE m.scan_id = ${table}.${column}) WHERE ${column} IN (SELECT scan_id FROM ${IDS_TABLE})`;
/**
 * The recheck's rows that name a scan in IDS_TABLE, renamed. IN (…): the chunk's ids lead, each row found
 * by its index (migration 21); an UPDATE … FROM read every row, as SQLite takes a temporary table for a
 * large one (its plan is tested).
 */
export const REPOINT_SQL = [repoint('recheck_files', 'record_id'), repoint('recheck_links', 'rechecked_from_id'), repoint('unchanged_files', 'record_id')];

/**
 * The chunk's compact rows (ids after `?`) reused from a file of the same job: renamed through every id the
 * job's compaction renamed so far (a job's reuse by content names an earlier file of it, mostly in an earlier
 * chunk). The chunk's rows are read by id, each name found by its key.
 */
const REUSED_FROM_SQL = `UPDATE job_clean_files SET reused_from_id = (SELECT m.compact_id FROM ${JOB_IDS_TABLE} AS m WHERE m.scan_id = job_clean_files.reused_from_id)
   WHERE id > ? AND reused_from_id IN (SELECT scan_id FROM ${JOB_IDS_TABLE})`;

/**
 * Before the chunk's scans rows are deleted: the compact rows written after id `before` are the
 * chunk's rows in seq order (one INSERT … ORDER BY seq), so the k-th of each pairs up. CROSS JOIN: the
 * chunk is the outer loop (see compact-job.ts), not a scan of every `scans` id.
 */
export function repointCompactedIds(h: HistoryDb, chunkTable: string, before: number, jobId: number): void {
  h.db.exec(CREATE_IDS_TABLE);
  h.db.exec(CREATE_JOB_IDS_TABLE);
  h.prepare(`DELETE FROM ${IDS_TABLE}`).run();
  // Another job's names are of no use here (a compaction that stopped before its end leaves them).
  h.prepare(`DELETE FROM ${JOB_IDS_TABLE} WHERE job_id <> ?`).run(jobId);
  h.prepare(pairUpSql(chunkTable)).run(before);
  for (const sql of REPOINT_SQL) h.prepare(sql).run();
  h.prepare(`INSERT OR REPLACE INTO ${JOB_IDS_TABLE} (scan_id, compact_id, job_id) SELECT scan_id, compact_id, ? FROM ${IDS_TABLE}`).run(jobId);
  h.prepare(REUSED_FROM_SQL).run(before);
  h.prepare(`DELETE FROM ${IDS_TABLE}`).run();
}

/** The job's compaction is over: the names it kept go. */
export function forgetJobIds(h: HistoryDb): void {
  h.db.exec(CREATE_JOB_IDS_TABLE);
  h.prepare(`DELETE FROM ${JOB_IDS_TABLE}`).run();
}
