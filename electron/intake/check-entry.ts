// Checks one path: what it is (without opening anything but a regular file),
// where a symbolic link leads, whether it is within the size limit, and
// whether it can really be opened for reading.
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { MB } from '../../shared/service-contract/limits.ts';
import type { FileKind, IntakeErrorCode, IntakeItem } from './intake-item.ts';

/** A file (accepted or rejected) to report, or a folder to expand. */
export type EntryCheck = { kind: 'item'; item: IntakeItem } | { kind: 'directory'; path: string; stats: Stats };

// O_NONBLOCK: if the path was swapped for a FIFO after stat, open still returns at once.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Identity of a file or folder on this machine. */
export function fileKey(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Checks one path. Never rejects: every failure is an item with a code. */
export async function checkEntry(input: string, maxFileSize: number): Promise<EntryCheck> {
  try {
    return await inspect(input, maxFileSize);
  } catch (error) {
    return reject(String(input), 'unreadable', `${String(input)} could not be checked: ${(error as Error).message}`);
  }
}

async function inspect(input: string, maxFileSize: number): Promise<EntryCheck> {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) {
    return reject(String(input), 'invalid_path', 'An empty path or one with a NUL character cannot be scanned.');
  }
  const entryPath = path.resolve(input);

  let stats: Stats;
  try {
    stats = await lstat(entryPath);
  } catch (error) {
    return reject(entryPath, ...lookupError(entryPath, error));
  }
  let realPath = entryPath;
  if (stats.isSymbolicLink()) {
    try {
      stats = await stat(entryPath);
      realPath = await realpath(entryPath);
    } catch (error) {
      return reject(entryPath, ...(await linkError(entryPath, error)));
    }
  }

  if (stats.isDirectory()) return { kind: 'directory', path: entryPath, stats };
  if (!stats.isFile()) return notRegular(entryPath, stats);
  if (stats.size > maxFileSize) return tooLarge(entryPath, stats.size, maxFileSize);

  // Open and fstat: proves it is readable, and the numbers are those of the file
  // actually opened, even if the path changed since lstat.
  let handle;
  try {
    handle = await open(entryPath, OPEN_FLAGS);
  } catch (error) {
    return reject(entryPath, ...openError(entryPath, error));
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return notRegular(entryPath, opened);
    if (opened.size > maxFileSize) return tooLarge(entryPath, opened.size, maxFileSize);
    return { kind: 'item', item: { ok: true, path: entryPath, realPath, size: opened.size, mtimeMs: opened.mtimeMs, dev: opened.dev, ino: opened.ino } };
  } catch (error) {
    return reject(entryPath, 'unreadable', `${entryPath} could not be checked: ${(error as Error).message}`);
  } finally {
    await handle.close().catch(() => {});
  }
}

function reject(entryPath: string, code: IntakeErrorCode, message: string, extra: { kind?: FileKind; size?: number } = {}): EntryCheck {
  return { kind: 'item', item: { ok: false, path: entryPath, code, message, ...extra } };
}

const KIND_NAMES: Record<FileKind, string> = {
  directory: 'a folder',
  fifo: 'a named pipe (FIFO)',
  socket: 'a socket',
  character_device: 'a character device',
  block_device: 'a block device',
  other: 'not a regular file',
};

function kindOf(stats: Stats): FileKind {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character_device';
  if (stats.isBlockDevice()) return 'block_device';
  return 'other';
}

function notRegular(entryPath: string, stats: Stats): EntryCheck {
  const kind = kindOf(stats);
  return reject(entryPath, 'not_regular_file', `${entryPath} is ${KIND_NAMES[kind]}, not a regular file; it was not opened.`, { kind });
}

function tooLarge(entryPath: string, size: number, limit: number): EntryCheck {
  return reject(
    entryPath,
    'too_large',
    `${entryPath} is ${megabytes(size)} (${size.toLocaleString('en-US')} bytes), over the ${megabytes(limit)} limit ` +
      `(${limit.toLocaleString('en-US')} bytes); it was not sent.`,
    { size },
  );
}

/** 1 MB = 1,048,576 bytes, as in the service's limits. */
function megabytes(bytes: number): string {
  const value = bytes / MB;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

type Rejection = [IntakeErrorCode, string];

function lookupError(entryPath: string, error: unknown): Rejection {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return ['not_found', `There is no file or folder at ${entryPath}.`];
    case 'EACCES':
    case 'EPERM':
      return ['unreadable', `${entryPath} cannot be reached: permission denied on a folder in its path.`];
    case 'ELOOP':
      return ['symlink_loop', `${entryPath} cannot be reached: a symbolic link in its path leads back to itself.`];
    case 'ENAMETOOLONG':
      return ['invalid_path', `The path is too long to open: ${entryPath}`];
    default:
      return ['unreadable', `${entryPath} could not be checked: ${(error as Error).message}`];
  }
}

async function linkError(entryPath: string, error: unknown): Promise<Rejection> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return ['symlink_loop', `${entryPath} is a symbolic link loop: following it leads back to itself.`];
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    const target = await readlink(entryPath).catch(() => null);
    return ['broken_link', `${entryPath} is a symbolic link to ${target ?? 'a path'} that does not exist.`];
  }
  return lookupError(entryPath, error);
}

function openError(entryPath: string, error: unknown): Rejection {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EACCES':
    case 'EPERM':
      return ['unreadable', `${entryPath} cannot be read: permission denied.`];
    case 'ENOENT':
      return ['not_found', `${entryPath} disappeared before it could be opened.`];
    case 'ELOOP':
      return ['symlink_loop', `${entryPath} is a symbolic link loop.`];
    default:
      return ['unreadable', `${entryPath} cannot be opened: ${(error as Error).message}`];
  }
}
