// What a lock file holds (its owner's pid) and which file it is (device, inode,
// ctime): a takeover replaces a stale lock only while the same file is in place.
import { closeSync, fstatSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { ownLockText, type LockOwner } from './process-alive.ts';

export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
}

export interface LockFileView {
  /** null when the content is not a pid (a file some crash left empty or cut short). */
  pid: number | null;
  /** The owner's start time, when the lock holds one (locks of older versions hold the pid alone). */
  start: string | null;
  id: FileIdentity;
}

/** This process's lock, written in full under a name of its own before it is linked into place. */
export interface OwnLockFile {
  tempPath: string;
  dev: bigint;
  ino: bigint;
}

export function writeOwnLockFile(lockPath: string): OwnLockFile {
  const tempPath = `${lockPath}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tempPath, ownLockText(), { flag: 'wx', mode: 0o600 });
  const stats = statSync(tempPath, { bigint: true });
  return { tempPath, dev: stats.dev, ino: stats.ino };
}

/** Errors of link() on a file system without hard links (FAT, exFAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** link() never replaces: false when `to` exists already. */
export function linkIfAbsent(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  }
  // Without hard links: an exclusive create, written at once. A reader may then
  // see it empty for a moment, as every reader could before link() was used.
  try {
    writeFileSync(to, readFileSync(from), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The lock file's pid and identity, read through one descriptor so both are of the same file; null when absent. */
export function readLockFile(path: string): LockFileView | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    const owner = parseOwner(readFileSync(fd, 'utf8'));
    return { pid: owner?.pid ?? null, start: owner?.start ?? null, id: { dev: stats.dev, ino: stats.ino, ctimeNs: stats.ctimeNs } };
  } finally {
    closeSync(fd);
  }
}

export function identityOf(path: string): FileIdentity | null {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats ? { dev: stats.dev, ino: stats.ino, ctimeNs: stats.ctimeNs } : null;
}

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.ctimeNs === b.ctimeNs;
}

/** The pid a file holds; null when it is absent or holds no pid. */
export function readPid(path: string): number | null {
  try {
    return parsePid(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A lock's `pid start` (or `pid` alone); null when it holds no pid. */
export function parseOwner(text: string): LockOwner | null {
  const [pidText = '', start] = text.trim().split(' ');
  const pid = parsePid(pidText);
  if (pid === null) return null;
  return { pid, start: start !== undefined && /^\d+$/.test(start) ? start : null };
}

export function parsePid(text: string): number | null {
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}
