// Temp folders (one on a second file system when the machine has one), files
// with known content, and the census the crash tests rely on: where the copies
// of a content are.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export async function tempDir(prefix: string, parent = tmpdir()): Promise<TempDir> {
  const path = await mkdtemp(join(parent, prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

const OTHER_DEVICE_PARENT = '/dev/shm';

/** Whether /dev/shm (a tmpfs on most Linux machines) is a file system other than tmpdir()'s. */
export async function hasOtherDevice(): Promise<boolean> {
  if (!existsSync(OTHER_DEVICE_PARENT)) return false;
  try {
    const [a, b] = await Promise.all([stat(OTHER_DEVICE_PARENT), stat(tmpdir())]);
    return a.dev !== b.dev;
  } catch {
    return false;
  }
}

/** A folder on another device than tmpdir(), or null when the machine has none. */
export async function otherDeviceDir(prefix: string): Promise<TempDir | null> {
  return (await hasOtherDevice()) ? tempDir(prefix, OTHER_DEVICE_PARENT) : null;
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

export async function writeThreat(path: string, content: string, mode = 0o644): Promise<string> {
  await writeFile(path, content, { mode });
  return sha256(content);
}

/** Every regular file under `dir` whose content is `content` (the quarantine's files are 0400: readable by us). */
export async function copiesOf(content: string, dirs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const full = join(entry.parentPath, entry.name);
      if (full.endsWith('.sqlite') || full.endsWith('.sqlite-wal') || full.endsWith('.sqlite-shm')) continue;
      if ((await readFile(full, 'utf8')) === content) found.push(full);
    }
  }
  return found;
}

export const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o7777;
