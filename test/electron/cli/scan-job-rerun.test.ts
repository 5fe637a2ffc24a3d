// A scan job killed mid-way (SIGKILL at its 300th finished file, hundreds more queued),
// then `scan` run again on the same data folder, as a user does: every file of the tree is
// listed exactly once, the threat at the end of the walk is found, the counts and exit code
// cover them all, and no job is left "running". Real processes, files, SQLite and the
// embedded service with the built-in engine.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { writeTree } from '../jobs/job-kit.ts';
import { tempDir, writeEicar } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const WORKER = fileURLToPath(new URL('../jobs/fixtures/job-kill-worker.ts', import.meta.url));
const FILES = 1_500;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-rerun-');
});
afterEach(async () => {
  await dir?.remove();
});

function scan(args: string[], dataDir: string): Promise<ChildRun> {
  return runNode([join(ROOT, 'electron/cli/scan.ts'), '--json', '--data-dir', dataDir, '--engine', 'builtin', ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}` },
  });
}

/** A tree of FILES clean files with the EICAR file walked last; its paths and the threat's. */
async function treeWithThreatLast(root: string): Promise<{ files: string[]; threat: string }> {
  const files = await writeTree(root, FILES);
  await mkdir(join(root, 'zz'));
  const threat = await writeEicar(join(root, 'zz', 'zz-eicar.com'));
  return { files: [...files, threat], threat };
}

/** Starts a custom job on `root` in a child that SIGKILLs itself at its `at`th finished file; the job's id. */
async function killedJob(dataDir: string, root: string, at = 300): Promise<number> {
  const run = await runNode([WORKER], { env: { WORKER_DATA_DIR: dataDir, WORKER_ROOT: root, WORKER_KILL_AT: `completed:${at}` } });
  expect(run.signal, run.stdout + run.stderr).toBe('SIGKILL');
  return Number(/^job (\d+)$/m.exec(run.stdout)?.[1]);
}

const printed = (run: ChildRun) => run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { path: string; status: string; safe: boolean | null });

function jobRows(dataDir: string): Array<{ status: string; walk_complete: number }> {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT status, walk_complete FROM jobs ORDER BY id').all() as Array<{ status: string; walk_complete: number }>;
  } finally {
    db.close();
  }
}

const jobStatuses = (dataDir: string): string[] => jobRows(dataDir).map((row) => row.status);

function expectEachOnce(run: ChildRun, files: readonly string[], threat: string): void {
  const lines = printed(run);
  const paths = lines.map((line) => line.path);
  expect(paths.length - new Set(paths).size, 'files printed twice').toBe(0);
  expect(new Set(paths)).toEqual(new Set(files));
  expect(lines.find((line) => line.path === threat)).toMatchObject({ status: 'completed', safe: false });
}

describe('scan run again after its job was killed', () => {
  it('goes on with the same job: every file listed once, the threat found, exit 1, the job completed', async () => {
    const root = join(dir.path, 'tree');
    const dataDir = join(dir.path, 'data');
    const { files, threat } = await treeWithThreatLast(root);
    await killedJob(dataDir, root);

    const run = await scan([root], dataDir);
    expect(run.code, run.stderr).toBe(1);
    expectEachOnce(run, files, threat);
    expect(run.stderr).toContain('Going on with this scan');
    expect(run.stderr).toContain(`Custom scan done: ${FILES + 1} scanned (${FILES} with basic checks only, not a full scan), 1 threat, 0 could not scan, 0 skipped`);
    expect(jobStatuses(dataDir)).toEqual(['completed']);
  });

  it('goes on with a job whose walk had ended: files added since are walked, listed and judged too', async () => {
    const root = join(dir.path, 'tree');
    const dataDir = join(dir.path, 'data');
    const { files, threat } = await treeWithThreatLast(root);
    // Killed near its end: its walk is over and recorded, some 50 files still queued.
    await killedJob(dataDir, root, FILES - 50);
    expect(jobRows(dataDir)).toEqual([{ status: 'interrupted', walk_complete: 1 }]);
    const added = join(root, 'aa-added-later.txt');
    await writeFile(added, 'arrived after the walk');
    const addedThreat = await writeEicar(join(root, 'zz', 'zz-added-eicar.com'));

    const run = await scan([root], dataDir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('Going on with this scan');
    expectEachOnce(run, [...files, added, addedThreat], threat);
    expect(printed(run).find((line) => line.path === addedThreat)).toMatchObject({ status: 'completed', safe: false });
    expect(run.stderr).toContain(`Custom scan done: ${FILES + 3} scanned (${FILES + 1} with basic checks only, not a full scan), 2 threats, 0 could not scan, 0 skipped`);
    expect(jobStatuses(dataDir)).toEqual(['completed']);
  });

  it('with other options, a new job lists every file although the old job holds some queued; the old one is never left running', async () => {
    const root = join(dir.path, 'tree');
    const dataDir = join(dir.path, 'data');
    const { files, threat } = await treeWithThreatLast(root);
    await killedJob(dataDir, root);

    // --mode async: not the killed job's options, so a job of its own walks the tree beside the resumed one.
    const run = await scan(['--mode', 'async', root], dataDir);
    expect(run.code, run.stderr).toBe(1);
    expectEachOnce(run, files, threat);
    expect(run.stderr).not.toContain('Going on with this scan');
    expect(run.stderr).toContain(`Custom scan done: ${FILES + 1} scanned (${FILES} with basic checks only, not a full scan), 1 threat`);
    const [old, mine] = jobStatuses(dataDir);
    expect(mine).toBe('completed');
    expect(['completed', 'interrupted']).toContain(old);
    if (old === 'interrupted') expect(run.stderr).toContain('Not finished: the custom scan of');
  });
});
