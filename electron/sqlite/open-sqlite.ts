// How the core's databases (history, quarantine) open a SQLite file: owner-only,
// WAL, a busy timeout for the other process on the same data dir (app and CLI),
// the schema brought up to date; and what they do with a file SQLite cannot
// read: set it aside and start a new one, with a warning for the user.
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

export interface SqliteFileOptions {
  synchronous: 'FULL' | 'NORMAL';
  /** How long a statement waits for another connection's lock (default 5 s). */
  busyTimeoutMs?: number;
  /** More PRAGMAs after the journal settings, e.g. `cache_size = -32768`. */
  pragmas?: readonly string[];
  /** PRAGMAs for a new file only, before anything is written to it (e.g. `auto_vacuum = INCREMENTAL`, which an existing file keeps as it is). */
  newFilePragmas?: readonly string[];
  /** Brings the schema up to date; when it throws, the database is closed again. */
  setup(db: DatabaseSync): void;
}

export function openSqliteFile(file: string, options: SqliteFileOptions): DatabaseSync {
  const isNew = !existsSync(file);
  const db = new DatabaseSync(file, { timeout: Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000)) });
  try {
    // Paths and names are the user's business: owner-only, set before WAL creates its files (they copy the mode).
    if (isNew) chmodSync(file, 0o600);
    if (isNew) for (const pragma of options.newFilePragmas ?? []) db.exec(`PRAGMA ${pragma}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous}`);
    // Temporary tables (the chunks a job's files are compacted through) and statement journals stay in memory,
    // never written to a file (in files, a temporary table once cost a 20,000-file rescan about 60,000 writes).
    // A chunk holds at most a few thousand rows.
    db.exec('PRAGMA temp_store = MEMORY');
    for (const pragma of options.pragmas ?? []) db.exec(`PRAGMA ${pragma}`);
    options.setup(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** SQLite result codes (low byte) that mean the file is not a usable database. */
const CORRUPTION_CODES = new Set([11 /* SQLITE_CORRUPT */, 26 /* SQLITE_NOTADB */]);

export function isCorruption(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' && CORRUPTION_CODES.has(code & 0xff);
}

export interface OpenedSqlite {
  db: DatabaseSync;
  /** Set when the file was damaged: where it went and what SQLite said. */
  setAside: { file: string; reason: string } | null;
}

/**
 * `open(file)`; when SQLite says the file is damaged, the file (and its WAL) is
 * moved to `<file>.corrupt-<time>` and `open` starts a new one. Other errors
 * (a newer schema, no permission) are thrown: those files are not ours to move.
 */
export function openOrSetAside(file: string, open: (file: string) => DatabaseSync): OpenedSqlite {
  try {
    return { db: open(file), setAside: null };
  } catch (error) {
    if (!isCorruption(error)) throw error;
    const aside = setAsideDamaged(file);
    return { db: open(file), setAside: { file: aside, reason: (error as Error).message } };
  }
}

/** Moves a damaged database and its WAL aside (kept for a bug report); returns the new name. */
function setAsideDamaged(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  if (existsSync(`${file}-wal`)) renameSync(`${file}-wal`, `${aside}-wal`);
  rmSync(`${file}-shm`, { force: true });
  return aside;
}
