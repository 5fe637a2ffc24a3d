// One core per data directory: crash recovery resumes every unfinished row it
// finds, which is only right when no other live process is working on them
// (the app and a CLI run on the same folder). A lock file holds the owner's
// pid; a lock left by a dead process (a crash) is taken over. `npm run service`
// takes the same lock on its own data directory, for the same reason.
import { join } from 'node:path';
import { acquirePidLock } from '../pid-lock/pid-lock.ts';

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

export interface DataDirLock {
  release(): void;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const lock = acquirePidLock(join(dataDir, LOCK_FILE));
  if (!lock.ok) throw new DataDirInUseError(dataDir, lock.ownerPid);
  return lock;
}
