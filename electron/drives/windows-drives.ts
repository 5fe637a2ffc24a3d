// Windows: a drive is a new drive letter. PowerShell's Win32_LogicalDisk listing (as JSON)
// tells each letter's type, label, volume serial number (shown as `ABCD-1234`, as Linux
// shows a FAT drive's UUID) and size. Pure functions over recorded outputs; the source wires them.
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Drive, DriveSource } from './drive.ts';

/** Win32_LogicalDisk.DriveType: 2 removable (sticks, cards), 3 local disk (external USB disks show as this). */
const REMOVABLE = 2;
const LOCAL_DISK = 3;

const logicalDiskSchema = z.object({
  DeviceID: z.string().regex(/^[A-Za-z]:$/),
  DriveType: z.number().int(),
  VolumeName: z.string().nullable().optional(),
  VolumeSerialNumber: z.string().nullable().optional(),
  Size: z.union([z.number(), z.string()]).nullable().optional(),
  FileSystem: z.string().nullable().optional(),
});

/** ConvertTo-Json gives one object for one disk, an array for more; an entry of another shape is left out. */
export function parseLogicalDisks(json: string, systemDrive = 'C:'): Drive[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const drives: Drive[] = [];
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const disk = logicalDiskSchema.safeParse(item);
    if (!disk.success) continue;
    const { DeviceID: letter, DriveType: type } = disk.data;
    if ((type !== REMOVABLE && type !== LOCAL_DISK) || letter.toUpperCase() === systemDrive.toUpperCase()) continue;
    const serial = disk.data.VolumeSerialNumber ?? '';
    const size = Number(disk.data.Size ?? NaN);
    drives.push({
      mountPoint: `${letter.toUpperCase()}\\`,
      device: letter.toUpperCase(),
      fsType: disk.data.FileSystem ?? '',
      label: disk.data.VolumeName || letter.toUpperCase(),
      uuid: /^[0-9A-Fa-f]{8}$/.test(serial) ? `${serial.slice(0, 4)}-${serial.slice(4)}`.toUpperCase() : null,
      sizeBytes: Number.isFinite(size) && size > 0 ? size : null,
    });
  }
  return drives;
}

const run = promisify(execFile);
const LIST = 'Get-CimInstance Win32_LogicalDisk | Select-Object DeviceID,DriveType,VolumeName,VolumeSerialNumber,Size,FileSystem | ConvertTo-Json -Compress';
/** A: and B: are left out: looking at a floppy letter can stall or prompt. */
const LETTERS = 'CDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

/**
 * The Windows source (not run on the Linux build machines). Each look only asks which drive letters
 * exist (cheap); PowerShell's listing is run once for a new letter, to tell its type, label and serial.
 */
export function windowsDriveSource(systemDrive = process.env.SystemDrive ?? 'C:'): DriveSource {
  return {
    async list() {
      const present = await Promise.all(LETTERS.map(async (letter) => ((await access(`${letter}:\\`).then(() => true, () => false)) ? letter : null)));
      return present.flatMap((letter) => (letter && `${letter}:` !== systemDrive.toUpperCase() ? [{ mountPoint: `${letter}:\\`, device: `${letter}:`, fsType: '' }] : []));
    },
    async identify(mount) {
      const { stdout } = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', LIST], { timeout: 15_000, encoding: 'utf8', windowsHide: true }).catch(() => ({ stdout: '[]' }));
      // A network share or an optical drive is no removable drive: not in the parsed list.
      return parseLogicalDisks(stdout, systemDrive).find((drive) => drive.mountPoint === mount.mountPoint) ?? null;
    },
  };
}
