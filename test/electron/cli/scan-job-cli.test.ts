// `npm run -s scan -- --job quick|full`, and a folder given to scan as a custom job, as a
// user runs them (a real `node electron/cli/scan.ts` process, a fake HOME and TMPDIR):
// one line per file on stdout, the job's description and the summary line on stderr,
// and the exit codes as documented (0 all clean, 1 a threat, 2 anything not scanned, 3 basic checks
// only: the built-in engine, which these runs use, never makes a job "all clean").
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeEicar } from '../scans/harness.ts';
import { writeTree } from '../jobs/job-kit.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-job-');
});
afterEach(async () => {
  await dir?.remove();
});

function scan(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([join(ROOT, 'electron/cli/scan.ts'), '--data-dir', dataDir, '--engine', 'builtin', ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, ...env },
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('scan jobs from the command line', () => {
  it('--job quick scans the quick places of HOME and TMPDIR and exits 3 when basic checks alone found nothing', async () => {
    const home = join(dir.path, 'home');
    const tmp = join(dir.path, 'tmp');
    await writeTree(join(home, 'Downloads'), 4);
    await writeTree(join(home, 'Music'), 3);
    await writeTree(tmp, 2);
    const run = await scan(['--job', 'quick'], join(dir.path, 'data'), { HOME: home, TMPDIR: tmp, XDG_DOWNLOAD_DIR: '' });
    expect(run.code, run.stderr).toBe(3);
    expect(lines(run.stdout)).toHaveLength(6);
    expect(lines(run.stdout).every((line) => line.startsWith('BASIC  '))).toBe(true);
    expect(run.stderr).toContain(`Quick scan of ${join(home, 'Downloads')}, ${tmp}`);
    expect(run.stderr).toContain('6 files were checked with basic checks only (EICAR test file only): ClamAV was not available.');
    expect(lines(run.stderr).at(-1)).toMatch(
      /^Quick scan done: 6 scanned \(6 with basic checks only, not a full scan\), 0 threats, 0 could not scan, 0 skipped, in \d+\.\d s \(\d+ files\/s\)\.$/,
    );
  });

  it('--job full scans HOME and shows what it leaves out; those folders alone do not make exit 2 (3: basic checks only)', async () => {
    const home = join(dir.path, 'home');
    await writeTree(join(home, 'Documents'), 3);
    await writeTree(join(home, '.cache', 'thumbs'), 20);
    const dataDir = join(home, '.config', 'Verdict');
    const run = await scan(['--job', 'full'], dataDir, { HOME: home, TMPDIR: join(dir.path, 'none') });
    // The default exclusions are the full scan's design, listed on stderr and kept as skipped rows: not exit 2.
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`Left out by default: ${join(home, '.cache')}, ${join(home, '.local', 'share', 'Trash')}, ${join(home, '.thumbnails')}, ${dataDir}`);
    expect(lines(run.stderr).at(-1)).toMatch(/^Full scan done: 3 scanned \(3 with basic checks only, not a full scan\), 0 threats, 0 could not scan, 2 skipped, /);
    expect(run.stdout).not.toContain('thumbs');
  });

  it('--job full still exits 2 for a skip that is not a default exclusion (a link out of HOME)', async () => {
    const home = join(dir.path, 'home');
    await writeTree(join(home, 'Documents'), 2);
    await writeTree(join(home, '.cache'), 5);
    await writeFile(join(dir.path, 'outside.txt'), 'not in home\n');
    await symlink(join(dir.path, 'outside.txt'), join(home, 'Documents', 'link-out.txt'));
    const run = await scan(['--job', 'full'], join(home, '.config', 'Verdict'), { HOME: home, TMPDIR: join(dir.path, 'none') });
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr).at(-1)).toMatch(/^Full scan done: 2 scanned \(2 with basic checks only, not a full scan\), 0 threats, 0 could not scan, 3 skipped, /);
  });

  it('a folder given to scan is a custom job: a threat exits 1 with the summary line', async () => {
    const folder = join(dir.path, 'chosen');
    await writeTree(folder, 5);
    await writeEicar(join(folder, 'eicar.com'));
    const run = await scan([folder], join(dir.path, 'data'));
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stdout)).toHaveLength(6);
    expect(lines(run.stdout).filter((line) => line.startsWith('THREAT'))).toHaveLength(1);
    expect(lines(run.stderr).at(-1)).toMatch(/^Custom scan done: 6 scanned \(5 with basic checks only, not a full scan\), 1 threat, 0 could not scan, 0 skipped, /);
    // The data folder lies outside the folder scanned: nothing to leave out, nothing said.
    expect(run.stderr).not.toContain('Left out by default');
  });

  it('refuses a bad --job, and --job with paths, with exit code 2', async () => {
    await mkdir(join(dir.path, 'x'));
    await writeFile(join(dir.path, 'x', 'a.txt'), 'a');
    const bad = await scan(['--job', 'weekly'], join(dir.path, 'data'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--job must be quick or full (got weekly).');
    const both = await scan(['--job', 'quick', join(dir.path, 'x')], join(dir.path, 'data'));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--job quick scans its own folders: give no paths with it.');
  });
});
