// The SQLite helpers history and quarantine share: how a file is opened (owner
// only, WAL, schema step, closed again when that fails), what happens to a
// damaged file (set aside, a new one opened) and to other errors
// (thrown, file untouched), and transactions that nest and roll back.
import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCorruption, openOrSetAside, openSqliteFile } from '../../../electron/sqlite/open-sqlite.ts';
import { createTransactions, statementCache } from '../../../electron/sqlite/statements.ts';

let dir: string;
const open: DatabaseSync[] = [];
const createTable = (db: DatabaseSync) => db.exec('CREATE TABLE IF NOT EXISTS t (n INTEGER)');

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'verdict-sqlite-'));
});
afterEach(() => {
  for (const db of open.splice(0)) if (db.isOpen) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function opened(file: string, setup = createTable): DatabaseSync {
  const db = openSqliteFile(file, { synchronous: 'NORMAL', pragmas: ['cache_size = -1024'], setup });
  open.push(db);
  return db;
}

describe('openSqliteFile', () => {
  it('creates an owner-only WAL database and runs the schema step', () => {
    const file = path.join(dir, 'a.sqlite');
    const db = opened(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    expect(db.prepare('PRAGMA cache_size').get()).toEqual({ cache_size: -1024 });
    db.exec('INSERT INTO t VALUES (1)');
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
  });

  it('keeps temporary tables and statement journals in memory: no temporary file is written', () => {
    // A job's compaction goes through temporary tables in every chunk (compact-job.ts), which in files
    // would be written to disk each time.
    const db = opened(path.join(dir, 'temp.sqlite'));
    expect(db.prepare('PRAGMA temp_store').get()).toEqual({ temp_store: 2 });
    db.exec('CREATE TEMP TABLE chunk (n INTEGER PRIMARY KEY, text TEXT)');
    const add = db.prepare('INSERT INTO chunk (text) VALUES (?)');
    db.exec('BEGIN');
    for (let i = 0; i < 5_000; i++) add.run('x'.repeat(1_000));
    db.exec('COMMIT');
    db.exec('INSERT INTO t SELECT n FROM chunk ORDER BY text DESC');
    const temporaryFiles = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return /etilqs_/.test(readlinkSync(`/proc/self/fd/${fd}`));
      } catch {
        return false;
      }
    });
    expect(temporaryFiles).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 5_000 });
  });

  it('closes the database when the schema step throws', () => {
    let handle: DatabaseSync | null = null;
    expect(() =>
      openSqliteFile(path.join(dir, 'b.sqlite'), {
        synchronous: 'FULL',
        setup(db) {
          handle = db;
          throw new Error('newer schema');
        },
      }),
    ).toThrow('newer schema');
    expect(handle!.isOpen).toBe(false);
  });
});

describe('openOrSetAside', () => {
  it('moves a damaged file aside and opens a new one', () => {
    const file = path.join(dir, 'c.sqlite');
    writeFileSync(file, Buffer.alloc(8192, 'not a database '));
    const { db, setAside } = openOrSetAside(file, (target) => opened(target));
    expect(setAside).toMatchObject({ file: expect.stringMatching(/c\.sqlite\.corrupt-[\dT-]+Z$/), reason: expect.stringMatching(/not a database/) });
    expect(readdirSync(dir)).toContain(path.basename(setAside!.file));
    expect(statSync(setAside!.file).size).toBe(8192);
    db.exec('INSERT INTO t VALUES (1)');
  });

  it('leaves a healthy file alone and throws other errors without moving anything', () => {
    const file = path.join(dir, 'd.sqlite');
    opened(file).close();
    expect(openOrSetAside(file, (target) => opened(target)).setAside).toBeNull();
    const refuse = () => openOrSetAside(file, (target) => opened(target, () => { throw new Error('written by a newer version'); }));
    expect(refuse).toThrow('written by a newer version');
    expect(readdirSync(dir).filter((name) => name.includes('corrupt'))).toEqual([]);
    expect(isCorruption(new Error('plain'))).toBe(false);
  });
});

describe('statementCache and createTransactions', () => {
  it('prepares each SQL text once', () => {
    const prepare = statementCache(opened(path.join(dir, 'e.sqlite')));
    expect(prepare('SELECT count(*) AS n FROM t')).toBe(prepare('SELECT count(*) AS n FROM t'));
  });

  it('joins a nested write to the outer one and rolls the whole of it back on a throw', () => {
    const db = opened(path.join(dir, 'f.sqlite'));
    const { write, read } = createTransactions(db);
    const count = () => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    write(() => {
      db.exec('INSERT INTO t VALUES (1)');
      write(() => db.exec('INSERT INTO t VALUES (2)'));
    });
    expect(count()).toBe(2);
    expect(() =>
      write(() => {
        write(() => db.exec('INSERT INTO t VALUES (3)'));
        throw new Error('later step failed');
      }),
    ).toThrow('later step failed');
    expect(count()).toBe(2);
    expect(read(() => count())).toBe(2);
    expect(db.isTransaction).toBe(false);
  });
});
