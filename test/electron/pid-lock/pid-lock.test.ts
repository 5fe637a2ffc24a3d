// The pid lock in one process: what the file holds, who is refused, what a
// release removes. The race between processes is in pid-lock-race.test.ts.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquirePidLock, isAlive } from '../../../electron/pid-lock/pid-lock.ts';
import { processStart } from '../../../electron/pid-lock/process-alive.ts';
import { runNode } from '../../support/node-child.ts';

let dir: string;
let lockPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-pid-lock-'));
  lockPath = join(dir, 'core.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('acquirePidLock', () => {
  it('writes its pid and start time into a 0600 file and leaves no other file behind', async () => {
    const lock = acquirePidLock(lockPath);
    expect(lock.ok).toBe(true);
    const start = processStart(process.pid);
    if (process.platform === 'linux') expect(start).toMatch(/^\d+$/);
    expect(await readFile(lockPath, 'utf8')).toBe(start === null ? `${process.pid}\n` : `${process.pid} ${start}\n`);
    if (process.platform !== 'win32') expect((await stat(lockPath)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['core.lock']);
    if (lock.ok) lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a second taker in the same process, and a release twice is harmless', () => {
    const first = acquirePidLock(lockPath);
    expect(acquirePidLock(lockPath)).toEqual({ ok: false, ownerPid: process.pid });
    if (first.ok) {
      first.release();
      first.release();
    }
    const again = acquirePidLock(lockPath);
    expect(again.ok).toBe(true);
    if (again.ok) again.release();
  });

  it("refuses a live process's lock and leaves it as it was", async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await writeFile(lockPath, `${owner.pid}\n`);
      expect(acquirePidLock(lockPath)).toEqual({ ok: false, ownerPid: owner.pid });
      expect(await readFile(lockPath, 'utf8')).toBe(`${owner.pid}\n`);
      expect(await readdir(dir)).toEqual(['core.lock']);
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now names a later process (the start time differs), and refuses one whose start time matches', async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const start = processStart(owner.pid!);
      expect(start).not.toBeNull();
      await writeFile(lockPath, `${owner.pid} ${start}\n`);
      expect(acquirePidLock(lockPath)).toEqual({ ok: false, ownerPid: owner.pid });
      // The lock's writer started at another time: the live process with its pid is someone else.
      await writeFile(lockPath, `${owner.pid} ${BigInt(start!) - 1n}\n`);
      const lock = acquirePidLock(lockPath);
      expect(lock.ok).toBe(true);
      expect(await readFile(lockPath, 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}\n`);
      if (lock.ok) lock.release();
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that has ended', async () => {
    const ended = await runNode(['-e', 'process.stdout.write(String(process.pid))'], { timeoutMs: 30_000 });
    const deadPid = Number(ended.stdout);
    expect(isAlive(deadPid)).toBe(false);
    await writeFile(lockPath, `${deadPid}\n`);
    const lock = acquirePidLock(lockPath);
    expect(lock.ok).toBe(true);
    expect(Number.parseInt(await readFile(lockPath, 'utf8'), 10)).toBe(process.pid);
    expect(await readdir(dir)).toEqual(['core.lock']);
    if (lock.ok) lock.release();
  });

  it('a release removes only the file it put there', async () => {
    const lock = acquirePidLock(lockPath);
    // Someone removed ours and another lock took its place (by hand, or a bug elsewhere).
    await unlink(lockPath);
    await writeFile(lockPath, '12345\n');
    if (lock.ok) lock.release();
    expect(await readFile(lockPath, 'utf8')).toBe('12345\n');
  });
});
