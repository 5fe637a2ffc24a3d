// The optional trigram index over file names (FTS5, rowid = scans.seq) that
// makes substring search fast. Optional because not every Node/Electron build
// of SQLite has FTS5: without it, search scans and gives the same results.
// It is kept in step by history.ts in the same transaction as each change (not
// by triggers: FTS5 flushes at every trigger statement's savepoint, which made
// bulk inserts about 7 times slower). A database written while the index was
// unavailable is marked stale and rebuilt on the next open that has FTS5.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';

export interface NameIndex {
  /** Whether searches may start from the index (it exists and is in step). */
  readonly enabled: boolean;
  add(seq: SQLInputValue, fileName: SQLInputValue): void;
  remove(seq: SQLInputValue, fileName: SQLInputValue): void;
  /** How many names contain `phrase` (an FTS5 phrase query), counting no further than `atMost`; for choosing a plan. */
  count(phrase: string, atMost: number): number;
  /**
   * Merges up to about `pages` pages of the index's segments, dropping the entries of deleted rows
   * (FTS5 keeps them until a merge; many go when a job's rows move to the compact store). False: nothing left to merge.
   */
  merge(pages: number): boolean;
}

const TABLE = 'scans_name_search';
const META_KEY = 'name_index';

/** Sets up the index if this SQLite has FTS5 and `wanted` is true; otherwise marks an existing one stale. */
export function openNameIndex(db: DatabaseSync, wanted: boolean): NameIndex {
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(TABLE) !== undefined;
  const state = (db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as { value: string } | undefined)?.value;
  const setState = (value: string) => db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META_KEY, value);

  if (!wanted || !hasFts5(db)) {
    // Rows written from now on are missing from the index: rebuild it when it can be used again.
    if (exists && state !== 'stale') setState('stale');
    return { enabled: false, add() {}, remove() {}, count: () => 0, merge: () => false };
  }

  if (!exists || state !== 'ready') {
    db.exec('BEGIN IMMEDIATE');
    try {
      if (!exists) {
        db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLE} USING fts5 (file_name, content = 'scans', content_rowid = 'seq', tokenize = 'trigram')`);
      }
      db.exec(`INSERT INTO ${TABLE} (${TABLE}) VALUES ('rebuild')`);
      setState('ready');
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }

  const insert = db.prepare(`INSERT INTO ${TABLE} (rowid, file_name) VALUES (?, ?)`);
  // External-content FTS5 deletes by the old values, which the caller passes.
  const remove = db.prepare(`INSERT INTO ${TABLE} (${TABLE}, rowid, file_name) VALUES ('delete', ?, ?)`);
  // Capped: the plan only needs to know "few or many", and counting a broad match in full costs milliseconds.
  const count = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${TABLE} WHERE ${TABLE} MATCH ? LIMIT ?)`);
  return {
    enabled: true,
    add: (seq, fileName) => void insert.run(seq, fileName),
    remove: (seq, fileName) => void remove.run(seq, fileName),
    count: (phrase, atMost) => Number((count.get(phrase, atMost) as { n: number }).n),
    merge: (pages) => mergeSegments(db, TABLE, pages),
  };
}

/** One step of FTS5's incremental merge (negative: merge whatever segments there are); whether it did any work. */
export function mergeSegments(db: DatabaseSync, table: string, pages: number): boolean {
  const changes = () => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n);
  const before = changes();
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`).run(-Math.max(1, Math.floor(pages)));
  // FTS5 counts a merge that wrote pages as changes; one with nothing to merge leaves the count as it was.
  return changes() - before > 1;
}

/** Node builds differ: some SQLite builds lack FTS5 (and its trigram tokenizer). */
export function hasFts5(db: DatabaseSync): boolean {
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.verdict_fts5_probe USING fts5 (x, tokenize = 'trigram')`);
    db.exec('DROP TABLE temp.verdict_fts5_probe');
    return true;
  } catch {
    return false;
  }
}
