// Migration 15: recent files judged again after each signature update (issue 27 §1).
// `recheck_files`: each file last judged clean on the local engine path, by device and inode,
// with its identity then, the signatures that judged it and when it was first seen; the
// recheck job selects from it by first_seen_ms (its index). `recheck_links`: a rechecked
// file's new scan whose verdict changed, linked to the scan it replaces. `recheck_quarantine`: each
// quarantine entry as the signatures it was last judged by see it (no longer detected: Restore is offered).
import type { Migration } from './migrations.ts';

export const RECHECK_FILES: Migration = {
  version: 15,
  description: 'files judged clean recently, by device and inode, to judge them again after a signature update; a changed verdict linked to the scan it replaces',
  up(db) {
    // dev, ino and the nanosecond times are decimal text, as in unchanged_files (they may not fit a signed 64-bit integer).
    // first_seen_ms: when the file arrived (its scan's queue time; a job's file: its mtime), the earliest sighting kept.
    db.exec(`
      CREATE TABLE recheck_files (
        dev TEXT NOT NULL,
        ino TEXT NOT NULL,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns TEXT NOT NULL,
        ctime_ns TEXT NOT NULL,
        signature_key TEXT NOT NULL,
        record_id TEXT NOT NULL,
        origin TEXT NOT NULL,
        first_seen_ms INTEGER NOT NULL,
        PRIMARY KEY (dev, ino)
      ) WITHOUT ROWID;
      CREATE INDEX recheck_files_by_first_seen ON recheck_files (first_seen_ms);
      CREATE TABLE recheck_links (
        record_id TEXT PRIMARY KEY,
        rechecked_from_id TEXT NOT NULL,
        first_seen_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      ALTER TABLE jobs ADD COLUMN basic_only INTEGER;
      ALTER TABLE jobs ADD COLUMN partial INTEGER;
      CREATE TABLE recheck_quarantine (
        entry_id TEXT PRIMARY KEY,
        signature_key TEXT NOT NULL,
        detected INTEGER NOT NULL,
        names_json TEXT NOT NULL,
        checked_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
