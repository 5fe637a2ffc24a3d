// A compacted file keeps its place in the recheck's memory: recheck_files and recheck_links
// name a scan by its id, and a job's clean row that moves into the compact store gets a new one
// (`clean:<id>`). Without this the recheck's link to the earlier verdict named a row that no
// longer exists, and the history lost when that verdict was given ("what was known when").
import type { HistoryDb } from '../history-db.ts';
import { COMPACT_ID_PREFIX } from './compact-sql.ts';

const IDS_TABLE = 'temp.job_compact_ids';
export const CREATE_IDS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS job_compact_ids (scan_id TEXT PRIMARY KEY, compact_id TEXT NOT NULL) WITHOUT ROWID`;

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
export const REPOINT_SQL = [repoint('recheck_files', 'record_id'), repoint('recheck_links', 'rechecked_from_id')];

/**
 * Before the chunk's scans rows are deleted: the compact rows written after id `before` are the
 * chunk's rows in seq order (one INSERT … ORDER BY seq), so the k-th of each pairs up. CROSS JOIN: the
 * chunk is the outer loop (see compact-job.ts), not a scan of every `scans` id.
 */
export function repointRecheckIds(h: HistoryDb, chunkTable: string, before: number): void {
  h.db.exec(CREATE_IDS_TABLE);
  h.prepare(`DELETE FROM ${IDS_TABLE}`).run();
  h.prepare(pairUpSql(chunkTable)).run(before);
  for (const sql of REPOINT_SQL) h.prepare(sql).run();
  h.prepare(`DELETE FROM ${IDS_TABLE}`).run();
}
