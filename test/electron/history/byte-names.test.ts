// Names that are not UTF-8 in the history, on real SQLite files: node:sqlite alone would store
// their escaped bytes as U+FFFD (two names becoming one); through the row mapping they read
// back exactly from every read path (a record, the list, a search by the valid part, reuse,
// the basic-checks offer, exports, retention, the compact store), and migration 12 keeps
// older text as it was.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../../electron/history/export-format.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { migrate, MIGRATIONS } from '../../../electron/history/migrations.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { cleanFile, compactAll, seedJob } from './job-files/fixtures.ts';
import { makeRecord } from './fixtures/records.ts';

const INVALID = '/home/user/col\uDCFF.com';
const REPLACEMENT = '/home/user/col\uFFFD.com';
const NONCHARACTER = '/home/user/col\uFDD0.com';
const sha = (c: string) => c.repeat(64);

let dataDir: string;
let history: History;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-bytes-'));
  history = openHistory(dataDir);
});
afterEach(() => {
  history.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const named = (filePath: string, over: Partial<ScanRecord> = {}) =>
  makeRecord({ path: filePath, fileName: path.basename(filePath), status: 'completed', safe: true, detailed: 'clean', completedAt: '2026-02-01T00:00:00.000Z', ...over });

async function exported(kind: 'csv' | 'json'): Promise<string> {
  let text = '';
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString('utf8')), done()) });
  await (kind === 'csv' ? history.exportCsv(sink) : history.exportJson(sink));
  return text;
}

describe('history: names that are not UTF-8', () => {
  it('needs the row mapping: node:sqlite alone stores a lone surrogate as U+FFFD', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (name TEXT)');
    db.prepare('INSERT INTO t VALUES (?)').run('col\uDCFF.com');
    expect((db.prepare('SELECT name FROM t').get() as { name: string }).name).toBe('col\uFFFD.com');
    db.close();
  });

  it('reads each record back exactly, told apart from the U+FFFD name and a noncharacter name, by id, list and search', () => {
    const records = [
      named(INVALID, { sha256: sha('a'), error: null }),
      named(REPLACEMENT, { sha256: sha('b') }),
      named(NONCHARACTER, { sha256: sha('c') }),
      named('/home/user/err\uDCFE', { status: 'failed', safe: null, error: { code: 'unreadable', message: 'Could not read /home/user/err\uDCFE.', params: { cause: 'read_denied', path: '/home/user/err\uDCFE' } } }),
    ];
    history.insertMany(records);
    for (const record of records) expect(history.get(record.id)).toEqual(record);
    expect(history.get(records[1]!.id)!.path).not.toBe(history.get(records[0]!.id)!.path);

    const page = history.query({ order: 'oldest', limit: 10 });
    expect(page.items.map((record) => record.path)).toEqual(records.map((record) => record.path));
    // The valid part finds both col… files (the trigram index and LIKE alike); each odd character finds its own.
    for (const nameIndex of [true, false]) {
      history.close();
      history = openHistory(dataDir, { nameIndex });
      expect(history.query({ search: 'col', limit: 10 }).items.map((record) => record.path).sort()).toEqual([INVALID, REPLACEMENT, NONCHARACTER].sort());
      expect(history.query({ search: 'col\uFFFD', limit: 10 }).items.map((record) => record.path)).toEqual([REPLACEMENT]);
      expect(history.query({ search: 'col\uFDD0', limit: 10 }).items.map((record) => record.path)).toEqual([NONCHARACTER]);
      expect(history.query({ search: 'col\uDCFF.c', limit: 10 }).items.map((record) => record.path)).toEqual([INVALID]);
    }
    expect(history.findReusable(sha('a'), '2026-01-01T00:00:00.000Z')?.path).toBe(INVALID);
  });

  it('offers and marks a basic-checks verdict by its exact path', () => {
    const builtin = { engine: { name: 'builtin' as const, version: null, signatures: null }, sha256: sha('d') };
    history.insertMany([named(INVALID, builtin), named(REPLACEMENT, { ...builtin, sha256: sha('e') })]);
    expect(history.basicOnly.paths(10).sort()).toEqual([INVALID, REPLACEMENT].sort());
    expect(history.basicOnly.markRescanRequested([INVALID], '2026-03-01T00:00:00.000Z')).toBe(1);
    expect(history.basicOnly.paths(10)).toEqual([REPLACEMENT]);
  });

  it('exports valid text with the exact bytes beside it (CSV path_bytes, JSON pathBytes)', async () => {
    history.insertMany([named(INVALID), named(REPLACEMENT)]);
    const csv = await exported('csv');
    expect(csv).not.toMatch(/[\uD800-\uDFFF]/);
    const [header, ...rows] = csv.trim().split('\r\n').map((line) => line.split(','));
    expect(header).toEqual(CSV_HEADER);
    const at = (name: string) => header!.indexOf(name);
    const invalidRow = rows.find((row) => row[at('path')] === '/home/user/col⟨0xFF⟩.com')!;
    expect(Buffer.from(invalidRow[at('path_bytes')]!, 'base64')).toEqual(Buffer.from('/home/user/col\xff.com', 'latin1'));
    expect(invalidRow[at('file_name')]).toBe('col⟨0xFF⟩.com');
    expect(rows.find((row) => row[at('path')] === REPLACEMENT)![at('path_bytes')]).toBe('');

    const json = JSON.parse(await exported('json')) as Array<ScanRecord & { pathBytes?: string }>;
    expect(json.map((record) => [record.path, record.pathBytes]).reverse()).toEqual([
      ['/home/user/col⟨0xFF⟩.com', Buffer.from('/home/user/col\xff.com', 'latin1').toString('base64')],
      [REPLACEMENT, undefined],
    ]);
  });

  it('keeps them through retention: the expired row goes, the kept one reads the same', () => {
    const old = named(INVALID, { queuedAt: '2020-01-01T00:00:00.000Z' });
    const kept = named('/home/user/keep\uDCFE', { queuedAt: '2026-01-01T00:00:00.000Z' });
    history.insertMany([old, kept]);
    expect(history.deleteOlderThan('2025-01-01T00:00:00.000Z')).toEqual([old.id]);
    expect(history.get(kept.id)).toEqual(kept);
    expect(history.query({ search: 'keep', limit: 5 }).items).toEqual([kept]);
  });

  it('keeps them in the compact store: folders and names so named read back, are searched and exported', async () => {
    const job = seedJob(history, 3);
    const odd = [
      cleanFile(10, { path: '/home/user/d\uDCE9/a\uDCFF.txt', fileName: 'a\uDCFF.txt' }),
      cleanFile(11, { path: '/home/user/d\uDCE9/a\uFFFD.txt', fileName: 'a\uFFFD.txt' }),
      cleanFile(12, { path: '/home/user/d\uFFFD/a\uDCFF.txt', fileName: 'a\uDCFF.txt' }),
    ];
    history.insertMany(odd, job.id);
    const before = history.query({ job: job.id, verdicts: ['safe', 'basic-only'], order: 'oldest', limit: 50 }).items.map((record) => record.path);
    compactAll(history, job.id);
    const after = history.query({ job: job.id, verdicts: ['safe', 'basic-only'], order: 'oldest', limit: 50 }).items;
    expect(after.filter((record) => odd.some((file) => file.path === record.path)).every((record) => record.id.startsWith('clean:'))).toBe(true);
    expect(after.map((record) => record.path).sort()).toEqual(before.sort());
    for (const record of after) expect(history.get(record.id)?.path).toBe(record.path);
    const found = history.query({ job: job.id, verdicts: ['safe', 'basic-only'], search: 'a\uDCFF', limit: 50 }).items.map((record) => record.path);
    expect(found.sort()).toEqual([odd[0]!.path, odd[2]!.path].sort());
    expect(await exported('json')).toContain('"/home/user/d⟨0xE9⟩/a⟨0xFF⟩.txt"');
  });
});

describe('migration 12', () => {
  it('doubles a U+FDD0 stored before, so older text reads as it was and the rebuilt name index finds it', () => {
    history.close();
    const file = path.join(dataDir, 'history.sqlite');
    rmSync(file);
    const db = new DatabaseSync(file);
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 11));
    db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const record = named(NONCHARACTER, { id: randomUUID() });
    const columns = ['id', 'path', 'file_name', 'origin', 'backend', 'external_reference_id', 'status', 'queued_at'];
    db.prepare(`INSERT INTO scans (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
      record.id, record.path, record.fileName, record.origin, record.backend, record.externalReferenceId, 'queued', record.queuedAt,
    );
    db.close();

    history = openHistory(dataDir);
    expect(history.get(record.id)?.path).toBe(NONCHARACTER);
    expect(history.query({ search: 'col\uFDD0.c', limit: 5 }).items.map((found) => found.id)).toEqual([record.id]);
  });
});
