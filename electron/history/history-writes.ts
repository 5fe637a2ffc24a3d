// Writing the history: new rows (with their name index entries), changes to a
// row, and retention's deletes.
import type { SQLInputValue } from 'node:sqlite';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { parseOrExplain, SELECT_COLUMNS, type HistoryDb } from './history-db.ts';
import { recordById } from './history-reads.ts';
import { fieldsToColumns, insertSchema, patchSchema, RECORD_COLUMNS, recordValues, rowToRecord, type RecordColumn, type ScanRecordPatch } from './row-mapping.ts';

const FILE_NAME_AT = RECORD_COLUMNS.indexOf('file_name');
const INSERT_SQL = `INSERT INTO scans (${RECORD_COLUMNS.join(', ')}, job_id) VALUES (${RECORD_COLUMNS.map(() => '?').join(', ')}, ?)`;

/** Rows retention may delete: finished, and not the record of a file in quarantine. */
export const TERMINAL = `status IN ('completed', 'failed', 'skipped') AND (disposition IS NULL OR disposition NOT IN ('quarantine_pending', 'quarantined'))`;

/** A threat's record (as found; whatever was done about it since): retention keeps it, of a single scan or of a job. */
const THREAT = "status = 'completed' AND safe = 0";

/** Rows retention removes ("keep N days / N scans"): finished, neither a threat nor in quarantine. "Clear history" removes every TERMINAL one. */
export const EXPIRES = `${TERMINAL} AND NOT (${THREAT})`;

export const FINAL_JOB = "status IN ('completed', 'cancelled')";

/**
 * What retention counts, newest first: each scan of its own that it may remove (EXPIRES)
 * and each finished scan job, as one entry (job-retention.ts). Threats are always kept, so they do not count.
 */
export const ENTRIES_BEYOND = `SELECT kind, key FROM (
    SELECT 0 AS kind, seq AS key, queued_at AS at FROM scans WHERE job_id IS NULL AND ${EXPIRES}
    UNION ALL SELECT 1, id, started_at FROM jobs WHERE ${FINAL_JOB}
  ) ORDER BY at DESC, kind DESC, key DESC LIMIT -1 OFFSET ?`;

/**
 * Stores records in one transaction (all or none), each with its name index entry (and the scan job they belong to).
 * `validate`: false for the pipeline's own records (typed, built by queuedRecord), not checked field by field again:
 * about a tenth of what the core's thread allocated per file in a 20,000-file scan.
 */
export function insertRecords(h: HistoryDb, records: readonly ScanRecord[], jobId: number | null = null, validate = true): ScanRecord[] {
  return h.transaction(() =>
    records.map((record) => {
      const valid = validate ? parseOrExplain(insertSchema, record, 'scan record') : record;
      const values = recordValues(valid);
      values.push(valid.jobId ?? jobId);
      const { lastInsertRowid } = h.prepare(INSERT_SQL).run(...values);
      h.nameIndex.add(lastInsertRowid, values[FILE_NAME_AT]!);
      return valid;
    }),
  );
}

export function updateRecord(h: HistoryDb, id: string, patch: ScanRecordPatch): ScanRecord | null {
  const valid = parseOrExplain(patchSchema, patch, 'scan record change');
  const columns = fieldsToColumns(valid);
  const names = Object.keys(columns) as RecordColumn[];
  if (names.length === 0) return recordById(h, id);
  const sql = `UPDATE scans SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ? RETURNING seq, ${SELECT_COLUMNS}`;
  const run = () => h.prepare(sql).get(...names.map((name) => columns[name] ?? null), id);
  if (columns.file_name === undefined) {
    const row = run();
    return row ? rowToRecord(row) : null;
  }
  // A renamed record moves in the name index too.
  return h.transaction(() => {
    const before = h.prepare('SELECT seq, file_name FROM scans WHERE id = ?').get(id) as { seq: number; file_name: string } | undefined;
    const row = run();
    if (!before || !row) return null;
    h.nameIndex.remove(before.seq, before.file_name);
    h.nameIndex.add(before.seq, row.file_name as string);
    return rowToRecord(row);
  });
}

/**
 * Writes a patch the caller built itself to a record it holds (as last read or written): no
 * validation again and no read back; the record as it is now, or null when no row has this id.
 * A rename (which moves the name index entry too) goes through updateRecord.
 */
export function applyPatch(h: HistoryDb, record: ScanRecord, patch: ScanRecordPatch): ScanRecord | null {
  if (patch.fileName !== undefined) return updateRecord(h, record.id, patch);
  const columns = fieldsToColumns(patch);
  const names = Object.keys(columns) as RecordColumn[];
  if (names.length === 0) return recordById(h, record.id);
  // One statement per set of columns (cached by it), its values in that order.
  const key = names.join(',');
  let sql = updateSql.get(key);
  if (sql === undefined) updateSql.set(key, (sql = `UPDATE scans SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`));
  const values: SQLInputValue[] = names.map((name) => columns[name] ?? null);
  values.push(record.id);
  const { changes } = h.prepare(sql).run(...values);
  if (Number(changes) === 0) return null;
  return patchedRecord(record, patch);
}

/** The record with the patch's fields that are set (undefined leaves a field as it was). */
export function patchedRecord(record: ScanRecord, patch: ScanRecordPatch): ScanRecord {
  const next: Record<string, unknown> = { ...record };
  for (const field in patch) {
    const value = patch[field as keyof ScanRecordPatch];
    if (value !== undefined) next[field] = value;
  }
  return next as ScanRecord;
}

/** UPDATE texts by the columns they set (a few shapes recur: a verdict, a failure, a state). */
const updateSql = new Map<string, string>();

/** Deletes rows chosen by a `SELECT seq …` and unindexes their names; returns their ids. */
export function deleteWhere(h: HistoryDb, selectSeqs: string, ...params: SQLInputValue[]): string[] {
  return h.transaction(() => {
    const rows = h.prepare(`DELETE FROM scans WHERE seq IN (${selectSeqs}) RETURNING seq, id, file_name`).all(...params) as Array<{
      seq: number;
      id: string;
      file_name: string;
    }>;
    for (const row of rows) h.nameIndex.remove(row.seq, row.file_name);
    return rows.map((row) => row.id);
  });
}

/** Scans of their own (a job's rows go with their job: job-retention.ts) queued before `iso`, except threats. */
export const deleteOlderThan = (h: HistoryDb, iso: string): string[] =>
  deleteWhere(h, `SELECT seq FROM scans WHERE queued_at < ? AND job_id IS NULL AND ${EXPIRES}`, iso);

/** "Clear history" for scans of their own: every finished one goes, threats too; files in quarantine stay. */
export const clearFinished = (h: HistoryDb): string[] => deleteWhere(h, `SELECT seq FROM scans WHERE job_id IS NULL AND ${TERMINAL}`);

export function keepLast(h: HistoryDb, count: number): string[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('keepLast needs a whole number of records (0 or more).');
  // A finished job counts as one entry among them (job-retention.ts expires it).
  return deleteWhere(h, `SELECT key FROM (${ENTRIES_BEYOND}) WHERE kind = 0`, count);
}
