// The compact store of a finished job's clean files (history schema 9), on real SQLite
// files: compaction moves exactly the clean rows and they read back as they were; a chunk
// is all or nothing, so a re-run after a crash loses and repeats nothing; searches by name
// and by each digest, reuse and retention find them; and a file costs at most 500 bytes.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory, type History } from '../../../../electron/history/history.ts';
import { LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../../electron/history/migrations.ts';
import { verdictOf, type ScanRecord } from '../../../../shared/scans/record.ts';
import { jobStateFor } from '../../jobs/job-kit.ts';
import { asCompacted, cleanFile, compactAll, seedJob, storeCounts } from './fixtures.ts';

let folder = '';
let history: History;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-compact-'));
  history = openHistory(folder);
});
afterEach(async () => {
  history.close();
  await rm(folder, { recursive: true, force: true });
});

/** A job's clean answers, as the window's search asks for them: ClamAV's and those of basic checks only. */
const cleanOf = (job: number, extra: { search?: string; offset?: number; limit?: number } = {}) =>
  history.query({ job, verdicts: ['safe', 'basic-only'], order: 'oldest', limit: 1000, ...extra });
const paths = (records: readonly ScanRecord[]) => records.map((record) => record.path);

describe('compacting a finished job', () => {
  it('moves exactly its clean rows, which read back as they were; its threats, failures, skips and odd rows stay', () => {
    const job = seedJob(history, 600);
    const totals = history.jobs.totals(job.id);
    const before = cleanOf(job.id);
    expect(storeCounts(folder, job.id)).toMatchObject({ scans: 605, compact: 0 });

    expect(compactAll(history, job.id, 250)).toBe(3);
    // 600 moved; the threat, the failure, the skip, the clean file with a finding and the one with an odd time stay.
    expect(storeCounts(folder, job.id)).toMatchObject({ scans: 5, compact: 600, folders: 12, kinds: 1 });
    expect(history.jobs.uncompacted()).toEqual([]);
    expect(history.jobs.totals(job.id)).toEqual(totals);

    const after = cleanOf(job.id);
    expect(after.total).toBe(before.total);
    expect(after.items.map(asCompacted)).toEqual(before.items.map(asCompacted));
    // The two clean files that stay in scans keep their ids; the moved ones have compact ids that resolve.
    expect(after.items.filter((record) => !record.id.startsWith('clean:')).map((record) => record.id).sort()).toEqual(job.others.slice(3).map((record) => record.id).sort());
    const moved = after.items.find((record) => record.id.startsWith('clean:'))!;
    expect(history.get(moved.id)).toEqual(moved);
    expect(history.get('clean:99999999')).toBeNull();
    // A job's other rows are untouched.
    for (const other of job.others) expect(history.get(other.id)).toMatchObject({ status: other.status, path: other.path });
  });

  it('renames the scans that name a moved row: a file of the job reused from another (in an earlier chunk too), and the unchanged-file memory', () => {
    const { id: _id, ...draft } = jobStateFor({ status: 'completed', walkComplete: true, finishedAt: '2026-11-25T10:00:00.000Z' });
    const jobId = history.jobs.insert(draft);
    const read = Array.from({ length: 150 }, (_, i) => cleanFile(i));
    // Same content as a file read earlier in the job: the verdict reused, naming that scan (a chunk or more before).
    const reused = read.map((source, i) => cleanFile(150 + i, { sha256: source.sha256, reusedFromId: source.id, reuseKind: 'content' }));
    history.insertMany([...read, ...reused], jobId);
    const file = (i: number) => ({ dev: '9', ino: String(i), size: 1, mtimeNs: '1', ctimeNs: '1' });
    read.forEach((source, i) => history.unchanged.remember({ file: file(i), signatureKey: 'k', recordId: source.id, verdict: { sha256: source.sha256, md5: null, sha1: null, detailed: 'clean', fileType: null, engine: null }, recordedMs: 1 }));
    history.flush();

    while (!history.jobs.compactStep(jobId, 100).done);
    const byPath = new Map([...history.jobs.finishedRecords(jobId)].map((record) => [record.path, record]));
    expect([...byPath.values()].every((record) => record.id.startsWith('clean:'))).toBe(true);
    for (const [i, source] of read.entries()) {
      const copy = byPath.get(reused[i]!.path)!;
      expect(history.get(copy.reusedFromId!), `reused from ${source.path}`).toMatchObject({ path: source.path, sha256: source.sha256 });
      expect(history.get(history.unchanged.find(file(i).dev, file(i).ino)!.recordId)).toMatchObject({ path: source.path });
    }
  });

  it('leaves an unfinished job alone', () => {
    const job = seedJob(history, 20, 'running');
    expect(history.jobs.compactStep(job.id, 1000)).toEqual({ moved: 0, done: true });
    expect(storeCounts(folder, job.id)).toMatchObject({ scans: 25, compact: 0 });
    expect(history.jobs.uncompacted()).toEqual([]);
  });

  it('is all or nothing per chunk: a chunk that fails midway moves nothing, and a re-run after a restart loses and repeats nothing', () => {
    const job = seedJob(history, 300, 'cancelled');
    const before = paths(cleanOf(job.id).items).sort();
    expect(history.jobs.compactStep(job.id, 100)).toEqual({ moved: 100, done: false });

    // A failure while the next chunk deletes its wide rows (as a crash before COMMIT): that chunk rolls back whole.
    const other = new DatabaseSync(join(folder, 'history.sqlite'));
    other.exec(`CREATE TRIGGER crash BEFORE DELETE ON scans WHEN old.file_name = 'f-150.txt' BEGIN SELECT RAISE(ABORT, 'crash'); END`);
    expect(() => history.jobs.compactStep(job.id, 100)).toThrow(/crash/);
    expect(storeCounts(folder, job.id)).toMatchObject({ scans: 205, compact: 100 });
    other.exec('DROP TRIGGER crash');
    other.close();

    // Started again: the job is still to compact, and goes on where it was.
    history.close();
    history = openHistory(folder);
    expect(history.jobs.uncompacted()).toEqual([job.id]);
    compactAll(history, job.id, 100);
    expect(storeCounts(folder, job.id)).toMatchObject({ scans: 5, compact: 300 });
    const after = paths(cleanOf(job.id).items).sort();
    expect(after).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
  });
});

describe('reading compacted files', () => {
  it('tells basic checks only from clean by each file\'s kind, before and after compaction, with and without a search', () => {
    const job = seedJob(history, 60);
    const clamav = [200, 201, 202].map((i) => cleanFile(i, { detailed: 'clean', engine: { name: 'clamav', version: '1.4.6', signatures: null } }));
    history.insertMany(clamav, job.id);
    const read = () =>
      (['safe', 'basic-only'] as const).map((verdict) => [
        paths(history.query({ job: job.id, verdicts: [verdict], order: 'oldest', limit: 1000 }).items).sort(),
        history.query({ job: job.id, verdicts: [verdict], search: 'f-20', limit: 1000 }).total,
      ]);
    // The rows that stay in scans (a clean file with a finding, one with an odd time) are the built-in engine's too.
    const builtin = paths([...job.clean, ...job.others.filter((record) => record.status === 'completed' && record.safe === true)]).sort();
    const expected = [
      [paths(clamav).sort(), 3], // f-200…f-202
      [builtin, 1], // f-20
    ];
    expect(read()).toEqual(expected);
    expect(cleanOf(job.id).items.map((record) => verdictOf(record)).sort()).toEqual([...Array(3).fill('safe'), ...Array(builtin.length).fill('basic-only')].sort());
    compactAll(history, job.id);
    expect(storeCounts(folder, job.id)).toMatchObject({ compact: 63 });
    expect(read()).toEqual(expected);
    expect(cleanOf(job.id).items.map((record) => verdictOf(record)).sort()).toEqual([...Array(3).fill('safe'), ...Array(builtin.length).fill('basic-only')].sort());
  });

  it.each([true, false])('finds them by part of the name and by each digest, paged, with the name index %s', (nameIndex) => {
    history.close();
    history = openHistory(folder, { nameIndex });
    const job = seedJob(history, 400);
    const searches = ['f-12', 'F-3', 'nothing-like-it', job.clean[7]!.sha256!.slice(0, 8), job.clean[8]!.md5!, job.clean[9]!.sha1!.slice(0, 13), job.clean[10]!.sha256!.slice(0, 5)];
    const before = searches.map((search) => cleanOf(job.id, { search }));
    compactAll(history, job.id);
    const after = searches.map((search) => cleanOf(job.id, { search }));
    expect(after.map((page) => paths(page.items))).toEqual(before.map((page) => paths(page.items)));
    expect(after.map((page) => page.total)).toEqual(before.map((page) => page.total));
    expect(after[0]!.total).toBe(11); // f-12 and f-120…f-129
    expect(paths(after[3]!.items)).toContain(job.clean[7]!.path);
    expect(paths(after[4]!.items)).toEqual([job.clean[8]!.path]);
    expect(paths(after[5]!.items)).toEqual([job.clean[9]!.path]);
    // Pages of 10 walk the same order as one page.
    const pages = [0, 10, 20, 30].flatMap((offset) => paths(cleanOf(job.id, { search: 'f-3', offset, limit: 10 }).items));
    expect(pages).toEqual(paths(cleanOf(job.id, { search: 'f-3', limit: 40 }).items));
  });

  it('exports them as before, in order among the scans rows (an export holds a job’s clean files too)', async () => {
    const job = seedJob(history, 1200);
    const single = history.insert(cleanFile(5000, { id: randomUUID(), queuedAt: '2026-11-25T10:00:04.000Z', externalReferenceId: `verdict/x/${randomUUID()}` }));
    const exported = async (name: string, query: Parameters<History['exportJson']>[1]) => {
      const file = join(folder, name);
      await history.exportJson(file, query);
      return (JSON.parse(await readFile(file, 'utf8')) as ScanRecord[]).map(asCompacted);
    };
    const before = [await exported('a.json', { order: 'oldest' }), await exported('b.json', { job: job.id, search: 'f-11' }), await exported('c.json', { order: 'newest' })];
    compactAll(history, job.id);
    const after = [await exported('d.json', { order: 'oldest' }), await exported('e.json', { job: job.id, search: 'f-11' }), await exported('f.json', { order: 'newest' })];
    expect(after[0]).toHaveLength(1206);
    // In the query's order by queued time; files queued in the same millisecond may come in another order across the two stores.
    const byTimeAndPath = (records: ReturnType<typeof asCompacted>[]) => [...records].sort((x, y) => (x.queuedAt + x.path < y.queuedAt + y.path ? -1 : 1));
    expect(after.map(byTimeAndPath)).toEqual(before.map(byTimeAndPath));
    expect(after.map((records) => records.map((record) => record.queuedAt))).toEqual(before.map((records) => records.map((record) => record.queuedAt)));
    expect(after[0]!.map((record) => record.path)).toContain(single.path);
  });

  it('reuses a compacted verdict by sha256, with its engine, within the days asked and from the same service only', () => {
    const job = seedJob(history, 50);
    const target = job.clean[5]!;
    const alsoReused = cleanFile(900, { sha256: job.clean[6]!.sha256, reusedFromId: job.clean[6]!.id });
    history.insertMany([alsoReused], seedJob(history, 0).id);
    compactAll(history, job.id);
    compactAll(history, job.id + 1);
    expect(storeCounts(folder, job.id).compact).toBe(50);

    const found = history.findReusable(target.sha256!, '2026-11-01T00:00:00.000Z', { backend: 'local' });
    expect(found).toMatchObject({ path: target.path, safe: true, engine: { name: 'builtin' }, completedAt: target.completedAt, detailed: target.detailed, md5: target.md5 });
    expect(found!.id).toMatch(/^clean:\d+$/);
    expect(history.findReusable(target.sha256!.toUpperCase(), '2026-11-01T00:00:00.000Z')).toMatchObject({ path: target.path });
    expect(history.findReusable(target.sha256!, '2026-11-26T00:00:00.000Z', { backend: 'local' })).toBeNull();
    expect(history.findReusable(target.sha256!, '2026-11-01T00:00:00.000Z', { backend: 'https://other.example' })).toBeNull();
    // A verdict that was itself reused is not one to reuse: the real scan is.
    expect(history.findReusable(job.clean[6]!.sha256!, '2026-11-01T00:00:00.000Z')).toMatchObject({ path: job.clean[6]!.path, reusedFromId: null });
    // A newer wide row of the same content wins over the compact one.
    const newer = cleanFile(5, { id: randomUUID(), completedAt: '2026-11-25T12:00:00.000Z', queuedAt: '2026-11-25T11:59:00.000Z', externalReferenceId: `verdict/x/${randomUUID()}` });
    history.insert(newer);
    expect(history.findReusable(target.sha256!, '2026-11-01T00:00:00.000Z')?.id).toBe(newer.id);
  });

  it('"Scan again with ClamAV" still offers a compacted job’s files the built-in engine judged, once, until ClamAV judges them or the action takes them up', () => {
    const job = seedJob(history, 30);
    // Two of them have been seen by ClamAV since: one later in a single scan, one in a later job (compacted too).
    history.insert(cleanFile(3, { id: randomUUID(), path: '/elsewhere/a.txt', engine: { name: 'clamav', version: '1.4.6', signatures: null }, detailed: 'clean', completedAt: '2026-11-26T00:00:00.000Z', externalReferenceId: `verdict/x/${randomUUID()}` }));
    const later = seedJob(history, 0);
    history.insertMany([cleanFile(4, { path: '/later/b.txt', engine: { name: 'clamav', version: '1.4.6', signatures: null }, detailed: 'clean' })], later.id);
    const before = { count: history.basicOnly.count(), paths: history.basicOnly.paths(100) };
    compactAll(history, job.id);
    compactAll(history, later.id);
    expect(storeCounts(folder, job.id).compact).toBe(30);
    // f-0…f-29, f-31 (a finding keeps it wide) and f-32 (an odd time, likewise), less f-3 and f-4: the same 30 paths before and after.
    expect(history.basicOnly.count()).toBe(before.count);
    expect(before.count).toBe(30);
    expect(new Set(history.basicOnly.paths(100))).toEqual(new Set(before.paths));
    expect(history.basicOnly.paths(100)).not.toContain(job.clean[3]!.path);

    const taken = history.basicOnly.paths(10);
    // Rows marked: 10 paths, some of them with a wide row too (the second job's own f-1 and f-2).
    expect(history.basicOnly.markRescanRequested(taken, '2026-11-26T01:00:00.000Z')).toBeGreaterThanOrEqual(10);
    expect(history.basicOnly.count()).toBe(20);
    expect(history.basicOnly.paths(100)).not.toContain(taken[0]);
  });

  it('retention takes a job’s compacted files with it, and folders and kinds no file uses any more', () => {
    const older = seedJob(history, 10);
    const newer = seedJob(history, 120);
    compactAll(history, older.id);
    compactAll(history, newer.id);
    expect(storeCounts(folder, newer.id)).toMatchObject({ compact: 120, folders: 3 });

    // The older job goes; the folder it shared with the newer one stays.
    expect(history.jobs.expireBeyond(1)).toEqual([older.id]);
    expect(storeCounts(folder, older.id)).toMatchObject({ compact: 0, folders: 3, kinds: 1 });
    expect(cleanOf(newer.id, { search: 'f-1' }).total).toBe(33); // f-1, f-10…f-19, f-100…f-119, and f-121, f-122 (in scans)
    // Then the newer: only its threat stays (a row of the list of its own).
    expect(history.jobs.expireBeyond(0)).toEqual([newer.id]);
    expect(storeCounts(folder, newer.id)).toEqual({ scans: 1, compact: 0, folders: 0, kinds: 0 });
    expect(cleanOf(newer.id, { search: 'f-1' }).total).toBe(0);
  });
});

describe('bytes per clean file', () => {
  it('a finished job of 10,000 files takes at most 500 bytes a file in the history file once compacted', async () => {
    const sizeOf = async () => (await Promise.all((await readdir(folder)).map((name) => stat(join(folder, name))))).reduce((sum, s) => sum + s.size, 0);
    history.close();
    const empty = await sizeOf();
    history = openHistory(folder);
    const job = seedJob(history, 10_000);
    compactAll(history, job.id);
    history.close();
    const perFile = ((await sizeOf()) - empty) / 10_000;
    history = openHistory(folder);
    expect(storeCounts(folder, job.id).compact).toBe(10_000);
    // Deterministic: the same rows make the same pages. Measured 2026-11-26: about 260.
    expect(perFile).toBeLessThanOrEqual(500);
    expect(perFile).toBeGreaterThan(100);
  });
});

describe('migration 9 on a history from before', () => {
  it('moves a schema 8 history up; its finished jobs are to compact and compact; its file keeps auto_vacuum off and reuses the freed pages', () => {
    history.close();
    const file = join(folder, 'v8.sqlite');
    const db = new DatabaseSync(file);
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 8));
    db.close();
    history = openHistory(folder, { fileName: 'v8.sqlite' });
    const job = seedJob(history, 300);
    expect(history.jobs.uncompacted()).toEqual([job.id]);
    compactAll(history, job.id);
    expect(history.jobs.uncompacted()).toEqual([]);
    expect(history.query({ job: job.id, verdicts: ['safe', 'basic-only'], search: job.clean[3]!.sha256!, limit: 5 }).items.map((record) => record.path)).toEqual([job.clean[3]!.path]);
    const check = new DatabaseSync(file);
    try {
      expect(userVersion(check)).toBe(LATEST_VERSION);
      expect((check.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(0);
      expect(Number((check.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count)).toBeGreaterThan(0);
    } finally {
      check.close();
    }
  });

  it('a new history gives the pages back: auto_vacuum is incremental, and no free page is left after a job compacts', () => {
    compactAll(history, seedJob(history, 2000).id);
    const check = new DatabaseSync(join(folder, 'history.sqlite'));
    try {
      expect((check.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(2);
      expect(Number((check.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count)).toBe(0);
    } finally {
      check.close();
    }
  });
});
