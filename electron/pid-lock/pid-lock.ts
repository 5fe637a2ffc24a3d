// A lock file holding its owner's pid: one core per data directory (core.lock),
// one Verdict-run clamd per data directory (clamd.lock). A lock whose process is
// gone (a crash, a SIGKILL) is taken over, by one process only.
//
// The lock appears whole or not at all: the pid is written to a file of our own,
// which link() puts in place (it never replaces), so no reader ever sees an
// empty lock of a live writer.
import { identityOf, linkIfAbsent, readLockFile, removeFile, sameFile, writeOwnLockFile, type OwnLockFile } from './lock-file.ts';
import { ownerAlive } from './process-alive.ts';
import { takeOverStale } from './stale-takeover.ts';

export { isAlive } from './process-alive.ts';
export { readPid, removeFile } from './lock-file.ts';

/** Locks this process holds: a second taker in the same process is refused too. */
const held = new Set<string>();

/** Looks at the lock this often before giving up; a wait only follows a takeover in progress elsewhere. */
const MAX_ATTEMPTS = 50;
const BUSY_WAIT_MS = 2;

export type PidLock = { ok: true; release(): void } | { ok: false; ownerPid: number };

export function acquirePidLock(lockPath: string): PidLock {
  if (held.has(lockPath)) return { ok: false, ownerPid: process.pid };
  const mine = writeOwnLockFile(lockPath);
  let outcome: PidLock | 'taken' | null;
  try {
    outcome = take(lockPath, mine);
  } finally {
    // Linked or renamed into place, or not needed: the name of our own goes.
    removeFile(mine.tempPath);
  }
  if (outcome === null) throw new Error(`Could not lock ${lockPath}.`);
  return outcome === 'taken' ? holding(lockPath) : outcome;
}

function take(lockPath: string, mine: OwnLockFile): PidLock | 'taken' | null {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (linkIfAbsent(mine.tempPath, lockPath)) return 'taken';
    const current = readLockFile(lockPath);
    // Released since the link: try again.
    if (current === null) continue;
    // Our own pid without a held lock: left by an earlier process that had the same pid.
    if (current.pid !== null && current.pid !== process.pid && ownerAlive({ pid: current.pid, start: current.start })) return { ok: false, ownerPid: current.pid };
    // Stale (its process is gone, or its pid now names a later process), or no pid in it (left by a crash before this way of writing it).
    const takeover = takeOverStale(lockPath, current.id, mine);
    if (takeover === 'taken') return 'taken';
    if (takeover === 'busy') sleepSync(BUSY_WAIT_MS);
  }
  return null;
}

function holding(lockPath: string): PidLock {
  // Read once our other names are gone (each changed its ctime); ours is never removed while we live.
  const ours = identityOf(lockPath);
  let released = false;
  held.add(lockPath);
  return {
    ok: true,
    release() {
      if (released) return;
      released = true;
      held.delete(lockPath);
      // Only the file we put there: an inode number may have been reused, and a pid too.
      const now = readLockFile(lockPath);
      if (now !== null && now.pid === process.pid && ours !== null && sameFile(now.id, ours)) removeFile(lockPath);
    },
  };
}

/** The lock is taken synchronously (callers need it before anything else starts); waits are a few ms. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
