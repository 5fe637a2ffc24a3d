// Migration 19: each change of the signatures in use the core noticed (issue 29 §5), for the
// overview's updates over time and the signatures' age. One row per change (a few a day at most),
// read by its noticed time (the index) for a window of days and the one in use before it.
import type { Migration } from './migrations.ts';

export const SIGNATURE_UPDATES: Migration = {
  version: 19,
  description: 'each change of the signatures in use: when it was noticed, the engine, the signature version, the database digest and the build date',
  up(db) {
    // identity: what tells these signatures apart (the database digest, else the VERSION line's version).
    db.exec(`
      CREATE TABLE signature_updates (
        id INTEGER PRIMARY KEY,
        noticed_ms INTEGER NOT NULL,
        engine TEXT NOT NULL,
        engine_version TEXT,
        identity TEXT NOT NULL,
        signature_version INTEGER,
        databases TEXT,
        signatures_date TEXT
      );
      CREATE INDEX signature_updates_by_noticed ON signature_updates (noticed_ms);
    `);
  },
};
