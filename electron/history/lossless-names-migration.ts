// Migration 12: names are stored losslessly from now on (sqlite/stored-text.ts). Text stored
// before could hold no lone surrogate (node:sqlite wrote U+FFFD), only a real U+FDD0, which the
// stored form doubles: those few cells are rewritten, and a name index that held one is rebuilt.
import type { DatabaseSync } from 'node:sqlite';
import { DOUBLE_MARKS_SQL, HOLDS_MARK_SQL } from '../sqlite/stored-text.ts';
import type { Migration } from './migrations.ts';

/** Rewrites the columns' U+FDD0 in the rows holding one; whether any row changed. */
function doubleMarks(db: DatabaseSync, table: string, columns: readonly string[]): boolean {
  const set = columns.map((column) => `${column} = ${DOUBLE_MARKS_SQL(column)}`).join(', ');
  const where = columns.map(HOLDS_MARK_SQL).join(' OR ');
  return Number(db.prepare(`UPDATE ${table} SET ${set} WHERE ${where}`).run().changes) > 0;
}

export const LOSSLESS_NAMES: Migration = {
  version: 12,
  description: 'file names that are not UTF-8 stored losslessly: a U+FDD0 stored before is doubled',
  up(db) {
    const scans = doubleMarks(db, 'scans', ['path', 'file_name', 'error_message']);
    doubleMarks(db, 'job_folders', ['path']);
    const compact = doubleMarks(db, 'job_clean_files', ['name', 'file_name']);
    // The trigram indexes hold the old text: marked stale, they are rebuilt at the next open
    // (the keys of name-index.ts and job-files/compact-names.ts).
    const stale = db.prepare("UPDATE meta SET value = 'stale' WHERE key = ?");
    if (scans) stale.run('name_index');
    if (compact) stale.run('compact_name_index');
  },
};
