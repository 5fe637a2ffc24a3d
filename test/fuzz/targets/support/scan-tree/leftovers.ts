// What a killed fuzz session leaves behind: its folder under the temp folder and
// perhaps a tmpfs still mounted in it. A session's folder name carries its pid,
// so the next session clears those of processes that are gone.
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { canMount, mountPoints, unmount } from './small-disk.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid a session folder under `prefix` was made by, or null for anything else. */
function ownerOf(path: string, prefix: string): number | null {
  if (!path.startsWith(prefix)) return null;
  const pid = Number(/^(\d+)-/.exec(path.slice(prefix.length))?.[1]);
  return Number.isInteger(pid) ? pid : null;
}

const gone = (pid: number | null): pid is number => pid !== null && pid !== process.pid && !alive(pid);

/** Unmounts and removes the session folders (`<prefix><pid>-…`) of processes that are gone. */
export function sweepLeftovers(prefix: string): void {
  if (canMount()) for (const point of mountPoints()) if (gone(ownerOf(point, prefix))) unmount(point);
  const parent = dirname(prefix);
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    if (name.startsWith(basename(prefix)) && gone(ownerOf(path, prefix))) rmSync(path, { recursive: true, force: true });
  }
}
