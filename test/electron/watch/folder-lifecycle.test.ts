// The folder watcher when folders are paused, vanish, come back, become
// unreadable or hit the inotify limit: real folders, real errors.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, folder, waitFor, type Collector } from './support/collector.ts';
import { useTempFolders } from './support/temp-folders.ts';
import { canUseUserNamespace, startHarness, type HarnessProcess } from './support/harness-process.ts';

const { tempDir, onCleanup } = useTempFolders();

async function watching(options: Parameters<typeof collect>[0]): Promise<Collector> {
  const collector = collect(options);
  onCleanup(() => collector.close());
  await collector.watcher.started();
  return collector;
}

function harness(...args: Parameters<typeof startHarness>): HarnessProcess {
  const child = startHarness(...args);
  onCleanup(() => child.close());
  return child;
}

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

describe('pause and resume', () => {
  it('a paused folder reports nothing; on resume, what arrived meanwhile is reported once', async () => {
    const paused = await tempDir();
    const active = await tempDir();
    const c = await watching({ folders: [folder('p', paused), folder('x', active)] });
    await fs.writeFile(path.join(paused, 'before.txt'), 'before');
    await c.waitForReport(path.join(paused, 'before.txt'));

    expect(c.watcher.pause('p')).toBe(true);
    await c.waitForState('p', 'paused');
    expect(c.status('p')?.folder.paused).toBe(true);
    await fs.writeFile(path.join(paused, 'while-paused.txt'), 'arrived while paused');
    await fs.mkdir(path.join(paused, 'sub'));
    await fs.writeFile(path.join(paused, 'sub', 'nested-while-paused.txt'), 'nested');
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'moved.txt'), 'moved in while paused');
    await fs.rename(path.join(outside, 'moved.txt'), path.join(paused, 'moved.txt'));
    await c.barrier(active);
    expect(c.files.filter((file) => file.folderId === 'p').map((file) => path.basename(file.path))).toEqual(['before.txt']);

    expect(c.watcher.resume('p')).toBe(true);
    await c.waitForState('p', 'watching');
    await c.waitForReport(path.join(paused, 'while-paused.txt'));
    await c.waitForReport(path.join(paused, 'sub', 'nested-while-paused.txt'));
    await c.waitForReport(path.join(paused, 'moved.txt'));
    await c.barrier(paused);
    // The file reported before the pause is not reported again by the catch-up pass.
    expect(c.reportsOf(path.join(paused, 'before.txt'))).toHaveLength(1);
    expect(c.reportsOf(path.join(paused, 'while-paused.txt'))).toHaveLength(1);
  });

  it('pauseAll and resumeAll act on every folder, and leave a folder paused on its own alone', async () => {
    const one = await tempDir();
    const two = await tempDir();
    const c = await watching({ folders: [folder('one', one), folder('two', two, { paused: true })] });
    expect(c.status('two')?.state).toBe('paused');
    c.watcher.pauseAll();
    await c.waitForState('one', 'paused');
    await fs.writeFile(path.join(one, 'during-pause-all.txt'), 'x');
    c.watcher.resumeAll();
    await c.waitForState('one', 'watching');
    expect(c.status('two')?.state).toBe('paused');
    await c.waitForReport(path.join(one, 'during-pause-all.txt'));
    await fs.writeFile(path.join(two, 'still-paused.txt'), 'x');
    await c.barrier(one);
    expect(c.reportsOf(path.join(two, 'still-paused.txt'))).toEqual([]);
  });

  it('a folder added while everything is paused starts paused and catches up on resume', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [], paused: true });
    c.watcher.setFolders([folder('late', dir)]);
    expect(c.status('late')?.state).toBe('paused');
    await fs.writeFile(path.join(dir, 'landed.txt'), 'landed');
    c.watcher.resumeAll();
    await c.waitForReport(path.join(dir, 'landed.txt'));
  });
});

describe('folders that go away', () => {
  it('shows a deleted folder as missing, and watches it again when it is recreated', async () => {
    const parent = await tempDir();
    const dir = path.join(parent, 'Downloads');
    await fs.mkdir(dir);
    const c = await watching({ folders: [folder('a', dir)] });
    await fs.writeFile(path.join(dir, 'first.txt'), 'first');
    await c.waitForReport(path.join(dir, 'first.txt'));

    await fs.rm(dir, { recursive: true });
    const missing = await c.waitForState('a', 'missing');
    expect(missing.error).toMatch(/not there/);

    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'early.txt'), 'written as soon as the folder was back');
    await c.waitForState('a', 'watching');
    await fs.writeFile(path.join(dir, 'later.txt'), 'later');
    await c.waitForReport(path.join(dir, 'later.txt'));
    // Written before the watcher noticed the folder again, and still not lost.
    await c.waitForReport(path.join(dir, 'early.txt'));
  });

  it('shows a renamed folder as missing and resumes when it is renamed back', async () => {
    const parent = await tempDir();
    const dir = path.join(parent, 'Inbox');
    await fs.mkdir(dir);
    const c = await watching({ folders: [folder('a', dir, { recursive: false })] });
    await fs.rename(dir, path.join(parent, 'Inbox-renamed'));
    await c.waitForState('a', 'missing');
    await fs.writeFile(path.join(parent, 'Inbox-renamed', 'while-away.txt'), 'away');
    await fs.rename(path.join(parent, 'Inbox-renamed'), dir);
    await c.waitForState('a', 'watching');
    await c.waitForReport(path.join(dir, 'while-away.txt'));
  });

  it('shows a folder that is not there at the start as missing, then watches it', async () => {
    const parent = await tempDir();
    const dir = path.join(parent, 'not-yet');
    const c = await watching({ folders: [folder('a', dir)] });
    expect(c.status('a')?.state).toBe('missing');
    await fs.writeFile(dir, 'a file where the folder should be');
    await waitFor('the not-a-folder message', () => /not a folder/.test(c.status('a')?.error ?? ''));
    expect(c.status('a')?.state).toBe('missing');
    await fs.rm(dir);
    await fs.mkdir(dir);
    await c.waitForState('a', 'watching');
  });
});

describe('permissions and limits', () => {
  // chmod does not stop root, and the tests run as root: the watcher runs as `nobody` in a child process.
  it.skipIf(!isRoot)('shows a folder it may not read as an error (permission denied) and resumes when it may', async () => {
    const base = await tempDir();
    await fs.chmod(base, 0o755);
    const dir = path.join(base, 'shared');
    await fs.mkdir(dir);
    await fs.chown(dir, NOBODY, NOBODY);
    const child = harness(
      { folders: [folder('a', dir)], settleMs: 200, checkIntervalMs: 100, retryMs: { initial: 100, max: 200 } },
      { uid: NOBODY, gid: NOBODY },
    );
    await child.waitForState('a', 'watching');

    await fs.writeFile(path.join(dir, 'unreadable.bin'), 'nobody may read this', { mode: 0o600 });
    // An unreadable file is still reported: the pipeline opens it and records the permission error.
    expect((await child.waitForReport(path.join(dir, 'unreadable.bin'))).size).toBe(20);
    await expect(fs.access(path.join(dir, 'unreadable.bin'))).resolves.toBeUndefined();

    await fs.chmod(dir, 0o000);
    const denied = await child.waitForState('a', 'error');
    expect(denied.error).toMatch(/Permission denied/);
    await fs.chmod(dir, 0o755);
    await child.waitForState('a', 'watching');
    await fs.writeFile(path.join(dir, 'after.txt'), 'after');
    await child.waitForReport(path.join(dir, 'after.txt'));
  });

  it.skipIf(!isRoot)('keeps watching when only a subfolder cannot be read, and says so', async () => {
    const base = await tempDir();
    await fs.chmod(base, 0o755);
    const dir = path.join(base, 'shared');
    await fs.mkdir(path.join(dir, 'private'), { recursive: true });
    await fs.chown(dir, NOBODY, NOBODY);
    await fs.chmod(path.join(dir, 'private'), 0o700);
    const child = harness(
      { folders: [folder('a', dir)], settleMs: 200, checkIntervalMs: 100, retryMs: { initial: 100, max: 200 } },
      { uid: NOBODY, gid: NOBODY },
    );
    const status = await child.waitForState('a', 'watching');
    expect(status.error ?? '').toMatch(/permission denied/i);
    await fs.writeFile(path.join(dir, 'fine.txt'), 'fine');
    await child.waitForReport(path.join(dir, 'fine.txt'));
  });

  it.skipIf(!canUseUserNamespace())('shows the inotify watch limit (ENOSPC) as an error naming the setting, and recovers when it is raised', async () => {
    const dir = await tempDir();
    for (let index = 0; index < 30; index += 1) await fs.mkdir(path.join(dir, `sub${index}`));
    // In a user namespace of its own, the child may set its inotify limit without touching the machine's.
    const child = harness(
      { folders: [folder('a', dir)], settleMs: 200, checkIntervalMs: 100, retryMs: { initial: 100, max: 200 }, inotifyWatchLimit: 10 },
      { userNamespace: true },
    );
    const failed = await child.waitForState('a', 'error');
    expect(failed.error).toMatch(/ENOSPC/);
    expect(failed.error).toMatch(/fs\.inotify\.max_user_watches/);
    child.send({ cmd: 'inotifyWatchLimit', value: 10_000 });
    await child.waitForState('a', 'watching');
    await fs.writeFile(path.join(dir, 'sub29', 'deep.txt'), 'deep');
    await child.waitForReport(path.join(dir, 'sub29', 'deep.txt'));
  });
});
