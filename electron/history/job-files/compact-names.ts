// The trigram index over the compact store's file names (FTS5, rowid = job_clean_files.id), so
// a search of a job's clean files by part of a name starts from the few that match rather than
// testing every file of the job. Contentless: the names are in job_clean_files already. Optional,
// like the scans' name index (name-index.ts): without FTS5 a search tests each name, same results;
// a store written meanwhile is marked stale and the index rebuilt when FTS5 is there again.
import type { DatabaseSync } from 'node:sqlite';
import { hasFts5, mergeSegments } from '../name-index.ts';

export interface CompactNames {
  readonly enabled: boolean;
  /** Indexes the names of the files with an id above `afterId` (just moved in). */
  addAfter(afterId: number): void;
  /** Unindexes a job's files (before they are deleted). */
  removeJob(jobId: number): void;
  /** The ids of the files whose names contain `phrase` (an FTS5 phrase query), no more than `atMost`. */
  matching(phrase: string, atMost: number): number[];
  /** One step of merging the index's segments (dropping deleted files' entries); false: nothing left to merge. */
  merge(pages: number): boolean;
}

const TABLE = 'job_clean_names';
const META_KEY = 'compact_name_index';
const NAME = 'coalesce(file_name, name)';

export function openCompactNames(db: DatabaseSync, wanted: boolean): CompactNames {
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(TABLE) !== undefined;
  const state = (db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as { value: string } | undefined)?.value;
  const setState = (value: string) => db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META_KEY, value);
  if (!wanted || !hasFts5(db)) {
    if (exists && state !== 'stale') setState('stale');
    return { enabled: false, addAfter() {}, removeJob() {}, matching: () => [], merge: () => false };
  }
  if (!exists || state !== 'ready') {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLE} USING fts5 (file_name, content = '', contentless_delete = 1, tokenize = 'trigram')`);
      db.exec(`DELETE FROM ${TABLE}`);
      db.exec(`INSERT INTO ${TABLE} (rowid, file_name) SELECT id, ${NAME} FROM job_clean_files`);
      setState('ready');
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  const add = db.prepare(`INSERT INTO ${TABLE} (rowid, file_name) SELECT id, ${NAME} FROM job_clean_files WHERE id > ? ORDER BY id`);
  const remove = db.prepare(`DELETE FROM ${TABLE} WHERE rowid IN (SELECT id FROM job_clean_files WHERE job_id = ?)`);
  const matching = db.prepare(`SELECT rowid AS id FROM ${TABLE} WHERE ${TABLE} MATCH ? LIMIT ?`);
  return {
    enabled: true,
    addAfter: (afterId) => void add.run(afterId),
    removeJob: (jobId) => void remove.run(jobId),
    matching: (phrase, atMost) => (matching.all(phrase, atMost) as Array<{ id: number }>).map((row) => Number(row.id)),
    merge: (pages) => mergeSegments(db, TABLE, pages),
  };
}
