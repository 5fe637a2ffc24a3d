// A CLI scan whose data folder's disk fills up, as a user meets it: the data
// directory is a small real tmpfs (root only; skipped otherwise). The run stops
// with exit code 2 and one line that names the folder and says what to do, in
// the language of the environment, instead of "Stopped by an unexpected error".
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diskFullTexts } from '../../../electron/core/disk-full-text.ts';
import { openSettings } from '../../../electron/settings/settings-store.ts';
import { tempDir } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CAN_MOUNT = process.getuid?.() === 0;
/** Enough files that their history outgrows the small disk well before the end. */
const FILES = 3000;

let dir: Awaited<ReturnType<typeof tempDir>>;
let dataDir: string;
let mounted = false;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-disk-full-');
  dataDir = join(dir.path, 'data');
  await mkdir(dataDir);
});
afterEach(async () => {
  if (mounted) unmount(dataDir);
  mounted = false;
  await dir?.remove();
});

function mountSmall(size: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dataDir]);
  mounted = true;
}

function unmount(path: string): void {
  try {
    execFileSync('umount', [path], { stdio: 'ignore' });
  } catch {
    // A child's handles close late: detach it now, it goes when they close.
    execFileSync('umount', ['-l', path], { stdio: 'ignore' });
  }
}

async function folderOfFiles(): Promise<string> {
  const folder = join(dir.path, 'files');
  await mkdir(folder);
  const content = Buffer.alloc(2000, 'v');
  for (let i = 0; i < FILES; i++) await writeFile(join(folder, `f${i}.bin`), content);
  return folder;
}

function scan(folder: string, language: 'en' | 'de'): Promise<ChildRun> {
  return runNode([join(ROOT, 'bin/verdict.mjs'), 'scan', '--engine', 'builtin', '--data-dir', dataDir, folder], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, LC_ALL: '', LC_MESSAGES: '', LANG: language === 'de' ? 'de_DE.UTF-8' : 'en_US.UTF-8' },
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe.skipIf(!CAN_MOUNT)('a CLI scan on a full data disk (a real tmpfs)', () => {
  it.each([
    { language: 'en', system: 'en', setting: null },
    { language: 'de', system: 'de', setting: null },
    { language: 'de', system: 'en', setting: 'de' },
  ] as const)('stops with exit 2 and says which folder is full and what to do ($language; system $system, setting $setting)', async ({ language, system, setting }) => {
    const folder = await folderOfFiles();
    mountSmall('3m');
    if (setting) expect((await (await openSettings(dataDir)).update({ language: setting })).ok).toBe(true);
    const run = await scan(folder, system);
    expect(run.code, run.stderr).toBe(2);
    expect(lastLine(run.stderr)).toBe(diskFullTexts(language).cli(dataDir));
    expect(run.stderr).not.toContain('Stopped by an unexpected error');
    // It stopped part of the way (how far depends on when SQLite's log is checkpointed).
    expect(run.stdout.split('\n').filter(Boolean).length).toBeLessThan(FILES);
  });

  it('run again once there is room, the scan goes on and ends with every file scanned once, none failed', async () => {
    const folder = await folderOfFiles();
    mountSmall('3m');
    const stopped = await scan(folder, 'en');
    expect(stopped.code, stopped.stderr).toBe(2);
    execFileSync('mount', ['-o', 'remount,size=256m', dataDir]);
    const run = await scan(folder, 'en');
    // The built-in engine's files: no threat, basic checks only (exit 3, never "all clean").
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('Going on with this scan');
    expect(lastLine(run.stderr)).toMatch(new RegExp(`^Custom scan done: ${FILES} scanned \\(${FILES} with basic checks only, not a full scan\\), 0 threats, 0 could not scan, 0 skipped, `));
    const paths = run.stdout.split('\n').filter(Boolean).map((line) => /^BASIC +(\S+)/.exec(line)?.[1]);
    expect(paths.filter((path) => path === undefined)).toEqual([]);
    expect(new Set(paths).size).toBe(FILES);
    expect(paths).toHaveLength(FILES);
  });

  it('says the same when the disk is full before the scan starts', async () => {
    const folder = join(dir.path, 'one');
    await mkdir(folder);
    await writeFile(join(folder, 'a.txt'), 'a');
    mountSmall('1m');
    await writeFile(join(dataDir, 'filler'), Buffer.alloc(1024 * 1024)).catch(() => undefined);
    const run = await scan(folder, 'en');
    expect(run.code, run.stderr).toBe(2);
    expect(lastLine(run.stderr)).toBe(diskFullTexts('en').cli(dataDir));
    expect(run.stdout).toBe('');
  });
});
