// Writing the history: new rows (with their name index entries), changes to a
// row, and retention's deletes.
import type { SQLInputValue } from 'node:sqlite';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { parseOrExplain, SELECT_COLUMNS, type HistoryDb } from './history-db.ts';
import { recordById } from './history-reads.ts';
import { fieldsToColumns, insertSchema, patchSchema, RECORD_COLUMNS, recordToRow, rowToRecord, type RecordColumn, type ScanRecordPatch } from './row-mapping.ts';

const INSERT_SQL = `INSERT INTO scans (${SELECT_COLUMNS}, job_id) VALUES (${RECORD_COLUMNS.map(() => '?').join(', ')}, ?)`;

/** Rows retention may delete: finished, and not the record of a file in quarantine. */
const TERMINAL = `status IN ('completed', 'failed', 'skipped') AND (disposition IS NULL OR disposition NOT IN ('quarantine_pending', 'quarantined'))`;

/** Stores records in one transaction (all or none), each with its name index entry (and the scan job they belong to). */
export function insertRecords(h: HistoryDb, records: readonly ScanRecord[], jobId: number | null = null): ScanRecord[] {
  return h.transaction(() =>
    records.map((record) => {
      const valid = parseOrExplain(insertSchema, record, 'scan record');
      const row = recordToRow(valid);
      const { lastInsertRowid } = h.prepare(INSERT_SQL).run(...RECORD_COLUMNS.map((column) => row[column] ?? null), jobId);
      h.nameIndex.add(lastInsertRowid, valid.fileName);
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
  const sql = `UPDATE scans SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`;
  const { changes } = h.prepare(sql).run(...names.map((name) => columns[name] ?? null), record.id);
  if (Number(changes) === 0) return null;
  const next: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) next[key] = value;
  return next as ScanRecord;
}

/** Deletes rows chosen by a `SELECT seq …` and unindexes their names; returns their ids. */
function deleteWhere(h: HistoryDb, selectSeqs: string, ...params: SQLInputValue[]): string[] {
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

export const deleteOlderThan = (h: HistoryDb, iso: string): string[] => deleteWhere(h, `SELECT seq FROM scans WHERE queued_at < ? AND ${TERMINAL}`, iso);

export function keepLast(h: HistoryDb, count: number): string[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('keepLast needs a whole number of records (0 or more).');
  return deleteWhere(h, `SELECT seq FROM scans WHERE ${TERMINAL} ORDER BY queued_at DESC, seq DESC LIMIT -1 OFFSET ?`, count);
}
