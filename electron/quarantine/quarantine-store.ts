// The quarantine's journal and allow-list: `<dataDir>/quarantine/quarantine.sqlite`.
// Its own database, not a table in history.sqlite: history's retention and
// "clear history" must never touch it, a damaged history set aside must not
// take the record of quarantined files with it, and history's schema belongs
// to another module. synchronous=FULL: an intent must be on disk before the
// file it describes is moved (quarantine operations are rare; the fsync is cheap here).
// Paths and names are stored losslessly (sqlite/stored-text.ts): a file whose name is not
// UTF-8 goes back under its exact bytes.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { quarantineStateSchema, type AllowedContent, type QuarantineEntry, type QuarantineState } from '../../shared/quarantine/entry.ts';
import { openOrSetAside, openSqliteFile } from '../sqlite/open-sqlite.ts';
import { createTransactions, statementCache } from '../sqlite/statements.ts';
import { DOUBLE_MARKS_SQL, fromStoredText, HOLDS_MARK_SQL, toStoredText } from '../sqlite/stored-text.ts';

/** A pending restore: what it is for and where the file goes. */
export type PendingAction = 'restore' | 'allow';

/** An entry with the journal fields the renderer never sees (noLongerDetectedAt is the recheck's word on it, not a column). */
export interface StoredEntry extends Omit<QuarantineEntry, 'noLongerDetectedAt'> {
  storedName: string;
  mtimeMs: number | null;
  action: PendingAction | null;
  targetPath: string | null;
}

export interface QuarantineStore {
  readonly warning: string | null;
  insert(entry: StoredEntry): void;
  update(id: string, patch: Partial<Omit<StoredEntry, 'id'>>): StoredEntry | null;
  remove(id: string): void;
  get(id: string): StoredEntry | null;
  byRecord(recordId: string): StoredEntry[];
  byStoredName(name: string): StoredEntry | null;
  list(states: readonly QuarantineState[] | null): StoredEntry[];
  /** Whether an entry with this content was restored (not allowed) to this path. */
  wasRestoredTo(sha256: string, target: string): boolean;
  allow(content: AllowedContent): void;
  isAllowed(sha256: string): boolean;
  allowed(): AllowedContent[];
  revokeAllowed(sha256: string): boolean;
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** 2: paths and names in their stored form (a U+FDD0 stored before doubled). */
const SCHEMA_VERSION = 2;

/** The entry fields that may hold a path or a file name. */
const NAME_FIELDS = new Set<keyof StoredEntry>(['originalPath', 'fileName', 'targetPath', 'restoredTo']);
/** A field's value as written to its column. */
const columnValue = (field: keyof StoredEntry, value: unknown): SQLInputValue =>
  (NAME_FIELDS.has(field) && typeof value === 'string' ? toStoredText(value) : (value ?? null)) as SQLInputValue;

const COLUMNS: Record<keyof StoredEntry, string> = {
  id: 'id',
  storedName: 'stored_name',
  originalPath: 'original_path',
  fileName: 'file_name',
  size: 'size',
  mode: 'mode',
  mtimeMs: 'mtime_ms',
  sha256: 'sha256',
  recordId: 'record_id',
  state: 'state',
  action: 'action',
  targetPath: 'target_path',
  quarantinedAt: 'quarantined_at',
  resolvedAt: 'resolved_at',
  restoredTo: 'restored_to',
};
const FIELDS = Object.keys(COLUMNS) as Array<keyof StoredEntry>;
const SELECT = FIELDS.map((field) => `${COLUMNS[field]} AS ${field}`).join(', ');

export function openQuarantineStore(file: string): QuarantineStore {
  const { db, setAside } = openOrSetAside(file, (target) => openSqliteFile(target, { synchronous: 'FULL', setup: migrate }));
  // The files stay in the folder: recover() adopts every one it finds without an entry.
  const warning = setAside
    ? `The quarantine index could not be read (${setAside.reason}); it was set aside and the quarantined files were re-indexed.`
    : null;

  const cached = statementCache(db);
  // Reads take integers as BigInt: one past 2^53 in a damaged file would otherwise make the read throw (rowToEntry converts).
  const prepare = (sql: string) => {
    const statement = cached(sql);
    if (sql.startsWith('SELECT')) statement.setReadBigInts(true);
    return statement;
  };
  const { write: transaction } = createTransactions(db);
  const toEntry = (row: Record<string, unknown> | undefined): StoredEntry | null => (row ? rowToEntry(row) : null);
  const get = (id: string) => toEntry(prepare(`SELECT ${SELECT} FROM entries WHERE id = ?`).get(id));

  return {
    warning,
    insert(entry) {
      const sql = `INSERT INTO entries (${FIELDS.map((field) => COLUMNS[field]).join(', ')}) VALUES (${FIELDS.map(() => '?').join(', ')})`;
      prepare(sql).run(...FIELDS.map((field) => columnValue(field, entry[field])));
    },
    update(id, patch) {
      const fields = (Object.keys(patch) as Array<keyof typeof patch>).filter((field) => field in COLUMNS);
      if (fields.length === 0) return get(id);
      const sql = `UPDATE entries SET ${fields.map((field) => `${COLUMNS[field]} = ?`).join(', ')} WHERE id = ?`;
      prepare(sql).run(...fields.map((field) => columnValue(field, patch[field])), id);
      return get(id);
    },
    remove(id) {
      prepare('DELETE FROM entries WHERE id = ?').run(id);
    },
    get,
    byRecord: (recordId) =>
      prepare(`SELECT ${SELECT} FROM entries WHERE record_id = ? ORDER BY quarantined_at DESC, seq DESC`)
        .all(recordId)
        .map((row) => toEntry(row)!),
    byStoredName: (name) => toEntry(prepare(`SELECT ${SELECT} FROM entries WHERE stored_name = ?`).get(name)),
    list(states) {
      if (states === null) return prepare(`SELECT ${SELECT} FROM entries ORDER BY quarantined_at DESC, seq DESC`).all().map((row) => toEntry(row)!);
      const marks = states.map(() => '?').join(', ');
      return prepare(`SELECT ${SELECT} FROM entries WHERE state IN (${marks}) ORDER BY quarantined_at DESC, seq DESC`)
        .all(...states)
        .map((row) => toEntry(row)!);
    },
    wasRestoredTo: (sha256, target) =>
      prepare(`SELECT 1 FROM entries WHERE sha256 = ? AND restored_to = ? AND state = 'restored' LIMIT 1`).get(sha256.toLowerCase(), toStoredText(target)) !== undefined,
    allow(content) {
      prepare(
        `INSERT INTO allowed (sha256, file_name, allowed_at, entry_id, record_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (sha256) DO UPDATE SET file_name = excluded.file_name, allowed_at = excluded.allowed_at,
           entry_id = excluded.entry_id, record_id = excluded.record_id`,
      ).run(content.sha256.toLowerCase(), toStoredText(content.fileName), content.allowedAt, content.entryId, content.recordId);
    },
    isAllowed: (sha256) => prepare('SELECT 1 FROM allowed WHERE sha256 = ?').get(sha256.toLowerCase()) !== undefined,
    allowed: () =>
      prepare('SELECT sha256, file_name AS fileName, allowed_at AS allowedAt, entry_id AS entryId, record_id AS recordId FROM allowed ORDER BY allowed_at DESC')
        .all()
        .map((row) => ({
          sha256: text(row.sha256),
          fileName: fromStoredText(text(row.fileName)),
          allowedAt: text(row.allowedAt),
          entryId: optionalText(row.entryId),
          recordId: optionalText(row.recordId),
        })),
    revokeAllowed: (sha256) => Number(prepare('DELETE FROM allowed WHERE sha256 = ?').run(sha256.toLowerCase()).changes) > 0,
    transaction,
    close() {
      if (db.isOpen) db.close();
    },
  };
}

/**
 * A row as an entry of the documented shape, whatever a hand-edited or damaged
 * file put in it (SQLite keeps any type in any column): a wrong number counts as
 * 0, an unknown state as `lost` (the file is not where the row says), an unknown
 * pending action as none. One odd row must not break the list or recovery.
 */
export function rowToEntry(row: Record<string, unknown>): StoredEntry {
  return {
    id: text(row.id),
    storedName: text(row.storedName),
    originalPath: storedOrNull(row.originalPath),
    fileName: fromStoredText(text(row.fileName)),
    size: count(row.size),
    mode: count(row.mode),
    mtimeMs: typeof row.mtimeMs === 'number' || typeof row.mtimeMs === 'bigint' ? finiteOrNull(Number(row.mtimeMs)) : null,
    sha256: text(row.sha256),
    recordId: optionalText(row.recordId),
    state: quarantineStateSchema.safeParse(row.state).data ?? 'lost',
    action: row.action === 'restore' || row.action === 'allow' ? row.action : null,
    targetPath: storedOrNull(row.targetPath),
    quarantinedAt: text(row.quarantinedAt),
    resolvedAt: optionalText(row.resolvedAt),
    restoredTo: storedOrNull(row.restoredTo),
  };
}

const storedOrNull = (value: unknown): string | null => {
  const stored = optionalText(value);
  return stored === null ? null : fromStoredText(stored);
};

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const optionalText = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));
const finiteOrNull = (n: number): number | null => (Number.isFinite(n) ? n : null);
const count = (value: unknown): number => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

/** Creates the tables, or refuses a newer schema. */
function migrate(db: DatabaseSync): void {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > SCHEMA_VERSION) {
    throw Object.assign(
      new Error(`The quarantine index was written by a newer version of Verdict (schema ${version}); update Verdict.`),
      { code: 'quarantine_newer_schema' },
    );
  }
  if (version < 1) {
    // IF NOT EXISTS: a file whose user_version was reset (edited, or damaged) still holds the tables.
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(`
        CREATE TABLE IF NOT EXISTS entries (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          stored_name TEXT NOT NULL UNIQUE,
          original_path TEXT,
          file_name TEXT NOT NULL,
          size INTEGER NOT NULL,
          mode INTEGER NOT NULL,
          mtime_ms REAL,
          sha256 TEXT NOT NULL,
          record_id TEXT,
          state TEXT NOT NULL,
          action TEXT,
          target_path TEXT,
          quarantined_at TEXT NOT NULL,
          resolved_at TEXT,
          restored_to TEXT
        );
        CREATE INDEX IF NOT EXISTS entries_by_state ON entries (state, quarantined_at);
        CREATE INDEX IF NOT EXISTS entries_by_record ON entries (record_id);
        CREATE TABLE IF NOT EXISTS allowed (
          sha256 TEXT PRIMARY KEY,
          file_name TEXT NOT NULL,
          allowed_at TEXT NOT NULL,
          entry_id TEXT,
          record_id TEXT
        );
        PRAGMA user_version = 1;
      `);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  if (version < 2) storeNamesLosslessly(db);
}

/** Schema 2: paths and names in their stored form. Text written before holds no lone surrogate, only maybe a real U+FDD0: doubled. */
function storeNamesLosslessly(db: DatabaseSync): void {
  const columns = ['original_path', 'file_name', 'target_path', 'restored_to'];
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`
      UPDATE entries SET ${columns.map((column) => `${column} = ${DOUBLE_MARKS_SQL(column)}`).join(', ')} WHERE ${columns.map(HOLDS_MARK_SQL).join(' OR ')};
      UPDATE allowed SET file_name = ${DOUBLE_MARKS_SQL('file_name')} WHERE ${HOLDS_MARK_SQL('file_name')};
      PRAGMA user_version = 2;
    `);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
