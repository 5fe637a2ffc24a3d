// Intake: turns the paths handed to Verdict (drop, dialog, CLI, watcher, a
// second launch) into a stream of checked files. Folders are expanded
// recursively, one folder listing open at a time; every entry is checked and
// either accepted (a readable regular file within the size limit) or reported
// with a code and a plain-English message. Nothing but a regular file is ever opened.
// A folder the caller says is excluded is not walked: it is reported once instead.
// A symbolic link named directly is followed (the user chose it); one met while walking a
// folder is followed only when its real target lies inside that folder (link-outside.ts).
// Names are read and opened as their exact bytes (file-names/fs-path.ts); a named path that a
// lossy decoding broke (U+FFFD, naming nothing) is looked up as bytes first (file-names/lossy-paths.ts).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RecordError } from '../../shared/scans/record.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { exactRealpath, folderNames, fsPath } from '../file-names/fs-path.ts';
import { exactPathFor } from '../file-names/lossy-paths.ts';
import { checkEntry, fileKey, refusal, type EntryCheck } from './check-entry.ts';
import type { IntakeAccepted, IntakeItem } from './intake-item.ts';
import { createSeenEntries, firstOtherVisit, firstPlainVisit, type SeenEntries } from './seen-entries.ts';

export type { IntakeItem, IntakeAccepted, IntakeRejected, IntakeExcludedFolder, IntakeLinkOutside, IntakeErrorCode, FileKind } from './intake-item.ts';

export interface ExpandOptions {
  /** Stops the expansion: the generator throws the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
  /** Largest file accepted, in bytes (default MAX_ASYNC_FILE_SIZE, 100 MB). */
  maxFileSize?: number;
  /**
   * Why a folder (named or met on the way) is excluded, or null to walk it. An excluded
   * folder is yielded once as `excluded` and nothing in it is listed. Absent: every folder is walked.
   */
  excludedFolder?: (folderPath: string) => RecordError | null;
  /**
   * The real path of a folder the given paths were found in (a rescan of a link met while walking
   * it): a link among them is then followed only into that folder. Absent: named links are followed.
   */
  within?: string;
  /** What the expansion remembers to yield each file once (seen-entries.ts); a fresh one by default. Given by tests, to look at its size. */
  seen?: SeenEntries;
}

/**
 * Entry checks started together within one folder, all yielded (in order) before the next ones start.
 * A burst keeps the thread pool busy: one check started per check finished woke a sleeping pool thread
 * each time, and the core's thread paid for it (a 20,000-file walk: 0.75 s of its CPU with 8 in a
 * sliding window, about 0.5 s in bursts of 64; the lstat calls themselves take under 0.1 s).
 */
const CHECKS_IN_FLIGHT = 64;

/** A folder waiting to be listed, with the chain of folders that led to it (for loop detection). */
interface PendingDir {
  path: string;
  key: string;
  parent: PendingDir | null;
}

/**
 * Yields one item per file found (or per path that could not be used), as it goes:
 * 10,000 files are never collected into one array first; a few checks run at once. A symbolic
 * link named directly is followed; one met in a folder is followed when its real target is inside
 * the named folder (a link to a file is scanned as its target; a link to a folder is expanded
 * unless it leads back into a folder being expanded), and otherwise yielded as `link_outside`,
 * unopened. The same file or folder reached twice (two links, a file and its folder) is yielded
 * once, and an excluded folder is yielded once, unwalked.
 */
export async function* expandPaths(paths: Iterable<string> | AsyncIterable<string>, options: ExpandOptions = {}): AsyncGenerator<IntakeItem> {
  const { signal, excludedFolder } = options;
  const maxFileSize = options.maxFileSize ?? MAX_ASYNC_FILE_SIZE;
  const seen = options.seen ?? createSeenEntries();

  /** Turns one check into what to yield: the item, or nothing for a repeat. Queues folders. `parent`: null for a named path. */
  const consider = async (check: EntryCheck, parent: PendingDir | null, queue: PendingDir[]): Promise<IntakeItem | null> => {
    if (check.kind === 'item') {
      if (!check.item.ok) return check.item;
      // A plain file in a listing (not a link) is met once unless hard-linked; a link or a named path may lead to any file.
      const plain = parent !== null && check.item.realPath === check.item.path;
      // Before any listing (the watcher's named files) no folder can have yielded it: no need to look its folder up.
      const first = plain ? firstPlainVisit(seen, check.item, check.links ?? 1) : firstOtherVisit(seen, check.item, seen.listed.size > 0 ? await folderOf(check.item) : null);
      return first ? check.item : null;
    }
    const key = fileKey(check.stats);
    for (let up: PendingDir | null = parent; up; up = up.parent) {
      if (up.key === key) {
        return refusal(check.path, { cause: 'links_back', path: check.path, folder: up.path });
      }
    }
    if (seen.dirs.has(key)) return null;
    seen.dirs.add(key);
    const excluded = excludedFolder?.(check.path);
    if (excluded) return { ok: false, excluded: true, path: check.path, ...excluded };
    queue.push({ path: check.path, key, parent });
    return null;
  };

  for await (const check of checkInOrder(exactPaths(paths), maxFileSize, signal, options.within)) {
    const stack: PendingDir[] = [];
    const top = await consider(check, null, stack);
    if (top) yield top;
    // Links met inside may lead anywhere under the named folder's real path, and nowhere else.
    const named = stack[0];
    const within = named ? await exactRealpath(named.path).catch(() => named.path) : '';

    while (stack.length > 0) {
      const dir = stack.pop()!;
      const subdirs: PendingDir[] = [];
      let listing;
      try {
        listing = await folderNames(dir.path, 128);
      } catch (error) {
        yield listError(dir.path, error);
        continue;
      }
      seen.listed.add(dir.key);
      try {
        for await (const entry of checkInOrder(entryPaths(listing, dir.path), maxFileSize, signal, within)) {
          const item = await consider(entry, dir, subdirs);
          if (item) yield item;
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        yield listError(dir.path, error);
      }
      // Depth first, in listing order.
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
  }
}

/** The named paths, each as exactPathFor finds it (the same string unless it holds U+FFFD and names nothing). */
async function* exactPaths(paths: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  for await (const given of paths) yield typeof given === 'string' && given.includes('\uFFFD') && !given.includes('\0') ? await exactPathFor(path.resolve(given)) : given;
}

/** The identity of the folder a file really lies in (null if it cannot be looked up: the file is then yielded). */
async function folderOf(item: IntakeAccepted): Promise<{ dev: number; ino: number } | null> {
  return stat(fsPath(path.dirname(item.realPath))).catch(() => null);
}

/**
 * Full paths of a folder's entries; the iterator closes the folder when the loop ends, throws or is abandoned.
 * Joined as path.join joins them, without normalizing each again: a folder's path is resolved (checkEntry),
 * and a listed name is never empty, "." or "..", and holds no separator.
 */
async function* entryPaths(names: AsyncIterable<string>, dirPath: string): AsyncGenerator<string> {
  const base = dirPath.endsWith(path.sep) ? dirPath : `${dirPath}${path.sep}`;
  for await (const name of names) yield `${base}${name}`;
}

/**
 * Checks paths in bursts of CHECKS_IN_FLIGHT (each check is several file system calls in the
 * thread pool) and yields the results in source order. If the source fails
 * (a listing error), the checks already started are still yielded before the error.
 */
async function* checkInOrder(
  source: Iterable<string> | AsyncIterable<string>,
  maxFileSize: number,
  signal: AbortSignal | undefined,
  within?: string,
): AsyncGenerator<EntryCheck> {
  const running: Array<Promise<EntryCheck>> = [];
  let failure: { error: unknown } | null = null;
  try {
    for await (const entryPath of source) {
      signal?.throwIfAborted();
      running.push(checkEntry(entryPath, maxFileSize, within));
      if (running.length < CHECKS_IN_FLIGHT) continue;
      while (running.length > 0) {
        yield await running.shift()!;
        signal?.throwIfAborted();
      }
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    failure = { error };
  }
  while (running.length > 0) {
    signal?.throwIfAborted();
    yield await running.shift()!;
  }
  if (failure) throw failure.error;
}

function listError(dirPath: string, error: unknown): IntakeItem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return refusal(dirPath, { cause: 'folder_denied', path: dirPath });
  if (code === 'ENOENT' || code === 'ENOTDIR') return refusal(dirPath, { cause: 'folder_vanished', path: dirPath });
  return refusal(dirPath, { cause: 'folder_unreadable', path: dirPath, detail: (error as Error).message });
}
