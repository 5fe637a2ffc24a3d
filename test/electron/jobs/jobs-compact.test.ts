// A finished job's clean files move to the history's compact store through the real core,
// the real built-in service and real files: after the job, and at start for a job that was
// left uncompacted. The window's clean-file search finds them, identical content scanned
// later reuses their verdict, and the job's totals and summary do not change.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { COMPACT_CHUNK_ROWS, createCompactor, nextChunkRows } from '../../../electron/jobs/compact-jobs.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { seedJob, storeCounts } from '../history/job-files/fixtures.ts';
import { FAST, writeEicar } from '../scans/harness.ts';
import { jobRows, repeats, writeTree } from './job-kit.ts';

const { dir, open, dataDir } = useCoreFixture('verdict-jobs-compact-');

describe('compacting jobs in the core', () => {
  it('moves a finished job’s clean files; the search finds them, a copy reuses their verdict, the totals stay', async () => {
    const root = join(dir.path, 'chosen');
    const files = await writeTree(root, 260);
    await writeEicar(join(root, 'eicar.com'));
    const core = await open(FAST);
    const started = await core.jobs.start({ kind: 'custom', roots: [root] });
    const job = await core.jobs.finished(started.id);
    if (!job) throw new Error('the job did not finish');
    await core.jobs.compacted(job.id);

    // The 260 clean files moved; the threat stays a row of its own.
    expect(storeCounts(dataDir(), job.id)).toMatchObject({ scans: 1, compact: 260 });
    const rows = jobRows(dataDir(), job.id);
    expect(repeats(rows)).toEqual([]);
    expect(new Set(rows.map((row) => row.path))).toEqual(new Set([...files, join(root, 'eicar.com')]));
    expect(core.jobs.get(job.id)?.counts).toEqual(job.counts);

    // The job's clean-file search, as CleanSearch.tsx asks it.
    const found = await core.scans.list({ job: job.id, verdicts: ['safe', 'basic-only'], search: 'f-25', limit: 10, offset: 0, order: 'oldest' });
    if (!found.ok) throw new Error(found.error.message);
    // f-25 and f-250…f-259: the first 10 in the job's order, and the total.
    expect(found.value.items).toHaveLength(10);
    for (const record of found.value.items) expect(record.fileName).toMatch(/^f-25\d?\.txt$/);
    expect(found.value.total).toBe(11);
    const sample = found.value.items[0]!;
    expect(sample).toMatchObject({ status: 'completed', safe: true, jobId: job.id, engine: { name: 'builtin' } });
    const bySha = await core.scans.list({ job: job.id, verdicts: ['safe', 'basic-only'], search: sample.sha256!.slice(0, 10), limit: 10 });
    expect(bySha.ok && bySha.value.items.map((record) => record.path)).toEqual([sample.path]);

    // The same content somewhere else: the compacted verdict is reused (the built-in engine scans now too).
    const copy = join(dir.path, 'copy-of-a-clean-file.txt');
    await copyFile(sample.path, copy);
    await core.scans.submit([copy]);
    await core.idle();
    const again = await core.scans.list({ search: 'copy-of-a-clean-file', limit: 1 });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.items[0]).toMatchObject({ status: 'completed', safe: true, reusedFromId: sample.id });
  });

  it('at start, compacts a finished job that was left with its clean rows in the wide table (a crash mid-way)', async () => {
    const history = openHistory(dataDir());
    const job = seedJob(history, 120);
    // Part of it moved before the "crash".
    expect(history.jobs.compactStep(job.id, 50)).toEqual({ moved: 50, done: false });
    history.close();

    const core = await open(FAST);
    await core.jobs.compacted(job.id);
    expect(storeCounts(dataDir(), job.id)).toMatchObject({ scans: 5, compact: 120 });
    const found = await core.scans.list({ job: job.id, verdicts: ['safe', 'basic-only'], search: 'f-11', limit: 20 });
    expect(found.ok && found.value.total).toBe(11); // f-11, f-110…f-119
  });
});

describe('the compactor', () => {
  it('works a chunk per turn, stops between chunks when closed (nothing lost), and a new one finishes the job', async () => {
    const history = openHistory(dataDir());
    try {
      const job = seedJob(history, 2000);
      const first = createCompactor({ history, chunkRows: 300 });
      first.add(job.id);
      const done = first.done(job.id);
      // The first chunk runs at once; closing lets it end and starts no other.
      await first.close();
      await done;
      const partway = storeCounts(dataDir(), job.id);
      expect(partway.compact).toBeGreaterThan(0);
      expect(partway.compact).toBeLessThan(2000);
      expect(partway.scans + partway.compact).toBe(2005);
      expect(history.jobs.uncompacted()).toEqual([job.id]);

      const errors: unknown[] = [];
      const second = createCompactor({ history, chunkRows: 300, onError: (error) => errors.push(error) });
      second.add(job.id);
      second.add(job.id);
      await second.done(job.id);
      expect(storeCounts(dataDir(), job.id)).toMatchObject({ scans: 5, compact: 2000 });
      expect(history.jobs.uncompacted()).toEqual([]);
      expect(errors).toEqual([]);
      await second.close();
      await expect(second.done(job.id)).resolves.toBeUndefined();
    } finally {
      history.close();
    }
  });
});

describe('the compactor chunk size', () => {
  it('follows the time a chunk took: halved when slow, doubled when quick, within bounds', () => {
    expect(nextChunkRows(COMPACT_CHUNK_ROWS, 240)).toBe(COMPACT_CHUNK_ROWS / 2);
    expect(nextChunkRows(COMPACT_CHUNK_ROWS, 5)).toBe(COMPACT_CHUNK_ROWS * 2);
    expect(nextChunkRows(COMPACT_CHUNK_ROWS, 25)).toBe(COMPACT_CHUNK_ROWS);
    expect(nextChunkRows(50, 1_000)).toBe(50);
    expect(nextChunkRows(4000, 1)).toBe(4000);
    // From the start, a history where a row costs 0.5 ms settles at a chunk of about 25 ms or less.
    let rows = COMPACT_CHUNK_ROWS;
    for (let i = 0; i < 10; i += 1) rows = nextChunkRows(rows, rows * 0.5);
    expect(rows * 0.5).toBeLessThanOrEqual(50);
  });

  it('starts small: its first chunk is at most 100 rows (500 took about 100 ms on a 100,000-scan history)', async () => {
    const asked: number[] = [];
    const jobs = { compactStep: (_id: number, max: number) => (asked.push(max), { moved: max, done: true }), reclaimSpace: () => 0 };
    const compactor = createCompactor({ history: { jobs } as unknown as Parameters<typeof createCompactor>[0]['history'] });
    compactor.add(7);
    await compactor.done(7);
    expect(asked[0]).toBeLessThanOrEqual(100);
  });
});
