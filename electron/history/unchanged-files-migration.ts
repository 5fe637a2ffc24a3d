// Migration 13: the unchanged-file skip (issue 26 §6). Each file last judged clean by a known
// engine and signature set is remembered by its identity; a verdict row says how it was reused,
// and a ClamAV verdict which database files it was made with.
import type { Migration } from './migrations.ts';

/** The scans columns this migration adds (a test writing an older schema leaves them out). */
export const COLUMNS_OF_MIGRATION_13: readonly string[] = ['signatures_basis', 'signatures_digest', 'reuse_kind'];

export const UNCHANGED_FILES: Migration = {
  version: 13,
  description: 'files judged clean, by device and inode, to skip them while unchanged; what a reused verdict reused; the signature digest of a verdict',
  up(db) {
    // One entry per file (device, inode): the primary key is the lookup's index, and a later clean
    // verdict for the same inode replaces the entry. dev, ino and the nanosecond times are decimal
    // text: a device or inode number may not fit SQLite's signed 64-bit integer.
    // verdict_json: what the reused row is given (digests, detail, file type, engine), so an entry
    // outlives its row being compacted into a job's store or deleted by retention.
    db.exec(`
      ALTER TABLE scans ADD COLUMN signatures_basis TEXT;
      ALTER TABLE scans ADD COLUMN signatures_digest TEXT;
      ALTER TABLE scans ADD COLUMN reuse_kind TEXT;
      CREATE TABLE unchanged_files (
        dev TEXT NOT NULL,
        ino TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns TEXT NOT NULL,
        ctime_ns TEXT NOT NULL,
        signature_key TEXT NOT NULL,
        record_id TEXT NOT NULL,
        verdict_json TEXT NOT NULL,
        recorded_ms INTEGER NOT NULL,
        PRIMARY KEY (dev, ino)
      ) WITHOUT ROWID;
    `);
  },
};
