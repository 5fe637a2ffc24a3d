// Opens the SQLite database (node:sqlite) in WAL mode and brings its schema
// up to date. The schema version lives in PRAGMA user_version.
import { closeSync, openSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** Append only: each entry moves the schema from version i to i + 1. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE scans (
     id                    TEXT PRIMARY KEY,
     integration_id        TEXT NOT NULL,
     external_reference_id TEXT,
     status                TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
     execution_mode        TEXT NOT NULL CHECK (execution_mode IN ('async', 'sync')),
     file_name             TEXT NOT NULL,
     file_size             INTEGER NOT NULL,
     file_type             TEXT,
     md5                   TEXT,
     sha1                  TEXT,
     sha256                TEXT,
     result_safe           INTEGER,
     result_detailed       TEXT,
     result_findings       TEXT,
     error_code            TEXT,
     error_detail          TEXT,
     submitted_at          TEXT NOT NULL,
     completed_at          TEXT,
     scan_duration_ms      INTEGER,
     UNIQUE (integration_id, external_reference_id)
   );
   CREATE INDEX scans_by_status ON scans (status);`,
  // Webhook events not yet delivered, written with the status change they report (webhooks/webhook-outbox.ts).
  `CREATE TABLE webhook_outbox (
     seq        INTEGER PRIMARY KEY AUTOINCREMENT,
     message_id TEXT NOT NULL UNIQUE,
     scan_id    TEXT NOT NULL,
     body       TEXT NOT NULL
   );`,
  // Who made a completed scan's verdict (JSON EngineIdentity); NULL for scans made before it was kept.
  `ALTER TABLE scans ADD COLUMN engine_json TEXT;`,
];

export function openDatabase(file: string): DatabaseSync {
  // Created owner-only first: SQLite gives the -wal and -shm files the same mode.
  closeSync(openSync(file, 'a', 0o600));
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  const current = row.user_version;
  if (current > MIGRATIONS.length) {
    throw new Error(`The database has schema version ${current}, newer than this service knows (${MIGRATIONS.length}).`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[version] as string);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
