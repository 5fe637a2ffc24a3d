// A job's unchanged files (issue 26 §6, "the whole run counts"): a file the walk finds unchanged
// since an earlier clean verdict goes straight into the job's compact store, never as a `scans`
// row to be compacted later. The same SQL as the compaction (compact-job.ts), over a temporary
// table of the new rows instead of `scans`; and the job's compact files read back for a resumed run.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { fromStoredText } from '../../sqlite/stored-text.ts';
import type { HistoryDb } from '../history-db.ts';
import { keysetRows } from '../keyset-rows.ts';
import { recordToRow, rowToRecord } from '../row-mapping.ts';
import { COMPACT_FROM, COMPACT_ID_PREFIX, FOLDER_OF_PATH, KIND_COLUMNS, msOf, RECORD_OF_COMPACT } from './compact-sql.ts';

const TABLE = 'temp.job_unchanged_chunk';
const COLUMNS = ['path', 'file_name', 'size', 'sha256', 'md5', 'sha1', ...KIND_COLUMNS, 'queued_at', 'submitted_at', 'completed_at', 'duration_ms', 'reused_from_id'] as const;
const sameKind = KIND_COLUMNS.map((column) => `k.${column} IS s.${column}`).join(' AND ');

const SQL = {
  create: `CREATE TEMP TABLE IF NOT EXISTS job_unchanged_chunk (seq INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, ${COLUMNS.join(', ')}, folder TEXT)`,
  clear: `DELETE FROM ${TABLE}`,
  add: `INSERT INTO ${TABLE} (job_id, ${COLUMNS.join(', ')}) VALUES (?, ${COLUMNS.map(() => '?').join(', ')})`,
  folder: `UPDATE ${TABLE} AS s SET folder = ${FOLDER_OF_PATH}`,
  kinds: `INSERT INTO job_file_kinds (${KIND_COLUMNS.join(', ')})
    SELECT DISTINCT ${KIND_COLUMNS.map((column) => `s.${column}`).join(', ')} FROM ${TABLE} AS s
    WHERE NOT EXISTS (SELECT 1 FROM job_file_kinds AS k WHERE ${sameKind})`,
  folders: `INSERT OR IGNORE INTO job_folders (path) SELECT DISTINCT folder FROM ${TABLE}`,
  move: `INSERT INTO job_clean_files (job_id, folder_id, name, file_name, size, sha256, md5, sha1, kind_id, queued_ms, submitted_ms, completed_ms, duration_ms, reused_from_id)
    SELECT s.job_id, f.id, substr(s.path, length(s.folder) + 1), nullif(s.file_name, substr(s.path, length(s.folder) + 1)), s.size,
      unhex(s.sha256), unhex(s.md5), unhex(s.sha1), (SELECT min(k.id) FROM job_file_kinds AS k WHERE ${sameKind}),
      ${msOf('s.queued_at')}, ${msOf('s.submitted_at')} - ${msOf('s.queued_at')}, ${msOf('s.completed_at')} - ${msOf('s.queued_at')},
      s.duration_ms, s.reused_from_id
    FROM ${TABLE} AS s JOIN job_folders AS f ON f.path = s.folder ORDER BY s.seq RETURNING id`,
};

const lowerHex = (value: string | null, chars: number) => value === null || (value.length === chars && /^[0-9a-f]+$/.test(value));
/** The last time that round-tripped: a batch's files share a few (parsing every one cost a 20,000-file rescan 75 ms). */
let roundTripped = '';
const roundTrips = (iso: string | null) => {
  if (iso === null || iso === roundTripped) return true;
  if (new Date(iso).toISOString() !== iso) return false;
  roundTripped = iso;
  return true;
};

/** Whether the compact store keeps this clean verdict exactly (as COMPACTABLE asks of a `scans` row). */
export function fitsCompactStore(record: ScanRecord): boolean {
  return (
    record.status === 'completed' &&
    record.safe === true &&
    record.findings.length === 0 &&
    record.error === null &&
    (record.disposition ?? null) === null &&
    record.pendingReason === null &&
    lowerHex(record.sha256, 64) &&
    lowerHex(record.md5, 32) &&
    lowerHex(record.sha1, 40) &&
    roundTrips(record.queuedAt) &&
    roundTrips(record.submittedAt) &&
    roundTrips(record.completedAt)
  );
}

/**
 * Writes a job's clean records (each fitsCompactStore, with its jobId) into the compact store, in one
 * transaction; returns them as stored, each under its compact id (`clean:N`, in the order given).
 */
export function addUnchangedFiles(h: HistoryDb, records: readonly ScanRecord[]): ScanRecord[] {
  if (records.length === 0) return [];
  return h.transaction(() => {
    h.db.exec(SQL.create);
    h.prepare(SQL.clear).run();
    const add = h.prepare(SQL.add);
    for (const record of records) {
      if (record.jobId === undefined || !fitsCompactStore(record)) throw new Error('Only a job’s clean verdict goes to its compact store.');
      const row = recordToRow(record);
      add.run(record.jobId, ...COLUMNS.map((column) => row[column] ?? null));
    }
    h.prepare(SQL.folder).run();
    h.prepare(SQL.kinds).run();
    h.prepare(SQL.folders).run();
    const before = Number((h.prepare('SELECT coalesce(max(id), 0) AS id FROM job_clean_files').get() as { id: number }).id);
    const ids = (h.prepare(SQL.move).all() as Array<{ id: number }>).map((row) => Number(row.id)).sort((a, b) => a - b);
    if (ids.length !== records.length) throw new Error(`The compact store took ${ids.length} of ${records.length} unchanged files; none were written.`);
    h.compactNames.addAfter(before);
    h.prepare(SQL.clear).run();
    return records.map((record, i) => ({ ...record, id: `${COMPACT_ID_PREFIX}${ids[i]}`, externalReferenceId: `${COMPACT_ID_PREFIX}${ids[i]}` }));
  });
}

/** The paths of a job's files in the compact store (a resumed walk skips them too). */
export function* compactJobPaths(h: HistoryDb, jobId: number): Generator<string> {
  const sql = 'SELECT f.path || c.name AS path FROM job_clean_files AS c JOIN job_folders AS f ON f.id = c.folder_id WHERE c.job_id = ?';
  for (const row of h.prepare(sql).iterate(jobId)) yield fromStoredText((row as { path: string }).path);
}

/** A job's files in the compact store, in the order they were stored, a batch at a time. */
export function* compactJobRecords(h: HistoryDb, jobId: number): Generator<ScanRecord> {
  const rows = keysetRows(h, {
    first: `SELECT c.id AS seq, ${RECORD_OF_COMPACT} FROM ${COMPACT_FROM} WHERE c.job_id = ? ORDER BY c.id LIMIT ?`,
    next: `SELECT c.id AS seq, ${RECORD_OF_COMPACT} FROM ${COMPACT_FROM} WHERE c.job_id = ? AND c.id > ? ORDER BY c.id LIMIT ?`,
    params: [jobId],
    keyOf: (row) => [row.seq as number],
    batch: 500,
  });
  for (const row of rows) yield rowToRecord(row);
}
