// One core per data directory: crash recovery resumes every unfinished row it
// finds, which is only right when no other live process is working on them
// (the app and a CLI run on the same folder). A lock file holds the owner's
// pid; a lock left by a dead process (a crash) is taken over. `npm run service`
// takes the same lock on its own data directory, for the same reason.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'core.lock';

export class DataDirInUseError extends Error {
  readonly code = 'data_dir_in_use';
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(`Another Verdict process (pid ${pid}) is using the data directory ${dataDir}. Close it, or use another data directory (--data-dir).`);
    this.name = 'DataDirInUseError';
    this.pid = pid;
  }
}

/** Locks this process holds (a second core on the same folder in one process is refused too). */
const held = new Set<string>();

export interface DataDirLock {
  release(): void;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  if (held.has(file)) throw new DataDirInUseError(dataDir, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      held.add(file);
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(file);
          try {
            if (readOwner(file) === process.pid) unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      // Our own pid without a held lock: left by an earlier process that had the same pid.
      if (owner !== null && owner !== process.pid && isAlive(owner)) throw new DataDirInUseError(dataDir, owner);
      // Stale (its process is gone) or unreadable: remove it and try again.
      try {
        unlinkSync(file);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}

function readOwner(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
