// A job's unchanged files (issue 26 §6, "the whole run counts"): a file the walk finds unchanged
// since an earlier clean verdict goes straight into the job's compact store, never as a `scans`
// row to be compacted later. Stored as the compaction stores the same row (compact-job.ts; its
// property test holds the two alike), but one INSERT a file with its folder and kind looked up once
// a batch: a temporary table and an INSERT … SELECT cost a 20,000-file rescan about 300 ms more.
// And the job's compact files read back for a resumed run.
import type { SQLInputValue } from 'node:sqlite';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { fromStoredText, toStoredText } from '../../sqlite/stored-text.ts';
import { blobOf, lowerHex } from '../digest-blobs.ts';
import type { HistoryDb } from '../history-db.ts';
import { keysetRows } from '../keyset-rows.ts';
import { fieldsToColumns, rowToRecord } from '../row-mapping.ts';
import { COMPACT_FROM, COMPACT_ID_PREFIX, KIND_COLUMNS, RECORD_OF_COMPACT } from './compact-sql.ts';

const SQL = {
  kind: `SELECT min(id) AS id FROM job_file_kinds WHERE ${KIND_COLUMNS.map((column) => `${column} IS ?`).join(' AND ')}`,
  addKind: `INSERT INTO job_file_kinds (${KIND_COLUMNS.join(', ')}) VALUES (${KIND_COLUMNS.map(() => '?').join(', ')})`,
  addFolder: 'INSERT INTO job_folders (path) VALUES (?)',
  folder: 'SELECT id FROM job_folders WHERE path = ?',
  add: `INSERT INTO job_clean_files (job_id, folder_id, name, file_name, size, sha256, md5, sha1, kind_id, queued_ms, submitted_ms, completed_ms, duration_ms, reused_from_id)
    VALUES (${Array.from({ length: 14 }, () => '?').join(', ')})`,
};

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
    const ids = idsOnce(h);
    const add = h.prepare(SQL.add);
    // AUTOINCREMENT: one transaction's rows take consecutive ids above every earlier one, so the first tells where they start.
    let before = -1;
    const stored = records.map((record) => {
      if (record.jobId === undefined || !fitsCompactStore(record)) throw new Error('Only a job’s clean verdict goes to its compact store.');
      const { folder, name } = splitStoredPath(toStoredText(record.path));
      const fileName = toStoredText(record.fileName);
      const queuedMs = Date.parse(record.queuedAt);
      const id = add.run(
        record.jobId, ids.folder(folder), name, fileName === name ? null : fileName, record.size,
        blobOf(record.sha256), blobOf(record.md5), blobOf(record.sha1), ids.kind(kindOf(record)),
        queuedMs, sinceMs(record.submittedAt, queuedMs), sinceMs(record.completedAt, queuedMs), record.durationMs, record.reusedFromId,
      ).lastInsertRowid;
      if (before < 0) before = Number(id) - 1;
      return { ...record, id: `${COMPACT_ID_PREFIX}${id}`, externalReferenceId: `${COMPACT_ID_PREFIX}${id}` };
    });
    h.compactNames.addAfter(before);
    return stored;
  });
}

/**
 * The ids of folders and kinds, each asked (or added) once: a job's files share a few, and a clean
 * verdict moved here on its own (finish-clean.ts) would otherwise look both up again. Kept per
 * history (one connection: the data folder's lock) until a write is rolled back or unused ones are
 * deleted (forgetJobFileIds), either of which may take an id away.
 */
const knownIds = new WeakMap<HistoryDb, { folders: Map<string, number>; kinds: Map<string, number> }>();

/** Drops the ids idsOnce keeps: after a rollback (an id it added may be gone) or dropUnusedFolders. */
export function forgetJobFileIds(h: HistoryDb): void {
  knownIds.delete(h);
}

function idsOnce(h: HistoryDb) {
  let known = knownIds.get(h);
  if (!known) knownIds.set(h, (known = { folders: new Map(), kinds: new Map() }));
  const { folders, kinds } = known;
  return {
    folder(path: string): number {
      let id = folders.get(path);
      if (id === undefined) {
        // Looked up first: a job's folder is mostly there already (one statement, not two).
        const found = h.prepare(SQL.folder).get(path) as { id: number } | undefined;
        id = Number(found ? found.id : h.prepare(SQL.addFolder).run(path).lastInsertRowid);
        // A long job's earlier folders are not asked again.
        if (folders.size >= MAX_KNOWN) folders.clear();
        folders.set(path, id);
      }
      return id;
    },
    kind(values: SQLInputValue[]): number {
      const key = JSON.stringify(values);
      let id = kinds.get(key);
      if (id === undefined) {
        const found = (h.prepare(SQL.kind).get(...values) as { id: number | null }).id;
        id = Number(found ?? h.prepare(SQL.addKind).run(...values).lastInsertRowid);
        if (kinds.size >= MAX_KNOWN) kinds.clear();
        kinds.set(key, id);
      }
      return id;
    },
  };
}

const MAX_KNOWN = 1_000;

/** The record's values of KIND_COLUMNS, in their order, through the one record ↔ row mapping (row-mapping.ts). */
function kindOf({ origin, backend, mode, detailed, fileType, engine, reuseKind }: ScanRecord): SQLInputValue[] {
  const columns = fieldsToColumns({ origin, backend, mode, detailed, fileType, engine, reuseKind });
  return KIND_COLUMNS.map((column) => columns[column] ?? null);
}

/** A stored path's folder, up to and including its last separator (`/` or `\`), and the rest: its name (as FOLDER_OF_PATH splits it). */
function splitStoredPath(path: string): { folder: string; name: string } {
  const end = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  return { folder: path.slice(0, end), name: path.slice(end) };
}

/** Milliseconds from queuedMs to an ISO time that round-trips (fitsCompactStore has checked it); null stays null. */
const sinceMs = (iso: string | null, queuedMs: number): number | null => (iso === null ? null : Date.parse(iso) - queuedMs);

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
