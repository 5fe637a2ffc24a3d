// Migration 24: the unchanged-file skip's memory as written before it (a verdict as JSON per file)
// reads back the same after it, every entry's engine, signatures and digests as they were, with
// what files share kept once as a kind; an entry that could never be reused (not JSON, a digest
// that is not hex) is dropped, never turned into another verdict. And the memory stays narrow:
// entries written after it name their kind, the bytes an entry takes a fraction of before. A
// walk's batch of files is looked up in one read (findMany), as one at a time would find them.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, openHistory, type UnchangedEntry } from '../../../electron/history/history.ts';
import { migrate, MIGRATIONS } from '../../../electron/history/migrations.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-unchanged-kinds-'));
  dirs.push(dir);
  return dir;
};

const engine = {
  name: 'clamav',
  version: '1.4.3',
  signatures: { version: 27831, date: '2026-11-28T09:12:00.000Z' },
  signatureBasis: 'databases',
  databases: 'ab'.repeat(32),
} as const;
const KEY = `clamav:databases:${'ab'.repeat(32)}`;
const hex = (byte: string, bytes: number) => byte.repeat(bytes);
const entry = (ino: number, overrides: Partial<UnchangedEntry['verdict']> = {}, signatureKey = KEY): UnchangedEntry => ({
  file: { dev: '2049', ino: String(ino), size: 100 + ino, mtimeNs: `17000000000${ino}000000000`, ctimeNs: `17000000001${ino}000000000` },
  signatureKey,
  recordId: `scan-${ino}`,
  verdict: { sha256: hex((ino % 10).toString(16).repeat(2), 32), md5: null, sha1: null, detailed: 'clean', fileType: null, engine, ...overrides },
  recordedMs: 1_764_000_000_000 + ino,
});

it('keeps every entry as it was, what files share once, and drops those that could never be reused', () => {
  const dir = folder();
  const db = new DatabaseSync(join(dir, HISTORY_FILE_NAME));
  migrate(db, MIGRATIONS.filter((migration) => migration.version < 24));
  const insert = db.prepare('INSERT INTO unchanged_files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const old = (e: UnchangedEntry, json = JSON.stringify(e.verdict)) =>
    insert.run(e.file.dev, e.file.ino, e.file.size, e.file.mtimeNs, e.file.ctimeNs, e.signatureKey, e.recordId, json, e.recordedMs);
  const kept = [
    ...Array.from({ length: 20 }, (_, i) => entry(i)),
    entry(20, { engine: null, detailed: null, sha256: null }, 'builtin:eicar'),
    entry(21, { md5: hex('c', 32), sha1: hex('d', 40), fileType: 'application/pdf' }),
    entry(22, { engine: { ...engine, detection: 'heuristics off', selfTest: 'failed' } }),
  ];
  for (const e of kept) old(e);
  old(entry(30), '{not json');
  old(entry(31, { sha256: 'not hex at all' }));
  old(entry(32), JSON.stringify({ ...entry(32).verdict, engine: 'clamav' }));
  db.close();

  const history = openHistory(dir);
  try {
    for (const e of kept) expect(history.unchanged.find(e.file.dev, e.file.ino), e.file.ino).toEqual(e);
    expect(history.unchanged.find('2049', '30')).toBeNull();
    expect(history.unchanged.find('2049', '31')).toBeNull();
    expect(history.unchanged.find('2049', '32')).toBeNull();
  } finally {
    history.close();
  }
  const after = new DatabaseSync(join(dir, HISTORY_FILE_NAME), { readOnly: true });
  try {
    // Twenty entries share one kind; the others are a kind each (the odd engine's too: zod refuses it when read).
    expect(after.prepare('SELECT count(*) AS n FROM unchanged_kinds').get()).toEqual({ n: 5 });
    expect(after.prepare('SELECT count(*) AS n FROM unchanged_files').get()).toEqual({ n: kept.length + 1 });
  } finally {
    after.close();
  }
});

it('writes an entry of a few dozen bytes beside its kind, and finds it again after the connection is new', () => {
  const dir = folder();
  const count = 2_000;
  let history = openHistory(dir);
  for (let i = 0; i < count; i++) history.unchanged.remember(entry(i));
  history.close();
  history = openHistory(dir);
  try {
    for (const i of [0, 999, 1_999]) expect(history.unchanged.find('2049', String(i))).toEqual(entry(i));
  } finally {
    history.close();
  }
  const db = new DatabaseSync(join(dir, HISTORY_FILE_NAME), { readOnly: true });
  try {
    const { bytes } = db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name = 'unchanged_files'").get() as { bytes: number };
    // About 110 bytes an entry (identity, kind, scan, sha256) against about 640 with the verdict's JSON in each.
    expect(bytes / count).toBeLessThan(200);
    expect(db.prepare('SELECT count(*) AS n FROM unchanged_kinds').get()).toEqual({ n: 1 });
  } finally {
    db.close();
  }
});

it('reads the entries of many files in one snapshot, in the order asked, none where a file has none', () => {
  const dir = folder();
  const history = openHistory(dir);
  try {
    for (const i of [1, 3]) history.unchanged.remember(entry(i));
    history.recheck.files.remember([{ file: entry(3).file, path: '/home/u/three', signatureKey: KEY, recordId: 'scan-3', origin: 'job', firstSeenMs: 5 }]);
    history.flush();
    const asked = [1, 2, 3, 1].map((i) => entry(i).file);
    expect(history.unchanged.findMany(asked)).toEqual([entry(1), null, entry(3), entry(1)]);
    expect(history.recheck.files.findMany(asked).map((seen) => seen?.path ?? null)).toEqual([null, null, '/home/u/three', null]);
    // Inside the open grouped commit too: an entry still waiting for its commit is read.
    history.unchanged.remember(entry(2));
    expect(history.unchanged.findMany([entry(2).file])).toEqual([entry(2)]);
  } finally {
    history.close();
  }
});
