// Whether a pid names a running process (a lock's owner, a leftover clamd), and whether
// it is still the process that wrote a lock: pids are reused, so a lock also holds its
// owner's start time where the system tells it (Linux: /proc/<pid>/stat).
import { readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When a process started (clock ticks since boot, field 22 of /proc/<pid>/stat), or null where that cannot be read. */
export function processStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : null;
}

/** A lock's owner as written: its pid, and its start time when it was known. */
export interface LockOwner {
  pid: number;
  start: string | null;
}

/** The owner still runs: its pid is alive and, where both are known, it is the process that started then (not a later one given the same pid). */
export function ownerAlive(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return false;
  if (owner.start === null) return true;
  const now = processStart(owner.pid);
  return now === null || now === owner.start;
}

/** What this process writes into a lock: `pid start`, or the pid alone where the start time is not known. */
export function ownLockText(): string {
  const start = processStart(process.pid);
  return start === null ? `${process.pid}\n` : `${process.pid} ${start}\n`;
}
