// History retention with scan jobs ("keep N days / N scans"): a finished job is one
// entry however many files it scanned; when it expires its clean, failed and skipped
// rows go with it, its threats and files in quarantine stay, and an unfinished job
// is never touched. The history on a real SQLite file, then the real core end to end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobUpdate } from '../../../shared/bridge/api.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import type { JobState } from '../../../electron/jobs/job-state.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { makeRecord } from '../history/fixtures/records.ts';
import { FAST, until, writeEicar } from '../scans/harness.ts';
import { jobStateFor, writeTree } from './job-kit.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe('retention in the history: a job is one entry', () => {
  let folder = '';
  let history: History;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'verdict-job-retention-'));
    history = openHistory(folder);
  });
  afterEach(async () => {
    history.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** A job started `days` ago with 50 clean rows, a failed and a skipped one, a threat left in place and one in quarantine. */
  function seedJob(days: number, over: Partial<JobState> = {}) {
    const { id: _id, ...draft } = jobStateFor({ status: 'completed', walkComplete: true, startedAt: daysAgo(days), finishedAt: daysAgo(days), ...over });
    const id = history.jobs.insert(draft);
    const at = { queuedAt: daysAgo(days), completedAt: daysAgo(days) };
    const clean = Array.from({ length: 50 }, () => makeRecord({ status: 'completed', safe: true, ...at }));
    const failed = makeRecord({ status: 'failed', error: { code: 'permission_denied', message: 'no' }, ...at });
    const skipped = makeRecord({ status: 'skipped', error: { code: 'excluded_path', message: 'left out' }, ...at });
    const threat = makeRecord({ status: 'completed', safe: false, ...at });
    const quarantined = makeRecord({ status: 'completed', safe: false, disposition: 'quarantined', quarantineId: 'q-1', ...at });
    history.insertMany([...clean, failed, skipped, threat, quarantined], id);
    return { id, kept: [threat.id, quarantined.id], gone: [...clean, failed, skipped].map((record) => record.id) };
  }
  const single = (days: number): ScanRecord => {
    const record = makeRecord({ status: 'completed', safe: true, queuedAt: daysAgo(days), completedAt: daysAgo(days) });
    history.insert(record);
    return record;
  };
  const present = (ids: readonly string[]) => ids.filter((id) => history.get(id) !== null);

  it('keep N scans counts a finished job once, and its rows go with it when it is no longer among the newest', () => {
    const old = single(10);
    const job = seedJob(5);
    const newer = single(3);
    const newest = single(1);

    // Three entries kept: newest, newer and the job (53 rows and more); only `old` goes.
    expect(history.keepLast(3)).toEqual([old.id]);
    expect(history.jobs.expireBeyond(3)).toEqual([]);
    expect(present(job.gone)).toHaveLength(job.gone.length);

    // Two entries: the job goes, its threat and quarantined file stay, the single scans of its time do not matter.
    expect(history.jobs.expireBeyond(2)).toEqual([job.id]);
    expect(history.keepLast(2)).toEqual([]);
    expect(present(job.gone)).toEqual([]);
    expect(present(job.kept)).toEqual(job.kept);
    expect(history.jobs.get(job.id)).toBeNull();
    expect(present([newer.id, newest.id])).toHaveLength(2);
  });

  it("a single scan's threat is always kept, as a job's is, and is not counted among the N kept", () => {
    const oldThreat = makeRecord({ status: 'completed', safe: false, queuedAt: daysAgo(60), completedAt: daysAgo(60) });
    history.insert(oldThreat);
    const oldClean = single(50);
    const job = seedJob(40);
    const newer = single(2);
    const newest = single(1);

    // By age: the old clean scan and the old job (but its threat and quarantined file) go; the old threat stays.
    const before = daysAgo(30);
    expect(history.deleteOlderThan(before)).toEqual([oldClean.id]);
    expect(history.jobs.expireOlderThan(before)).toEqual([job.id]);
    expect(present([oldThreat.id, ...job.kept])).toEqual([oldThreat.id, ...job.kept]);
    expect(present(job.gone)).toEqual([]);

    // By count: keep 1 removes `newer`, never the threat (older, but kept whatever the limit); keep 0 leaves only threats.
    expect(history.keepLast(1)).toEqual([newer.id]);
    expect(history.keepLast(0)).toEqual([newest.id]);
    expect(present([oldThreat.id, ...job.kept])).toHaveLength(3);
    expect(history.query({ order: 'oldest' }).total).toBe(3);
  });

  it('keep N days removes finished jobs that ended before, never an unfinished one or its rows', () => {
    const oldJob = seedJob(40);
    const recentJob = seedJob(5);
    const running = seedJob(50, { status: 'paused', finishedAt: null, walkComplete: false });
    const oldSingle = single(45);

    const before = daysAgo(30);
    expect(history.deleteOlderThan(before)).toEqual([oldSingle.id]);
    expect(history.jobs.expireOlderThan(before)).toEqual([oldJob.id]);
    expect(present(oldJob.gone)).toEqual([]);
    expect(present(oldJob.kept)).toEqual(oldJob.kept);
    expect(present(recentJob.gone)).toHaveLength(recentJob.gone.length);
    expect(present(running.gone)).toHaveLength(running.gone.length);
    expect(history.jobs.get(running.id)).toMatchObject({ status: 'paused' });

    // "Clear history" (keep none): every finished job goes, the unfinished one stays whole.
    expect(history.jobs.expireBeyond(0)).toEqual([recentJob.id]);
    history.keepLast(0);
    expect(present(running.gone)).toHaveLength(running.gone.length);
    expect(present([...oldJob.kept, ...recentJob.kept, ...running.kept])).toHaveLength(6);
  });
});

describe('retention in the core: a job is one entry', () => {
  const { dir, open } = useCoreFixture('verdict-jobs-retention-');

  it('keeps a job whole while it is among the newest N, then removes it, keeping its threat and the single scans\' threats, and tells the window', async () => {
    const root = join(dir.path, 'chosen');
    await writeTree(root, 40);
    const threat = await writeEicar(join(root, 'eicar.com'));
    const core = await open(FAST);
    const updates: JobUpdate[] = [];
    core.scanJobs.onEvent((update) => updates.push(update));
    const singleThreat = await writeEicar(join(dir.path, 'before.com'));
    await core.scans.submit([singleThreat]);
    await core.idle();
    await writeTree(join(dir.path, 'old'), 1);
    await core.scans.submit([join(dir.path, 'old')]);
    await core.idle();
    const started = await core.scanJobs.start({ kind: 'custom', roots: [root] });
    if (!started.ok) throw new Error(started.error.message);
    const jobId = started.value.job.id;
    await core.jobs.finished(jobId);
    await core.threatsSettled();
    await writeTree(join(dir.path, 'after'), 1);
    await core.scans.submit([join(dir.path, 'after')]);
    await core.idle();
    const total = async () => {
      const page = await core.scans.list({ limit: 1 });
      return page.ok ? page.value.total : -1;
    };
    expect(await total()).toBe(44);

    // Two entries: the newest single scan and the job (41 rows); the older clean single scan goes, the threat before it stays.
    expect((await core.settings.update({ historyRetention: { keepScans: 2 } })).ok).toBe(true);
    await until(async () => (await total()) === 43, 'the oldest clean single scan is removed');
    expect(core.jobs.get(jobId)).not.toBeNull();

    expect((await core.settings.update({ historyRetention: { keepScans: 1 } })).ok).toBe(true);
    await until(() => updates.some((update) => update.type === 'removed'), 'the job is removed');
    expect(updates.find((update) => update.type === 'removed')).toEqual({ type: 'removed', ids: [jobId] });
    const left = await core.scans.list({ limit: 100 });
    if (!left.ok) throw new Error(left.error.message);
    expect(left.value.items.map((record) => record.path).sort()).toEqual([join(dir.path, 'after', 'd0', 's0', 'f-0.txt'), threat, singleThreat].sort());
    expect(core.jobs.get(jobId)).toBeNull();
    const jobs = await core.scanJobs.list();
    expect(jobs.ok && jobs.value).toEqual([]);
  });
});
