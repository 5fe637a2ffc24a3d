// The scan jobs API the window and the tray use (core.scanJobs), through the real core,
// the real built-in service, real files and the real history: results with codes, the
// progress events (never each file), and the list queries a job's row is built from:
// the main list keeps a job's clean files out, the job's own rows are searchable and paged.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobUpdate } from '../../../shared/bridge/api.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, writeEicar } from '../scans/harness.ts';
import { writeTree } from './job-kit.ts';

const { dir, open } = useCoreFixture('verdict-jobs-api-');

const places = (home: string) => ({ platform: 'linux' as const, home, env: { TMPDIR: join(home, 'no-tmp') } });

async function value<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new Error(`${settled.error.code}: ${settled.error.message}`);
  return settled.value;
}

async function finished(core: CoreInternals, id: number) {
  const job = await core.jobs.finished(id);
  if (!job) throw new Error('the job did not finish');
  return job;
}

describe('the scan jobs API', () => {
  it('runs a custom job, tells its progress without a message per file, and ends with its summary', async () => {
    const root = join(dir.path, 'chosen');
    await writeTree(root, 120);
    await writeEicar(join(root, 'eicar.com'));
    const core = await open(FAST);
    const updates: JobUpdate[] = [];
    core.scanJobs.onEvent((update) => updates.push(update));

    const started = await value(core.scanJobs.start({ kind: 'custom', roots: [root] }));
    expect(started.job).toMatchObject({ kind: 'custom', roots: [root], status: 'running', origin: 'dialog' });
    await finished(core, started.job.id);
    await core.threatsSettled();

    const last = updates.at(-1);
    expect(last).toMatchObject({ type: 'progress', progress: { job: { id: started.job.id, status: 'completed', walkComplete: true } } });
    expect(last?.type === 'progress' && last.progress.job.counts).toMatchObject({ found: 121, scanned: 121, threats: 1, couldNotScan: 0, skipped: 0 });
    expect(last?.type === 'progress' && last.progress.etaSeconds).toBe(0);
    // Throttled: far fewer messages than files (each change of state is one).
    expect(updates.length).toBeLessThan(60);
    expect(updates.every((update) => update.type === 'progress')).toBe(true);

    const listed = await value(core.scanJobs.list());
    expect(listed.map((progress) => progress.job.id)).toEqual([started.job.id]);
    expect(await value(core.scanJobs.get(started.job.id))).toMatchObject({ job: { status: 'completed' } });
  });

  it('keeps a job’s clean files out of the main list, and finds them in the job by name or hash, a page at a time', async () => {
    const root = join(dir.path, 'chosen');
    const files = await writeTree(root, 150);
    const threat = await writeEicar(join(root, 'eicar.com'));
    await writeTree(join(dir.path, 'single'), 1);
    const core = await open(FAST);
    const started = await value(core.scanJobs.start({ kind: 'custom', roots: [root] }));
    await finished(core, started.job.id);
    await value(core.scans.submit([join(dir.path, 'single')]));
    await core.idle();
    await core.threatsSettled();

    const main = await value(core.scans.list({ jobRows: 'threats', limit: 100 }));
    expect(main.items.map((record) => record.path).sort()).toEqual([threat, join(dir.path, 'single', 'd0', 's0', 'f-0.txt')].sort());
    expect(main.total).toBe(2);
    expect(main.items.find((record) => record.path === threat)?.jobId).toBe(started.job.id);
    expect(main.items.find((record) => record.path !== threat)?.jobId).toBeUndefined();

    const all = await value(core.scans.list({ limit: 1 }));
    expect(all.total).toBe(152);

    const threats = await value(core.scans.list({ job: started.job.id, verdicts: ['unsafe', 'allowed'] }));
    expect(threats.items.map((record) => record.path)).toEqual([threat]);
    const byName = await value(core.scans.list({ job: started.job.id, verdicts: ['safe', 'basic-only'], search: 'f-14', limit: 5 }));
    // f-14 and f-140 … f-149: 11 matches, the first page holds 5.
    expect(byName.total).toBe(11);
    expect(byName.items).toHaveLength(5);
    expect(byName.items.every((record) => record.fileName.includes('f-14') && record.jobId === started.job.id)).toBe(true);
    const next = await value(core.scans.list({ job: started.job.id, verdicts: ['safe', 'basic-only'], search: 'f-14', limit: 5, offset: 10 }));
    expect(next.items).toHaveLength(1);

    const target = files[42]!;
    const sha256 = createHash('sha256').update(await readFile(target)).digest('hex');
    const byHash = await value(core.scans.list({ job: started.job.id, verdicts: ['safe', 'basic-only'], search: sha256.slice(0, 12) }));
    expect(byHash.items.map((record) => record.path)).toEqual([target]);
    // Another job's id finds none of them.
    expect((await value(core.scans.list({ job: started.job.id + 1 }))).total).toBe(0);
  });

  it('answers with codes: a bad request, an unknown job, a second quick scan while one is unfinished', async () => {
    const home = join(dir.path, 'home');
    await writeTree(join(home, 'Downloads'), 700);
    await mkdir(join(home, 'Desktop'), { recursive: true });
    const core = await open({ ...FAST, jobPlaces: places(home) });

    await expect(core.scanJobs.start({ kind: 'custom', roots: ['relative/folder'] })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    await expect(core.scanJobs.start({ kind: 'quick', roots: ['/etc'] } as never)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    await expect(core.scanJobs.pause(999)).resolves.toMatchObject({ ok: false, error: { code: 'not_found' } });
    await expect(core.scanJobs.get(999)).resolves.toMatchObject({ ok: false, error: { code: 'not_found' } });

    const quick = await value(core.scanJobs.start({ kind: 'quick' }));
    expect(quick.job.roots).toEqual([join(home, 'Downloads'), join(home, 'Desktop')]);
    expect(await value(core.scanJobs.pause(quick.job.id))).toMatchObject({ job: { status: 'paused' }, etaSeconds: null });
    await expect(core.scanJobs.start({ kind: 'quick' })).resolves.toMatchObject({ ok: false, error: { code: 'job_running', params: { id: quick.job.id } } });
    expect(await value(core.scanJobs.resume(quick.job.id))).toMatchObject({ job: { status: 'running' } });
    expect(await value(core.scanJobs.cancel(quick.job.id))).toMatchObject({ job: { id: quick.job.id } });
    expect(await finished(core, quick.job.id)).toMatchObject({ status: 'cancelled' });
    await core.idle();

    // Once it ended, another quick scan may start; the list is newest first.
    const again = await value(core.scanJobs.start({ kind: 'quick' }));
    expect((await value(core.scanJobs.list())).map((progress) => progress.job.id)).toEqual([again.job.id, quick.job.id]);
    await finished(core, again.job.id);
  });
});
