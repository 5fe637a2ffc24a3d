// Linux's source: the mount table read whole at each check (about 4 KB here; fs.watch on
// /proc/self/mountinfo never fires, and Node cannot poll(2) it for POLLPRI), filtered to the
// removable-media folders, and each new drive identified (linux-identity.ts).
import { readFile } from 'node:fs/promises';
import type { DriveSource } from './drive.ts';
import { identifyLinuxDrive } from './linux-identity.ts';
import { parseMountInfo, removableMounts } from './linux-mounts.ts';

export function linuxDriveSource(roots: readonly string[], options: { mountInfo?: string; diskFolder?: string; anyFilesystem?: boolean } = {}): DriveSource {
  const file = options.mountInfo ?? '/proc/self/mountinfo';
  return {
    list: async () => removableMounts(parseMountInfo(await readFile(file)), roots, { anyFilesystem: options.anyFilesystem === true }),
    identify: (mount) => identifyLinuxDrive(mount, options.diskFolder),
  };
}
