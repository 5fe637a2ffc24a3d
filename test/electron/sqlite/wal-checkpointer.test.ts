// WAL checkpoints on their own thread (issue 26 §5): a commit on the writing connection no longer
// copies the WAL into the database file (SQLite did it in the COMMIT past 1,000 pages, on the core's
// thread); the checkpoint thread does, and the rows read back from a new connection. A thread that
// cannot run hands checkpoints back to the writer. Real SQLite files; the thread looks at the WAL
// only when asked here, so nothing depends on timing.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { startWalCheckpointer, WAL_CHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES } from '../../../electron/sqlite/wal-checkpointer.ts';
import { makeRecord } from '../history/fixtures/records.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-wal-checkpoint-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/** Only checkpointNow() makes the thread look. */
const ASKED_ONLY = { busyMs: 3_600_000, idleMs: 3_600_000 };

function walDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)');
  return db;
}

/** One commit of well over WAL_CHECKPOINT_PAGES pages (4 KiB each). */
function bigCommit(db: DatabaseSync): void {
  db.exec('BEGIN');
  const insert = db.prepare('INSERT INTO t (data) VALUES (randomblob(?))');
  for (let i = 0; i < 3 * WAL_CHECKPOINT_PAGES; i++) insert.run(3000);
  db.exec('COMMIT');
}

it("leaves the writer's commits to the WAL and copies them into the file on its thread", async () => {
  const file = join(folder, 'a.sqlite');
  const db = walDatabase(file);
  const checkpointer = startWalCheckpointer(db, file, 'NORMAL', ASKED_ONLY);
  try {
    expect(db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 0 });
    const before = (await stat(file)).size;
    bigCommit(db);
    // The commit wrote the WAL only: the database file has not grown (SQLite's own checkpoint would have grown it).
    expect((await stat(file)).size).toBe(before);
    const checked = await checkpointer.checkpointNow();
    expect(checked.log).toBeGreaterThan(WAL_CHECKPOINT_PAGES);
    expect(checked.copied).toBe(checked.log);
    expect((await stat(file)).size).toBeGreaterThan(before + WAL_CHECKPOINT_PAGES * 4096);
    // Copied while it grew: not cut yet. At the next look, unchanged (idle) and all copied: the thread cuts
    // the WAL file itself, so no commit of the core's pays for cutting it.
    expect((await stat(`${file}-wal`)).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    await checkpointer.checkpointNow();
    expect((await stat(`${file}-wal`)).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    db.exec('INSERT INTO t (data) VALUES (randomblob(10))');
    expect((await stat(`${file}-wal`)).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
  } finally {
    await checkpointer.close();
    db.close();
  }
  const reader = new DatabaseSync(file, { readOnly: true });
  expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3 * WAL_CHECKPOINT_PAGES + 1 });
  reader.close();
});

it('leaves a WAL in use alone: a reader on an older snapshot; the writer never cuts it, the thread does once it is idle again', async () => {
  const file = join(folder, 'c.sqlite');
  const db = walDatabase(file);
  const checkpointer = startWalCheckpointer(db, file, 'NORMAL', ASKED_ONLY);
  const reader = new DatabaseSync(file);
  try {
    bigCommit(db);
    // A reader in a read transaction: the thread may copy the frames, but not restart or cut the WAL under it.
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get();
    const checked = await checkpointer.checkpointNow();
    expect(checked.copied).toBe(checked.log);
    await checkpointer.checkpointNow();
    expect((await stat(`${file}-wal`)).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    reader.exec('COMMIT');
    // The writer starts the WAL again from its beginning and writes over it, without cutting the file: a
    // commit of the core's never pays for cutting tens of MB (bench 17).
    db.exec('INSERT INTO t (data) VALUES (randomblob(10))');
    expect((await stat(`${file}-wal`)).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    // The thread's first look sees the WAL changed; at the next it is idle and all copied: cut.
    await checkpointer.checkpointNow();
    expect((await stat(`${file}-wal`)).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    const idle = await checkpointer.checkpointNow();
    expect(idle.copied).toBe(idle.log);
    expect((await stat(`${file}-wal`)).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3 * WAL_CHECKPOINT_PAGES + 1 });
  } finally {
    reader.close();
    await checkpointer.close();
    db.close();
  }
});

it('hands checkpoints back to the writer when its thread cannot open the database', async () => {
  const db = walDatabase(join(folder, 'b.sqlite'));
  const checkpointer = startWalCheckpointer(db, join(folder, 'no such folder', 'b.sqlite'), 'NORMAL', ASKED_ONLY);
  expect(await checkpointer.checkpointNow()).toEqual({ log: -1, copied: -1 });
  expect(db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: WAL_CHECKPOINT_PAGES });
  expect(db.prepare('PRAGMA journal_size_limit').get()).toEqual({ journal_size_limit: WAL_SIZE_LIMIT_BYTES });
  await checkpointer.close();
  db.close();
});

it("the core's history (checkpointThread) writes, reads back and closes as the file's last connection", async () => {
  const history = openHistory(folder, { synchronous: 'NORMAL', checkpointThread: true });
  const records = Array.from({ length: 2000 }, () => makeRecord({ status: 'completed', safe: true, detailed: 'clean', completedAt: '2026-01-01T00:00:01.000Z' }));
  history.insertMany(records);
  expect(history.query({ limit: 1 }).total).toBe(2000);
  await history.stopCheckpoints();
  history.close();
  // The last connection's close checkpoints and removes the WAL.
  await expect(stat(join(folder, 'history.sqlite-wal'))).rejects.toMatchObject({ code: 'ENOENT' });
  const again = openHistory(folder);
  expect(again.query({ limit: 1 }).total).toBe(2000);
  again.close();
});
