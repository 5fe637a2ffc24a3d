// Taking over a stale lock, by one process only. Unlinking by name cannot say
// "only if it is still that file", so the processes that found the same stale
// file first take a claim named after it (link() lets one of them have it);
// the claim's holder checks the file is still in place and renames its own
// lock over it. A claim whose holder died is passed over to the next name
// (`.1`, `.2`, ...); while the stale file is in place, a claim is removed only
// by its live holder, and then its name is tried again, never passed over.
import { readFileSync, renameSync } from 'node:fs';
import { linkIfAbsent, parseOwner, readLockFile, removeFile, sameFile, type FileIdentity, type OwnLockFile } from './lock-file.ts';
import { ownerAlive, type LockOwner } from './process-alive.ts';

/** taken: ours now; busy: a live process is taking it over; changed: it is no longer the file that was judged. */
export type Takeover = 'taken' | 'busy' | 'changed';

/** Claims of dead holders passed over, and claims seen to vanish, before giving up (each is a crash or a race of microseconds). */
const MAX_TRIES = 16;

export function takeOverStale(lockPath: string, stale: FileIdentity, mine: OwnLockFile): Takeover {
  const claimBase = `${lockPath}.takeover-${stale.ino}-${stale.ctimeNs}`;
  let n = 0;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const claim = `${claimBase}.${n}`;
    if (!linkIfAbsent(mine.tempPath, claim)) {
      const holder = claimHolder(claim);
      if (holder === 'alive') return 'busy';
      if (holder === 'dead') n++;
      continue;
    }
    try {
      const outcome = replaceIfStill(lockPath, stale, mine);
      // The stale file is gone now, so the dead holders' claims can go too.
      if (outcome === 'taken') for (let earlier = 0; earlier < n; earlier++) removeFile(`${claimBase}.${earlier}`);
      return outcome;
    } finally {
      removeFile(claim);
    }
  }
  return 'busy';
}

function replaceIfStill(lockPath: string, stale: FileIdentity, mine: OwnLockFile): Takeover {
  const now = readLockFile(lockPath);
  if (now === null || !sameFile(now.id, stale)) return 'changed';
  try {
    renameSync(mine.tempPath, lockPath);
  } catch (error) {
    // Windows refuses to replace a file another process has open (a reader): look again.
    if (['EPERM', 'EACCES', 'EBUSY'].includes((error as NodeJS.ErrnoException).code ?? '')) return 'busy';
    throw error;
  }
  return 'taken';
}

function claimHolder(claim: string): 'alive' | 'dead' | 'gone' {
  let owner: LockOwner | null;
  try {
    owner = parseOwner(readFileSync(claim, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  // No pid yet: being written (only where there are no hard links), so its holder lives.
  if (owner === null) return 'alive';
  // Our own pid on a claim we do not hold: an earlier process that had our pid.
  return owner.pid !== process.pid && ownerAlive(owner) ? 'alive' : 'dead';
}
