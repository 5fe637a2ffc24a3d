// Compaction's plans (issue 26 §5): each step reads the chunk's rows of `scans` by seq, never the
// whole table. SQLite has no statistics for the temporary chunk table and took it for a large
// one, so on a history of many other rows every step scanned all of `scans` (about 0.3 s a step
// on the main thread at 100,000 rows). Checked on a real history file with the statistics the
// app's PRAGMA optimize writes, through a second connection holding its own chunk table.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, openHistory } from '../../../../electron/history/history.ts';
import { COMPACT_STEP_SQL } from '../../../../electron/history/job-files/compact-job.ts';
import { CREATE_IDS_TABLE, pairUpSql, REPOINT_SQL } from '../../../../electron/history/job-files/compact-recheck-ids.ts';
import { makeRecord } from '../fixtures/records.ts';
import { seedJob } from './fixtures.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-compact-plan-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/** The plan's lines that read `scans` (alias s). */
function scansAccess(db: DatabaseSync, sql: string, ...params: Array<number | string>): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
  return rows.map((row) => row.detail).filter((detail) => /\b(SCAN|SEARCH) s\b/.test(detail));
}

it('reads only the chunk’s rows of scans, by seq, in every step that joins the chunk', () => {
  const history = openHistory(folder);
  const job = seedJob(history, 200);
  history.insertMany(Array.from({ length: 3000 }, () => makeRecord({ status: 'completed', safe: true, detailed: 'clean', completedAt: '2026-01-01T00:00:01.000Z' })));
  history.close();
  const db = new DatabaseSync(join(folder, HISTORY_FILE_NAME));
  try {
    db.exec('ANALYZE');
    db.exec(COMPACT_STEP_SQL.create);
    db.exec(CREATE_IDS_TABLE);
    db.prepare(COMPACT_STEP_SQL.choose).run(job.id, 50);
    const joined = [COMPACT_STEP_SQL.kinds, COMPACT_STEP_SQL.move, pairUpSql('temp.job_compact_chunk')];
    for (const sql of joined) {
      const access = scansAccess(db, sql, ...(sql.includes('?') ? [0] : []));
      expect(access.length, sql).toBeGreaterThan(0);
      for (const line of access) expect(line, sql).toMatch(/^SEARCH s USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
    }
  } finally {
    db.close();
  }
});

it('renames the recheck’s rows of a chunk by their index, not by reading every row', () => {
  const history = openHistory(folder);
  seedJob(history, 50);
  history.close();
  const db = new DatabaseSync(join(folder, HISTORY_FILE_NAME));
  try {
    // The recheck's memory of many files seen lately; the ids table holds a chunk's few.
    const add = db.prepare("INSERT INTO recheck_files VALUES (?, ?, '/f', 1, '1', '1', 'k', ?, 'job', 1)");
    const link = db.prepare('INSERT INTO recheck_links VALUES (?, ?, 1)');
    const unchanged = db.prepare("INSERT INTO unchanged_files VALUES ('1', ?, 1, '1', '1', 1, ?, NULL, NULL, NULL, 1)");
    for (let i = 0; i < 2000; i++) {
      add.run('1', String(i), `scan-${i}`);
      link.run(`later-${i}`, `scan-${i}`);
      unchanged.run(String(i), `scan-${i}`);
    }
    db.exec('ANALYZE');
    db.exec(CREATE_IDS_TABLE);
    db.exec("INSERT INTO temp.job_compact_ids VALUES ('scan-7', 'clean:1'), ('scan-8', 'clean:2')");
    for (const sql of REPOINT_SQL) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail);
      expect(plan.join('\n'), sql).toMatch(/^SEARCH (recheck_files|recheck_links|unchanged_files) USING INDEX (recheck|unchanged)_\w+ \((record_id|rechecked_from_id)=\?\)$/m);
      expect(plan.join('\n'), sql).not.toMatch(/SCAN (recheck_|unchanged_)/);
      db.exec(sql);
    }
    expect(db.prepare("SELECT dev, ino FROM recheck_files WHERE record_id LIKE 'clean:%' ORDER BY record_id").all()).toEqual([{ dev: '1', ino: '7' }, { dev: '1', ino: '8' }]);
    expect(db.prepare("SELECT record_id FROM recheck_links WHERE rechecked_from_id LIKE 'clean:%' ORDER BY record_id").all()).toEqual([{ record_id: 'later-7' }, { record_id: 'later-8' }]);
    expect(db.prepare("SELECT ino FROM unchanged_files WHERE record_id LIKE 'clean:%' ORDER BY record_id").all()).toEqual([{ ino: '7' }, { ino: '8' }]);
  } finally {
    db.close();
  }
});
