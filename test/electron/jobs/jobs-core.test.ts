// Scan jobs through the real core, the real built-in local service, real files and the
// real history file: each kind on a generated tree (quick and full with a fake home),
// default exclusions and links out of the roots, the summary and the job's rows.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { JobProgress } from '../../../electron/jobs/jobs.ts';
import { DRAIN_MARK } from '../../../electron/jobs/run-job.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, writeEicar } from '../scans/harness.ts';
import { jobRows, repeats, writeTree } from './job-kit.ts';

const { dir, open, dataDir } = useCoreFixture('verdict-jobs-');

const places = (home: string, tmp: string) => ({ platform: 'linux' as const, home, env: { TMPDIR: tmp } });

async function finished(core: CoreInternals, id: number) {
  const job = await core.jobs.finished(id);
  if (!job) throw new Error('the job did not finish');
  return job;
}

describe('scan jobs in the core', () => {
  it('a custom job scans a tree once per file, skips a link out of its root, and keeps one summary', async () => {
    const root = join(dir.path, 'chosen');
    const files = await writeTree(root, 620);
    await writeEicar(join(root, 'eicar.com'));
    await writeFile(join(dir.path, 'secret.txt'), 'outside the root\n');
    await symlink(join(dir.path, 'secret.txt'), join(root, 'link-out.txt'));
    const core = await open(FAST);
    const events: JobProgress[] = [];
    let mostQueued = 0;
    core.jobs.onEvent((event) => {
      if (event.type === 'progress') events.push(event.progress);
      else mostQueued = Math.max(mostQueued, core.pipelineState().ready + core.pipelineState().active);
    });

    const started = await core.jobs.start({ kind: 'custom', roots: [root] });
    const job = await finished(core, started.id);

    expect(job).toMatchObject({ kind: 'custom', status: 'completed', roots: [root], walkComplete: true });
    expect(job.counts).toEqual({ found: 622, bytes: expect.any(Number), scanned: 621, threats: 1, couldNotScan: 0, skipped: 1, basicOnly: 620, partial: 0 });
    const rows = jobRows(dataDir(), job.id);
    expect(rows).toHaveLength(622);
    expect(repeats(rows)).toEqual([]);
    expect(new Set(rows.map((row) => row.path))).toEqual(new Set([...files, join(root, 'eicar.com'), join(root, 'link-out.txt')]));
    expect(rows.find((row) => row.path.endsWith('link-out.txt'))).toMatchObject({ status: 'skipped' });
    expect(rows.find((row) => row.path.endsWith('eicar.com'))).toMatchObject({ verdict: 'unsafe' });
    // Backpressure: never more than a drained queue plus one batch ahead of the scanner.
    expect(mostQueued).toBeLessThanOrEqual(DRAIN_MARK + 500);
    // Progress: the last event is the summary; the ETA is known once the walk is complete.
    const last = events.at(-1)!;
    expect(last.job.status).toBe('completed');
    expect(last.etaSeconds).toBe(0);
    expect(events.some((event) => !event.job.walkComplete && event.etaSeconds === null)).toBe(true);
    expect(core.jobs.list()[0]).toMatchObject({ id: job.id, status: 'completed', counts: job.counts });
  });

  it('a quick job scans only the quick places that exist', async () => {
    const home = join(dir.path, 'home');
    const tmp = join(dir.path, 'tmp');
    await writeTree(join(home, 'Downloads'), 3);
    await writeTree(join(home, 'Desktop'), 2);
    await writeTree(join(home, 'Music'), 4); // not a quick place
    await writeTree(tmp, 1);
    const core = await open({ ...FAST, jobPlaces: places(home, tmp) });

    const job = await finished(core, (await core.jobs.start({ kind: 'quick' })).id);

    expect(job.roots).toEqual([join(home, 'Downloads'), join(home, 'Desktop'), tmp]);
    expect(job.counts).toMatchObject({ found: 6, scanned: 6, skipped: 0 });
    expect(jobRows(dataDir(), job.id).some((row) => row.path.includes('Music'))).toBe(false);
  });

  it('a full job scans the home folder, leaving out caches and trash visibly (one skipped row each)', async () => {
    const home = join(dir.path, 'home');
    const tmp = join(dir.path, 'tmp');
    await writeTree(join(home, 'Documents'), 5);
    await writeTree(join(home, '.cache', 'app'), 30);
    await writeTree(join(home, '.local', 'share', 'Trash'), 7);
    await writeFile(join(home, 'notes.txt'), 'notes\n');
    await mkdir(tmp);
    const core = await open({ ...FAST, jobPlaces: places(home, tmp) });

    const job = await finished(core, (await core.jobs.start({ kind: 'full' })).id);

    expect(job.roots).toEqual([home]);
    expect(job.excluded).toEqual(expect.arrayContaining([join(home, '.cache'), join(home, '.local', 'share', 'Trash')]));
    expect(job.counts).toMatchObject({ found: 8, scanned: 6, skipped: 2 });
    const skipped = jobRows(dataDir(), job.id).filter((row) => row.status === 'skipped');
    expect(skipped.map((row) => row.path).sort()).toEqual([join(home, '.cache'), join(home, '.local', 'share', 'Trash')]);
  });

  it('leaves out its own data folder when it lies inside the scanned home', async () => {
    const home = dir.path; // the data dir (<dir>/data) is inside
    await writeTree(join(home, 'Documents'), 2);
    const core = await open({ ...FAST, jobPlaces: places(home, join(home, 'none')) });
    const job = await finished(core, (await core.jobs.start({ kind: 'full' })).id);
    const rows = jobRows(dataDir(), job.id);
    expect(rows.filter((row) => row.path.startsWith(dataDir()))).toEqual([{ path: dataDir(), status: 'skipped', verdict: 'skipped' }]);
    expect(job.counts).toMatchObject({ scanned: 2, skipped: 1 });
  });
});
