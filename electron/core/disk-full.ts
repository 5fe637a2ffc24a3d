// A full disk under the data directory, wherever it surfaces: SQLite's
// SQLITE_FULL ("database or disk is full", from history, the quarantine journal,
// the service's store) and the file system's ENOSPC or EDQUOT (settings, logs,
// uploads). Recognised so the user hears which folder and what to do, not "an
// unexpected error". The words are in disk-full-text.ts.
import { relative, isAbsolute } from 'node:path';
import { diskFullTexts } from './disk-full-text.ts';

export const DISK_FULL_CODE = 'data_disk_full';

const SQLITE_FULL = 13;
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
/** Errors that crossed a thread keep their message only. */
const NO_SPACE_MESSAGE = /database or disk is full|no space left on device|disk quota exceeded/i;

/**
 * True when `error` (or an error it wraps) says the disk is full. With `dataDir`, an error naming a path
 * elsewhere (a file restored to the user's own, full, disk) does not count: that is not the data disk.
 */
export function isDiskFull(error: unknown, dataDir?: string): boolean {
  for (const candidate of causes(error)) {
    const { errcode, code, syscall, path, dest, message } = candidate as { errcode?: unknown; code?: unknown; syscall?: unknown; path?: unknown; dest?: unknown; message?: unknown };
    if (typeof errcode === 'number' && (errcode & 0xff) === SQLITE_FULL) return true;
    // ENOSPC from fs.watch is the inotify watch limit, not space.
    if (typeof code === 'string' && NO_SPACE.has(code) && syscall !== 'watch') {
      // A copy's destination is where the space ran out.
      const written = typeof dest === 'string' ? dest : typeof path === 'string' ? path : null;
      return dataDir === undefined || written === null || isInside(written, dataDir);
    }
    if (code === undefined && typeof message === 'string' && NO_SPACE_MESSAGE.test(message)) return true;
  }
  return false;
}

/** A start or a run stopped because the data directory's disk is full; `message` is the English sentence. */
export class DataDiskFullError extends Error {
  readonly code = DISK_FULL_CODE;
  readonly dataDir: string;
  constructor(dataDir: string, cause?: unknown) {
    super(diskFullTexts('en').problem(dataDir), { cause });
    this.name = 'DataDiskFullError';
    this.dataDir = dataDir;
  }
}

/** The error and what it wraps (`cause`, an AggregateError's errors), a few levels deep. */
function causes(error: unknown): unknown[] {
  const found: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && found.length < 16) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || found.includes(next)) continue;
    found.push(next);
    if ('cause' in next) queue.push(next.cause);
    if (next instanceof AggregateError) queue.push(...next.errors);
  }
  return found;
}

function isInside(file: string, dir: string): boolean {
  const rel = relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
