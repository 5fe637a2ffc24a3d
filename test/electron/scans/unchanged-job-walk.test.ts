// The unchanged-file skip on a job's walk (issue 26 §6, "the whole run counts"), through the real
// core, the real history file and the built-in engine: a job rescanning an unchanged tree writes no
// `scans` row for its unchanged files (they go straight into the job's compact store), still tells
// every file once (a `file` event each, the reused scan named), and counts them all. A touched,
// rewritten (`touch -r`), renamed or newly hard-linked file is read again; Scan again (force) reads all,
// each told with the identity of the file it read.
import { execFileSync } from 'node:child_process';
import { link, mkdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { judgedIdentity } from '../../../electron/scans/pipeline/judged.ts';
import { identityOf, RACY_WINDOW_MS } from '../../../electron/scans/pipeline/unchanged.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { jobRows } from '../jobs/job-kit.ts';
import { countScansInserts, scansInserted } from './scans-inserted.ts';

const fixture = useCoreFixture('verdict-unchanged-job-');
function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const standStill = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 200));

interface JobRun {
  id: number;
  /** Each file the job told, by path (a second telling of a path fails the test). */
  told: Map<string, ScanRecord>;
  /** The `scans` rows the job wrote (the files it read), whether or not they moved to its compact store since. */
  scansRows: number;
  counts: { found: number; scanned: number };
}

async function runJob(core: CoreInternals, dataDir: string, root: string, force = false): Promise<JobRun> {
  const told = new Map<string, ScanRecord>();
  let jobId = -1;
  const early: Array<{ jobId: number; record: ScanRecord }> = [];
  const take = (event: { jobId: number; record: ScanRecord }) => {
    if (event.jobId !== jobId) return;
    expect(told.has(event.record.path), `told twice: ${event.record.path}`).toBe(false);
    told.set(event.record.path, event.record);
  };
  const off = core.jobs.onEvent((event) => {
    if (event.type !== 'file') return;
    if (jobId === -1) early.push(event);
    else take(event);
  });
  try {
    const started = await core.jobs.start({ kind: 'custom', roots: [root], origin: 'cli', force });
    jobId = started.id;
    early.forEach(take);
    const done = await core.jobs.finished(jobId);
    expect(done?.status).toBe('completed');
    await core.jobs.compacted(jobId);
    const scansRows = scansInserted(dataDir, jobId);
    return { id: jobId, told, scansRows, counts: done!.counts };
  } finally {
    off();
  }
}

const readPaths = (run: JobRun) => [...run.told.values()].filter((record) => record.reuseKind !== 'unchanged').map((record) => record.path).sort();

describe('the unchanged-file skip on a job’s walk', () => {
  test('a rescan job writes no scans row for an unchanged file, tells each once; changes are read again; force reads all', async () => {
    const files = join(fixture.dir.path, 'files');
    await mkdir(join(files, 'sub'), { recursive: true });
    const names = ['a.txt', 'b.txt', 'sub/c.txt', 'touched.txt', 'rewritten.txt', 'renamed.txt', 'linked.txt'];
    const paths = names.map((name) => join(files, name));
    await Promise.all(paths.map((path, i) => writeFile(path, `content of file ${i}\n`)));
    await standStill();
    const core = await fixture.open();
    const dataDir = fixture.dataDir();
    countScansInserts(dataDir);

    const first = await runJob(core, dataDir, files);
    expect([...first.told.keys()].sort()).toEqual([...paths].sort());
    expect(readPaths(first)).toEqual([...paths].sort());
    expect(first.scansRows).toBe(paths.length);
    const second = await runJob(core, dataDir, files);
    // Nothing read, nothing written to `scans`; every file told once, naming the scan that read it, and in the job's store.
    expect(readPaths(second)).toEqual([]);
    expect(second.scansRows).toBe(0);
    expect([...second.told.keys()].sort()).toEqual([...paths].sort());
    const firstIds = new Map(jobRows(dataDir, first.id).map((row) => [row.path, row]));
    for (const path of paths) {
      const record = second.told.get(path)!;
      expect(record).toMatchObject({ status: 'completed', safe: true, durationMs: 0, jobId: second.id, sha256: first.told.get(path)?.sha256 });
      // The scan it names is there to show (the detail panel's link), though the first job's rows were compacted since.
      expect(value(await core.scans.get(record.reusedFromId!))).toMatchObject({ path, jobId: first.id, sha256: first.told.get(path)?.sha256, reusedFromId: null });
      // Told with the identity its verdict stands for (the walk's stat): the recheck's memory stats nothing more.
      expect(judgedIdentity(record)).toEqual(identityOf(await stat(path, { bigint: true })));
      expect(value(await core.scans.get(record.id))).toMatchObject({ path, status: 'completed', safe: true, reusedFromId: record.reusedFromId });
      expect(firstIds.has(path)).toBe(true);
    }
    expect(jobRows(dataDir, second.id).map((row) => row.path).sort()).toEqual([...paths].sort());
    expect(second.counts).toMatchObject({ found: paths.length, scanned: paths.length });

    // The changes, each as a user makes it.
    const touched = join(files, 'touched.txt');
    await utimes(touched, new Date(), new Date());
    const rewritten = join(files, 'rewritten.txt');
    const reference = join(fixture.dir.path, 'reference');
    execFileSync('touch', ['-r', rewritten, reference]);
    const before = await stat(rewritten, { bigint: true });
    await writeFile(rewritten, 'CONTENT OF FILE 4\n'); // the same size
    execFileSync('touch', ['-r', reference, rewritten]);
    const after = await stat(rewritten, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const renamed = join(files, 'renamed-now.txt');
    await rename(join(files, 'renamed.txt'), renamed);
    const linked = join(files, 'linked.txt');
    // The second name is outside the tree: the walk lists the tree's name once, its inode's ctime changed.
    await link(linked, join(fixture.dir.path, 'linked-2.txt'));
    const now = paths.map((path) => (path.endsWith('renamed.txt') ? renamed : path)).sort();
    const changed = [touched, rewritten, renamed, linked].sort();

    const third = await runJob(core, dataDir, files);
    expect([...third.told.keys()].sort()).toEqual(now);
    expect(readPaths(third)).toEqual(changed);
    // Only the files read had `scans` rows (moved to the compact store once the job ended).
    expect(third.scansRows).toBe(changed.length);
    expect(jobRows(dataDir, third.id).map((row) => row.path).sort()).toEqual(now);
    expect(third.told.get(rewritten)?.sha256).not.toBe(first.told.get(rewritten)?.sha256);
    await standStill();
    await runJob(core, dataDir, files); // they stood still: entries now
    expect(readPaths(await runJob(core, dataDir, files))).toEqual([]);

    // Scan again (force): every file read.
    const forced = await runJob(core, dataDir, files, true);
    expect(readPaths(forced)).toEqual(now);
    expect(forced.scansRows).toBe(now.length);
    // Told with the identity the intake took, the file read: the recheck's memory stats nothing more here either.
    for (const record of forced.told.values()) expect(judgedIdentity(record), record.path).toEqual(identityOf(await stat(record.path, { bigint: true })));
  }, 60_000);
});
