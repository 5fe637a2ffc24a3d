// Pausing, resuming and cancelling a scan job, and a job that outlives its core
// (closed mid-job, opened again: it resumes where it was, each file exactly once).
// Real core, real built-in service, real files and history. No timings: a pause
// right after start() lands before the walk's first batch is written (file system
// callbacks come after the caller's continuation), and waits are on conditions.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, until } from '../scans/harness.ts';
import { jobRows, jobStatusIn, repeats, writeTree } from './job-kit.ts';

const { dir, open, dataDir } = useCoreFixture('verdict-jobs-control-');

const FILES = 1_300;

const pipelineQuiet = (core: CoreInternals) => {
  const state = core.pipelineState();
  return state.ready === 0 && state.active === 0 && state.following === 0;
};

function expectEachFileOnce(jobId: number, files: readonly string[]) {
  const rows = jobRows(dataDir(), jobId);
  expect(repeats(rows)).toEqual([]);
  expect(new Set(rows.map((row) => row.path))).toEqual(new Set(files));
  expect(rows.every((row) => row.status === 'completed' && row.verdict === 'safe')).toBe(true);
}

describe('pause, resume and cancel', () => {
  it('a paused job stops walking after its current batch and goes on when resumed', async () => {
    const files = await writeTree(join(dir.path, 'tree'), FILES);
    const core = await open(FAST);
    const started = await core.jobs.start({ kind: 'custom', roots: [join(dir.path, 'tree')] });
    expect(core.jobs.pause(started.id)).toMatchObject({ status: 'paused' });

    // The rows written before the pause finish; nothing more is walked while paused.
    await until(() => pipelineQuiet(core) && jobRows(dataDir(), started.id).length > 0, 'the batch before the pause is scanned');
    const whilePaused = jobRows(dataDir(), started.id);
    expect(whilePaused.length).toBeLessThanOrEqual(500);
    expect(core.jobs.get(started.id)).toMatchObject({ status: 'paused', walkComplete: false });
    expect(core.jobs.progress(started.id)?.etaSeconds).toBeNull();

    expect(core.jobs.resume(started.id)).toMatchObject({ status: 'running' });
    const job = await core.jobs.finished(started.id);
    expect(job).toMatchObject({ status: 'completed', counts: { found: FILES, scanned: FILES, threats: 0, couldNotScan: 0, skipped: 0 } });
    expectEachFileOnce(started.id, files);
  });

  it('a cancelled job stops walking; what it queued still finishes, and it is kept as cancelled', async () => {
    await writeTree(join(dir.path, 'tree'), FILES);
    const core = await open(FAST);
    const started = await core.jobs.start({ kind: 'custom', roots: [join(dir.path, 'tree')] });
    core.jobs.cancel(started.id);
    const job = await core.jobs.finished(started.id);
    expect(job?.status).toBe('cancelled');
    expect(job?.finishedAt).not.toBeNull();
    await core.idle();
    const rows = jobRows(dataDir(), started.id);
    expect(rows.length).toBeLessThan(FILES);
    expect(repeats(rows)).toEqual([]);
    expect(rows.every((row) => row.status === 'completed')).toBe(true);
    expect(core.jobs.get(started.id)).toMatchObject({ status: 'cancelled' });
  });
});

describe('a job outlives its core', () => {
  it('closed while running, it resumes at the next start and scans each file once', async () => {
    const files = await writeTree(join(dir.path, 'tree'), FILES);
    const first = await open(FAST);
    const started = await first.jobs.start({ kind: 'custom', roots: [join(dir.path, 'tree')] });
    // Paused to hold the walk at its first batch, then running again as the core closes.
    first.jobs.pause(started.id);
    await until(() => jobRows(dataDir(), started.id).length > 0, 'a first batch is written');
    first.jobs.resume(started.id);
    await first.close();
    // Nobody works on it now: it says so, never "running".
    expect(jobStatusIn(dataDir(), started.id)).toBe('interrupted');
    const before = jobRows(dataDir(), started.id).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(FILES);

    const second = await open(FAST);
    expect(second.jobs.get(started.id)).toMatchObject({ status: 'running' });
    const job = await second.jobs.finished(started.id);
    expect(job).toMatchObject({ status: 'completed', counts: { found: FILES, scanned: FILES, couldNotScan: 0, skipped: 0 } });
    expectEachFileOnce(started.id, files);
  });

  it('closed while paused, it stays paused after a restart until resumed', async () => {
    const files = await writeTree(join(dir.path, 'tree'), FILES);
    const first = await open(FAST);
    const started = await first.jobs.start({ kind: 'custom', roots: [join(dir.path, 'tree')] });
    first.jobs.pause(started.id);
    await first.close();

    const second = await open(FAST);
    await until(() => pipelineQuiet(second), 'recovered rows are scanned');
    expect(second.jobs.get(started.id)).toMatchObject({ status: 'paused' });
    second.jobs.resume(started.id);
    expect(await second.jobs.finished(started.id)).toMatchObject({ status: 'completed', counts: { scanned: FILES } });
    expectEachFileOnce(started.id, files);
  });
});
