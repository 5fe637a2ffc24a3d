// Holds files that may still be being written and releases each one when its
// size, mtime and inode have not changed for `settleMs`. Event-driven: every
// add/change event pushes the file's deadline back; at the deadline one lstat
// confirms the file is unchanged. One timer for the whole queue, a Map kept in
// deadline order, and a bounded number of stats in flight, so a burst of tens of
// thousands of files costs one entry and one stat each, nothing per tick.
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { fsPath } from '../file-names/fs-path.ts';
import { errorCode } from './folder-errors.ts';

export interface FileVersion {
  size: number;
  mtimeMs: number;
  ino: number;
}

export const versionOf = (stats: Stats): FileVersion => ({ size: Number(stats.size), mtimeMs: Number(stats.mtimeMs), ino: Number(stats.ino) });

const sameVersion = (a: FileVersion, b: FileVersion): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

interface Pending {
  path: string;
  folderId: string;
  /** What the last event or check saw; null forces one more round. */
  last: FileVersion | null;
  deadline: number;
  /** Bumped by every touch, so a check that raced with a write is discarded. */
  seq: number;
  checking: boolean;
  /** Found by a start's scan of files already there (not by a live event). */
  initial: boolean;
}

export interface SettleQueueOptions {
  settleMs: number;
  /** Stats in flight at once (they share libuv's small thread pool with everything else). */
  concurrency?: number;
  /** A regular file whose version held still for settleMs. */
  onSettled(path: string, folderId: string, version: FileVersion): void;
  /** A check failed for another reason than the file being gone. */
  onError?(path: string, error: unknown): void;
}

export interface SettleQueue {
  /** A file was added or changed (stats as the event saw them, if any). */
  touch(path: string, folderId: string, stats?: Stats, initial?: boolean): void;
  drop(path: string): void;
  /** Forgets every file of a folder; says how many were pending, and how many of those came from an initial scan. */
  dropFolder(folderId: string): { dropped: number; droppedInitial: number };
  readonly size: number;
  close(): void;
}

export function createSettleQueue(options: SettleQueueOptions): SettleQueue {
  const { settleMs, onSettled, onError } = options;
  const concurrency = options.concurrency ?? 8;
  // Map iteration order is insertion order; every (re)insertion gets deadline now + settleMs
  // from a monotonic clock, so the Map stays sorted by deadline.
  const pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | null = null;
  let inFlight = 0;
  let closed = false;
  const now = (): number => performance.now();

  const requeue = (entry: Pending): void => {
    pending.delete(entry.path);
    entry.deadline = now() + settleMs;
    pending.set(entry.path, entry);
  };

  const schedule = (): void => {
    if (closed || timer || inFlight >= concurrency) return;
    for (const entry of pending.values()) {
      if (entry.checking) continue;
      timer = setTimeout(
        () => {
          timer = null;
          pump();
        },
        Math.max(0, entry.deadline - now()),
      );
      return;
    }
  };

  const finish = (entry: Pending, seq: number, stats: Stats | null, error: unknown): void => {
    inFlight -= 1;
    entry.checking = false;
    if (closed) return;
    if (pending.get(entry.path) === entry && entry.seq === seq) {
      if (error !== null) {
        pending.delete(entry.path);
        if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') onError?.(entry.path, error);
      } else if (!stats || !stats.isFile()) {
        pending.delete(entry.path);
      } else {
        const version = versionOf(stats);
        if (entry.last && sameVersion(entry.last, version)) {
          pending.delete(entry.path);
          onSettled(entry.path, entry.folderId, version);
        } else {
          entry.last = version;
          requeue(entry);
        }
      }
    }
    pump();
  };

  const check = (entry: Pending): void => {
    entry.checking = true;
    inFlight += 1;
    const seq = entry.seq;
    lstat(fsPath(entry.path)).then(
      (stats) => finish(entry, seq, stats, null),
      (error: unknown) => finish(entry, seq, null, error),
    );
  };

  function pump(): void {
    if (closed) return;
    const t = now();
    for (const entry of pending.values()) {
      if (inFlight >= concurrency || entry.deadline > t) break;
      if (!entry.checking) check(entry);
    }
    schedule();
  }

  return {
    touch(path, folderId, stats, initial = false) {
      if (closed) return;
      const existing = pending.get(path);
      const entry: Pending = existing ?? { path, folderId, last: null, deadline: 0, seq: 0, checking: false, initial };
      entry.seq += 1;
      entry.initial = initial;
      entry.last = stats ? versionOf(stats) : null;
      requeue(entry);
      schedule();
    },
    drop(path) {
      pending.delete(path);
    },
    dropFolder(folderId) {
      let dropped = 0;
      let droppedInitial = 0;
      for (const [path, entry] of pending) {
        if (entry.folderId !== folderId) continue;
        pending.delete(path);
        dropped += 1;
        if (entry.initial) droppedInitial += 1;
      }
      return { dropped, droppedInitial };
    },
    get size() {
      return pending.size;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
