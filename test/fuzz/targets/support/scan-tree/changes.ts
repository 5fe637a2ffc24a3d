// Changes to the tree while a run goes on: a new file, an entry removed, a file
// rewritten in place. Each is applied at most once; one that no longer fits
// (its file already removed, its name already made) is passed over.
import { closeSync, ftruncateSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { bodyBytes, pathBytes, type Change } from './tree-spec.ts';

/** Whether the change was made. */
function applyChange(root: Buffer, change: Change): boolean {
  const at = pathBytes(root, change.path);
  try {
    switch (change.op) {
      case 'add':
        writeFileSync(at, bodyBytes(change.body), { flag: 'wx' });
        return true;
      case 'remove':
        rmSync(at);
        return true;
      case 'rewrite': {
        // r+: the same inode (its hard links change too), and no file made where there is none.
        const fd = openSync(at, 'r+');
        try {
          ftruncateSync(fd, 0);
          writeSync(fd, bodyBytes(change.body), 0, undefined, 0);
        } finally {
          closeSync(fd);
        }
        return true;
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EEXIST') return false;
    throw error;
  }
}

/** Waits `ms`, or less when `ended` settles first. */
async function sleepUnless(ms: number, ended: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Applies `changes` at their times after `startedAt` (performance.now() ms) while the
 * run goes on; once `ended` settles, the rest at once. Resolves with the changes made.
 */
export async function applyOnSchedule(root: Buffer, changes: readonly Change[], startedAt: number, ended: Promise<unknown>): Promise<Change[]> {
  const made: Change[] = [];
  for (const change of [...changes].sort((a, b) => a.atMs - b.atMs)) {
    const wait = startedAt + change.atMs - performance.now();
    if (wait > 0) await sleepUnless(wait, ended);
    if (applyChange(root, change)) made.push(change);
  }
  return made;
}
