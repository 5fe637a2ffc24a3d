// The file-system steps of quarantine and restore: sha256 of a file, a copy
// that is fsynced and verified before it counts, placing a file without ever
// replacing one, and unlinking a read-only file. Each step either completes or
// leaves the source untouched, so the journal (quarantine-store.ts) can always tell
// where a crash stopped. Every path reaches `fs` as its exact bytes (file-names/fs-path.ts).
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, lstat, open, rename, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { fsPath } from '../file-names/fs-path.ts';
import { syncDirectory } from '../settings/atomic-write.ts';

export { syncDirectory };

const CHUNK = 1024 * 1024;
// O_NONBLOCK: a path swapped for a FIFO cannot hang the read; O_NOFOLLOW: never read through a link here.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export class HashMismatchError extends Error {
  readonly code = 'hash_mismatch';
  readonly actual: string;
  constructor(message: string, actual: string) {
    super(message);
    this.name = 'HashMismatchError';
    this.actual = actual;
  }
}

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  mode: number;
}

/** sha256 (lowercase hex) of a regular file, with the identity of the file actually read. */
export async function hashFile(file: string): Promise<{ sha256: string; identity: FileIdentity }> {
  const handle = await open(fsPath(file), READ_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a regular file.`), { code: 'ENOTREG' });
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return { sha256: hash.digest('hex'), identity: identityOf(info) };
  } finally {
    await handle.close();
  }
}

export function identityOf(info: { dev: number; ino: number; size: number; mtimeMs: number; mode: number }): FileIdentity {
  return { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, mode: info.mode };
}

export const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * Copies `source` to a new file `target` (which must not exist), hashing what
 * is written; fsyncs it; keeps the source's modification time. Throws
 * HashMismatchError (and removes the copy) unless the copy's sha256 is `expected`.
 */
export async function copyVerified(source: string, target: string, expected: string, options: { mode?: number } = {}): Promise<void> {
  const input = await open(fsPath(source), READ_FLAGS);
  let output;
  try {
    output = await open(fsPath(target), 'wx', options.mode ?? 0o600);
  } catch (error) {
    await input.close();
    throw error;
  }
  let done = false;
  try {
    const info = await input.stat();
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      await output.writeFile(chunk);
    }
    await output.sync();
    await output.close();
    output = null;
    const actual = hash.digest('hex');
    if (actual !== expected.toLowerCase()) {
      throw new HashMismatchError(`The copy of ${source} does not have the expected content (the file changed while it was copied).`, actual);
    }
    await utimes(fsPath(target), info.atime, info.mtime).catch(() => {});
    done = true;
  } finally {
    await output?.close().catch(() => {});
    await input.close().catch(() => {});
    if (!done) await unlink(fsPath(target)).catch(() => {});
  }
}

/** Errors meaning "this file system cannot make hard links" (FAT, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

export const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/**
 * Gives `source` the name `target` on the same file system without ever
 * replacing an existing `target` (EEXIST instead): link, then unlink the source.
 * Where links are not supported, falls back to "check, then rename" (a small
 * window in which a file created at `target` by someone else would be replaced).
 */
export async function placeWithoutReplacing(source: string, target: string): Promise<void> {
  try {
    await link(fsPath(source), fsPath(target));
  } catch (error) {
    if (!NO_LINKS.has(errorCode(error) ?? '')) throw error;
    if (await exists(target)) throw Object.assign(new Error(`${target} exists already.`), { code: 'EEXIST' });
    await rename(fsPath(source), fsPath(target));
    return;
  }
  await unlinkForce(source);
}

/** Hard-links `source` to `target` (never replacing); false when links are not possible here (other device, no link support). */
export async function tryLink(source: string, target: string): Promise<boolean> {
  try {
    await link(fsPath(source), fsPath(target));
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EXDEV' || NO_LINKS.has(code ?? '')) return false;
    throw error;
  }
}

/** Unlinks a file, making it writable first where a read-only file cannot be removed (Windows). */
export async function unlinkForce(file: string): Promise<void> {
  try {
    await unlink(fsPath(file));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return;
    if (code !== 'EPERM' && code !== 'EACCES') throw error;
    await chmod(fsPath(file), 0o600);
    await unlink(fsPath(file));
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await lstat(fsPath(file));
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** lstat or null when nothing is there. */
export async function lstatOrNull(file: string): Promise<FileIdentity | null> {
  try {
    return identityOf(await lstat(fsPath(file)));
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return null;
    throw error;
  }
}

/** fsyncs the folder holding `file` (the rename or unlink in it becomes durable). */
export const syncParent = (file: string): Promise<void> => syncDirectory(fsPath(path.dirname(file)));
