// macOS: drives are the folders of /Volumes (the start-up disk is there too, as a link to `/`,
// and is left out); `diskutil info` tells a volume's name, UUID, size and whether it is
// external or removable. Pure functions over recorded outputs; the source wires them.
import { execFile } from 'node:child_process';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DriveMount, DriveSource } from './drive.ts';

export interface VolumeEntry {
  name: string;
  isSymlink: boolean;
}

/** The volumes of a /Volumes listing that can be drives: not the start-up disk's link, not hidden. */
export function macVolumeMounts(entries: readonly VolumeEntry[], volumes = '/Volumes'): DriveMount[] {
  return entries.filter((entry) => !entry.isSymlink && !entry.name.startsWith('.')).map((entry) => ({ mountPoint: path.posix.join(volumes, entry.name), device: '', fsType: '' }));
}

export interface DiskutilInfo {
  label: string | null;
  uuid: string | null;
  sizeBytes: number | null;
  device: string | null;
  fsType: string | null;
  /** External or removable media (a USB stick, an SD card, an external disk); false for internal disks and disk images (.dmg). */
  removable: boolean;
}

/** `diskutil info <volume>`'s `Key: value` lines. */
export function parseDiskutilInfo(text: string): DiskutilInfo {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*([^:]+?):\s+(.*?)\s*$/.exec(line);
    if (match) values.set(match[1]!, match[2]!);
  }
  const size = /\((\d+) Bytes\)/.exec(values.get('Volume Total Space') ?? values.get('Container Total Space') ?? values.get('Disk Size') ?? '');
  const location = values.get('Device Location') ?? '';
  const removableMedia = values.get('Removable Media') ?? '';
  return {
    label: values.get('Volume Name') || null,
    uuid: values.get('Volume UUID') || values.get('Disk / Partition UUID') || null,
    sizeBytes: size ? Number(size[1]) : null,
    device: values.get('Device Node') ?? null,
    fsType: values.get('Type (Bundle)') ?? null,
    // A mounted disk image (an app's .dmg) is ejectable too, but no drive.
    removable: values.get('Protocol') !== 'Disk Image' && (location === 'External' || removableMedia === 'Removable' || values.get('Ejectable') === 'Yes'),
  };
}

const run = promisify(execFile);

/** The macOS source (not run on the Linux build machines): volumes `diskutil` calls internal are not drives. */
export function macDriveSource(volumes = '/Volumes'): DriveSource {
  return {
    async list() {
      const names = await readdir(volumes).catch(() => [] as string[]);
      const entries = await Promise.all(names.map(async (name) => ({ name, isSymlink: (await lstat(path.join(volumes, name)).catch(() => null))?.isSymbolicLink() ?? true })));
      return macVolumeMounts(entries, volumes);
    },
    async identify(mount) {
      const { stdout } = await run('diskutil', ['info', mount.mountPoint], { timeout: 5000, encoding: 'utf8' }).catch(() => ({ stdout: '' }));
      const info = parseDiskutilInfo(stdout);
      if (!info.removable) return null;
      return { mountPoint: mount.mountPoint, device: info.device ?? mount.device, fsType: info.fsType ?? '', label: info.label ?? path.basename(mount.mountPoint), uuid: info.uuid, sizeBytes: info.sizeBytes };
    },
  };
}
