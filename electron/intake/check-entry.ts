// Checks one path: what it is (without opening anything),
// where a symbolic link leads (and, for a link met while walking a folder, whether
// it stays inside that folder), whether it is within the size limit, and whether
// it may be read (access). By the name's exact bytes (file-names/fs-path.ts).
import { access, constants, lstat, type BigIntStats, type PathLike } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FileKind, IntakeErrorCode, ScanFailureParams } from '../../shared/scans/failure.ts';
import { exactReadlink, exactRealpath, fsPath } from '../file-names/fs-path.ts';
import { resolvedPath } from '../file-names/resolved-path.ts';
import { scanFailure } from '../scans/failure-text.ts';
import type { IntakeItem, IntakeRejected } from './intake-item.ts';
import { isWithin, linkOutside } from './link-outside.ts';
import { ownerMayRead } from './owner-reads.ts';

/** A file (accepted or rejected) to report, or a folder to expand. */
export type EntryCheck = { kind: 'item'; item: IntakeItem; /** An accepted file's hard links (more than 1: it may be met again). */ links?: number } | { kind: 'directory'; path: string; stats: { dev: number; ino: number } };

/** Identity of a file or folder on this machine. */
export function fileKey(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/**
 * Checks one path. Never rejects: every failure is an item with a code. `within`: the real
 * path of the folder being walked, for an entry met in it; a link whose real target is not
 * inside it is reported as such, unfollowed. Absent (a path named directly): links are followed.
 */
export async function checkEntry(input: string, maxFileSize: number, within?: string): Promise<EntryCheck> {
  try {
    return await inspect(input, maxFileSize, within);
  } catch (error) {
    return reject(String(input), { cause: 'check_failed', path: String(input), detail: (error as Error).message });
  }
}

async function inspect(input: string, maxFileSize: number, within: string | undefined): Promise<EntryCheck> {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) {
    return reject(String(input), { cause: 'empty_path' });
  }
  const entryPath = resolvedPath(input);
  // Taken before any look: the unchanged-file skip's racy-timestamp rule measures from no later than the stat.
  const atMs = Date.now();

  let stats: BigIntStats;
  try {
    stats = await lstatOf(fsPath(entryPath));
  } catch (error) {
    return reject(entryPath, lookupError(entryPath, error));
  }
  let realPath = entryPath;
  if (stats.isSymbolicLink()) {
    try {
      // Resolved first (realpath only looks up names): a link out of the walked folder is never stat'ed or opened.
      realPath = await exactRealpath(entryPath);
      if (within !== undefined && !isWithin(realPath, within)) return { kind: 'item', item: linkOutside(entryPath, realPath, within) };
      stats = await stat(fsPath(realPath), { bigint: true });
    } catch (error) {
      return reject(entryPath, await linkError(entryPath, error));
    }
  }

  // As a plain stat gives them: the walk's folder keys stay what they were (seen-entries.ts).
  if (stats.isDirectory()) return { kind: 'directory', path: entryPath, stats: { dev: Number(stats.dev), ino: Number(stats.ino) } };
  if (!stats.isFile()) return notRegular(entryPath, stats);
  const size = Number(stats.size);
  if (size > maxFileSize) return tooLarge(entryPath, size, maxFileSize);

  // Readable, asked without opening it: nothing at the path is opened here (a FIFO or a device swapped in
  // since the lstat never is), and the fingerprint checks the very file it opens (fstat, then a stat after
  // the read). A link's resolved target is asked, not the link again. The user's own readable file needs no asking.
  if (!ownerMayRead(stats)) {
    try {
      await readable(fsPath(realPath));
    } catch (error) {
      return reject(entryPath, openError(entryPath, error));
    }
  }
  // In nanoseconds: the same stat is the file's identity for the unchanged-file skip (no second stat there).
  const file = { dev: String(stats.dev), ino: String(stats.ino), size, mtimeNs: String(stats.mtimeNs), ctimeNs: String(stats.ctimeNs) };
  const item = { ok: true as const, path: entryPath, realPath, size, mtimeMs: msOf(stats.mtimeNs), dev: Number(stats.dev), ino: Number(stats.ino), identity: { file, atMs } };
  return { kind: 'item', item, links: Number(stats.nlink) };
}

// The callback forms: each call costs the core's thread less than through fs/promises.
const lstatOf = (target: PathLike) => new Promise<BigIntStats>((resolve, fail) => lstat(target, { bigint: true }, (error, stats) => (error ? fail(error) : resolve(stats))));
const readable = (target: PathLike) => new Promise<void>((resolve, fail) => access(target, constants.R_OK, (error) => (error ? fail(error) : resolve())));

/** A refused path: the cause's code and English sentence (failure-text.ts), with the parameters the UI words it from. */
export function refusal(entryPath: string, params: ScanFailureParams, extra: { kind?: FileKind; size?: number } = {}): IntakeRejected {
  const { code, message } = scanFailure(params);
  return { ok: false, path: entryPath, code: code as IntakeErrorCode, message, params, ...extra };
}

function reject(entryPath: string, params: ScanFailureParams, extra: { kind?: FileKind; size?: number } = {}): EntryCheck {
  return { kind: 'item', item: refusal(entryPath, params, extra) };
}

/** Milliseconds as a plain fs.Stats gives them (seconds × 1e3 + nanoseconds / 1e6), from a bigint stat's nanoseconds. */
function msOf(ns: bigint): number {
  return Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6;
}

function kindOf(stats: BigIntStats): FileKind {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character_device';
  if (stats.isBlockDevice()) return 'block_device';
  return 'other';
}

function notRegular(entryPath: string, stats: BigIntStats): EntryCheck {
  const kind = kindOf(stats);
  return reject(entryPath, { cause: 'not_regular', path: entryPath, kind }, { kind });
}

function tooLarge(entryPath: string, size: number, limit: number): EntryCheck {
  return reject(entryPath, { cause: 'over_limit', path: entryPath, size, limit }, { size });
}

function lookupError(entryPath: string, error: unknown): ScanFailureParams {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { cause: 'no_such_path', path: entryPath };
    case 'EACCES':
    case 'EPERM':
      return { cause: 'folder_in_path_denied', path: entryPath };
    case 'ELOOP':
      return { cause: 'loop_in_path', path: entryPath };
    case 'ENAMETOOLONG':
      return { cause: 'path_too_long', path: entryPath };
    default:
      return { cause: 'check_failed', path: entryPath, detail: (error as Error).message };
  }
}

async function linkError(entryPath: string, error: unknown): Promise<ScanFailureParams> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return { cause: 'link_loop', path: entryPath };
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    const target = await exactReadlink(entryPath).catch(() => null);
    return target === null ? { cause: 'broken_link_unknown_target', path: entryPath } : { cause: 'broken_link', path: entryPath, target };
  }
  return lookupError(entryPath, error);
}

function openError(entryPath: string, error: unknown): ScanFailureParams {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EACCES':
    case 'EPERM':
      return { cause: 'read_denied', path: entryPath };
    case 'ENOENT':
      return { cause: 'vanished_before_open', path: entryPath };
    case 'ELOOP':
      return { cause: 'link_loop', path: entryPath };
    default:
      return { cause: 'open_failed', path: entryPath, detail: (error as Error).message };
  }
}
