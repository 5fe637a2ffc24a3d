// Linux: a mounted drive's label, filesystem UUID and size. udev's /dev/disk/by-uuid and
// by-label links name the device when udev runs (every desktop); else `blkid -o export`
// reads the filesystem itself (as root, or from its cache). The label falls back to the
// mount point's last part, which udisks2 names after the label. Size: statfs of the mount.
import { execFile } from 'node:child_process';
import { readdir, realpath, statfs } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Drive, DriveMount } from './drive.ts';

const run = promisify(execFile);

/** udev escapes a label's unsafe bytes in a link's name as `\xHH` (e.g. a space is `\x20`). */
export const unescapeUdevName = (name: string): string => name.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The link whose target is `device`, from a folder's links (name → resolved target). */
export function linkNaming(device: string, links: ReadonlyMap<string, string>): string | null {
  for (const [name, target] of links) if (target === device) return unescapeUdevName(name);
  return null;
}

/** `blkid -o export` lines (`KEY=value`) as a map. */
export function parseBlkidExport(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return values;
}

async function links(folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      out.set(name, await realpath(path.join(folder, name)));
    } catch {
      // A dangling link (a drive just pulled out) names nothing.
    }
  }
  return out;
}

async function blkid(device: string): Promise<Map<string, string>> {
  try {
    // `-c /dev/null`: probe the device itself. blkid's cache keeps the label and UUID of whatever was
    // at this device node before (another stick in the same port, a reused loop device).
    const { stdout } = await run('blkid', ['-c', '/dev/null', '-o', 'export', device], { timeout: 5000, encoding: 'utf8' });
    return parseBlkidExport(stdout);
  } catch {
    return new Map();
  }
}

async function sizeOf(mountPoint: string): Promise<number | null> {
  try {
    const stats = await statfs(mountPoint);
    return Number(stats.blocks) * Number(stats.bsize);
  } catch {
    return null;
  }
}

export async function identifyLinuxDrive(mount: DriveMount, diskFolder = '/dev/disk'): Promise<Drive> {
  const device = await realpath(mount.device).catch(() => mount.device);
  let uuid = linkNaming(device, await links(path.join(diskFolder, 'by-uuid')));
  let label = linkNaming(device, await links(path.join(diskFolder, 'by-label')));
  if (uuid === null || label === null) {
    const probed = await blkid(device);
    uuid ??= probed.get('UUID') ?? null;
    label ??= probed.get('LABEL') ?? null;
  }
  return { ...mount, label: label || path.basename(mount.mountPoint), uuid: uuid || null, sizeBytes: await sizeOf(mount.mountPoint) };
}
