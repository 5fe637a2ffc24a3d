// The descriptor a FILDES session passes first, to learn whether clamd receives what it
// is passed: an empty regular file that has no name anywhere (created, opened, unlinked).
// clamd answers `fd[N]: OK` for it and logs nothing; a clamd whose descriptors are dropped
// (AppArmor or SELinux: clamd's recvmsg sees MSG_CTRUNC and ends the connection) never does.
import { closeSync, mkdtempSync, openSync, rmdirSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** An open, empty, nameless file; null where none can be made (the probe is then skipped). */
export function openProbeFile(): number | null {
  let dir: string | null = null;
  try {
    dir = mkdtempSync(join(tmpdir(), 'verdict-fildes-probe-'));
    const path = join(dir, 'empty');
    const fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    return null;
  } finally {
    if (dir !== null) {
      try {
        rmdirSync(dir);
      } catch {
        // left behind empty; nothing in it
      }
    }
  }
}

export function closeProbeFile(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
