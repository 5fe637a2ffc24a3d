// A lock file holding its owner's pid: one core per data directory (core.lock),
// one Verdict-run clamd per data directory (clamd.lock). A lock whose process is
// gone (a crash, a SIGKILL) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Locks this process holds: a second taker in the same process is refused too. */
const held = new Set<string>();

export type PidLock = { ok: true; release(): void } | { ok: false; ownerPid: number };

export function acquirePidLock(lockPath: string): PidLock {
  if (held.has(lockPath)) return { ok: false, ownerPid: process.pid };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      held.add(lockPath);
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          held.delete(lockPath);
          if (readPid(lockPath) === process.pid) removeFile(lockPath);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readPid(lockPath);
      // Our own pid without a held lock: left by an earlier process that had the same pid.
      if (owner !== null && owner !== process.pid && isAlive(owner)) return { ok: false, ownerPid: owner };
      // Stale (its process is gone) or unreadable: remove it and try again.
      removeFile(lockPath);
    }
  }
  throw new Error(`Could not lock ${lockPath}.`);
}

export function readPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
