// `npm run -s scan -- --saved NAME` as a user runs it (a real `node electron/cli/scan.ts`
// process): the scan saved in the app runs with its folders and the folders it leaves out,
// finds the threat, lists what it leaves out, and exits 1; an unknown name lists the saved
// ones and exits 2; --saved with paths or --job is refused.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSavedScans } from '../../../electron/saved-scans/saved-scans.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir, writeEicar } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-saved-');
});
afterEach(async () => {
  await dir?.remove();
});

function scan(args: string[], dataDir: string): Promise<ChildRun> {
  return runNode([join(ROOT, 'electron/cli/scan.ts'), '--data-dir', dataDir, '--engine', 'builtin', ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}` } });
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('scan --saved NAME', () => {
  it('runs the saved scan with its folders and exclusions, and exits 1 for its threat', async () => {
    const root = join(dir.path, 'work files');
    await mkdir(join(root, 'build'), { recursive: true });
    await writeFile(join(root, 'notes.txt'), 'notes\n');
    await writeEicar(join(root, 'eicar.com'));
    await writeEicar(join(root, 'build', 'generated.com'));
    const dataDir = join(dir.path, 'data');
    await mkdir(dataDir);
    const saved = await openSavedScans({ dataDir, startJob: () => Promise.reject(new Error('not here')) });
    expect((await saved.save({ name: 'Work', folders: [root], excluded: [join(root, 'build')] })).ok).toBe(true);

    const run = await scan(['--saved', 'work'], dataDir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`Saved scan “Work” of ${root}`);
    expect(run.stderr).toContain(`Left out by the settings of “Work”: ${join(root, 'build')}`);
    expect(run.stderr).not.toContain(`Left out by default: ${join(root, 'build')}`);
    const out = lines(run.stdout);
    expect(out.some((line) => line.startsWith('THREAT') && line.includes('eicar.com'))).toBe(true);
    expect(run.stdout).not.toContain('generated.com');
    expect(lines(run.stderr).at(-1)).toMatch(/^Saved scan “Work” done: 2 scanned .*1 threats?, 0 could not scan, 1 skipped, /);
  });

  it('an unknown name lists the saved scans and exits 2; --saved takes no paths and no --job', async () => {
    const dataDir = join(dir.path, 'data');
    await mkdir(dataDir);
    const saved = await openSavedScans({ dataDir, startJob: () => Promise.reject(new Error('not here')) });
    await saved.save({ name: 'Photos', folders: ['/home/u/Pictures'] });
    const unknown = await scan(['--saved', 'Music'], dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No saved scan is named “Music”. Saved scans: “Photos”.');
    const withPaths = await scan(['--saved', 'Photos', dir.path], dataDir);
    expect(withPaths.code).toBe(2);
    expect(withPaths.stderr).toContain('--saved scans the folders saved with it: give no paths with it.');
    const withJob = await scan(['--saved', 'Photos', '--job', 'quick'], dataDir);
    expect(withJob.code).toBe(2);
    expect(withJob.stderr).toContain('--saved and --job name two different scans: give one.');
  });
});
