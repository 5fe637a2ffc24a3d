// Linux: the drives in the mount table (/proc/self/mountinfo, proc(5)) under the folders
// desktops mount removable media in: /media/$USER and /run/media/$USER (udisks2), /media
// (usbmount and older setups), plus a configured root for tests. Pure parsing here; the
// reading and polling are in linux-drive-source.ts. udisks2 over D-Bus is not used: it is not
// installed everywhere (not on these build machines), and the mount table is what it writes.
import path from 'node:path';
import { decodeFileName } from '../../shared/file-name-bytes.ts';
import type { DriveMount } from './drive.ts';

export interface MountInfoEntry extends DriveMount {
  /** The folder of the filesystem this mount shows (`/` for a whole filesystem; else a bind mount). */
  root: string;
}

/** mountinfo escapes space, tab, newline and backslash as `\ooo`; a name's other bytes are raw (maybe not UTF-8). */
function unescapeField(field: Buffer): string {
  const bytes: number[] = [];
  for (let i = 0; i < field.length; i++) {
    const octal = field[i] === 0x5c && i + 3 < field.length ? field.subarray(i + 1, i + 4).toString('latin1') : '';
    if (/^[0-3][0-7]{2}$/.test(octal)) {
      bytes.push(parseInt(octal, 8));
      i += 3;
    } else bytes.push(field[i]!);
  }
  return decodeFileName(Uint8Array.from(bytes));
}

/** Splits a line at single spaces (mountinfo's separator; spaces inside fields are escaped). */
function fields(line: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= line.length; i++) {
    if (i === line.length || line[i] === 0x20) {
      out.push(line.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** The entries of a mountinfo text; a line that does not have its shape is left out. */
export function parseMountInfo(text: Buffer): MountInfoEntry[] {
  const entries: MountInfoEntry[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf(0x0a, start);
    if (end < 0) end = text.length;
    const parts = fields(text.subarray(start, end));
    start = end + 1;
    // id parent major:minor root mount-point options [optional…] - fstype source super-options
    const dash = parts.findIndex((part, index) => index >= 6 && part.length === 1 && part[0] === 0x2d);
    if (dash < 0 || parts.length < dash + 3) continue;
    entries.push({ root: unescapeField(parts[3]!), mountPoint: unescapeField(parts[4]!), fsType: unescapeField(parts[dash + 1]!), device: unescapeField(parts[dash + 2]!) });
  }
  return entries;
}

/** The folders removable drives are mounted in for this user (the configured ones first). */
export function linuxMountRoots(user: string | undefined, extra: readonly string[] = []): string[] {
  const roots = [...extra];
  if (user) roots.push(path.join('/media', user), path.join('/run/media', user));
  roots.push('/media');
  return roots;
}

/**
 * The removable drives among the mounts: mounted directly in one of `roots` (`/media/alice/STICK`,
 * not `/media/alice` itself), whole filesystems (no bind mounts), on a device (`anyFilesystem`: tmpfs
 * too, for tests where loop devices are missing); the last mount on a mount point wins (it is the
 * one that shows), and a point mounted twice is listed once.
 */
export function removableMounts(entries: readonly MountInfoEntry[], roots: readonly string[], options: { anyFilesystem?: boolean } = {}): DriveMount[] {
  const resolved = roots.map((root) => path.resolve(root));
  const byPoint = new Map<string, DriveMount>();
  for (const entry of entries) {
    const parent = path.dirname(entry.mountPoint);
    if (!resolved.includes(parent) || resolved.includes(entry.mountPoint)) {
      byPoint.delete(entry.mountPoint);
      continue;
    }
    if (entry.root !== '/' || !(options.anyFilesystem || entry.device.startsWith('/dev/'))) {
      byPoint.delete(entry.mountPoint);
      continue;
    }
    byPoint.set(entry.mountPoint, { mountPoint: entry.mountPoint, device: entry.device, fsType: entry.fsType });
  }
  return [...byPoint.values()];
}
