// A watched folder's file events: an added or changed file goes into the settle queue,
// a removed one out of it; a file that settled is reported once per version.
import type { Stats } from 'node:fs';
import { inExcludedFolder } from './excluded-folders.ts';
import { admits } from './initial-policy.ts';
import { hasPartialSegment, relativeInside } from './ignore-rules.ts';
import type { FileVersion } from './settle-queue.ts';
import { isPaused, messageOf, toUserPath, type FolderRun, type WatcherState } from './watcher-state.ts';

/** The last word on a file event: inside the root, under no partial-download name, not ignored. */
function isIgnoredFile(run: FolderRun, watched: string): boolean {
  const relative = relativeInside(run.realRoot, watched);
  return relative === null || hasPartialSegment(relative) || run.ignore.matches(relative) || inExcludedFolder(run, watched);
}

/** `initial`: found by the start's scan of what is there (by default: an `add` before chokidar is ready). */
export function onFile(
  state: WatcherState,
  run: FolderRun,
  generation: number,
  watched: string,
  stats: Stats | undefined,
  event: 'add' | 'change',
  initial = !run.ready && event === 'add',
): void {
  if (generation !== run.generation) return;
  // FIFOs, sockets, devices and symlinks (lstat stats) are never queued; the settle check lstats again.
  if (stats && !stats.isFile()) return;
  if (isIgnoredFile(run, watched)) return;
  if (initial && !admits(run.active, stats, state.catchUpMargin)) return;
  state.settle.touch(toUserPath(run, watched), run.folder.id, stats, initial);
}

export function onUnlink(state: WatcherState, run: FolderRun, generation: number, watched: string): void {
  if (generation !== run.generation) return;
  const userPath = toUserPath(run, watched);
  state.settle.drop(userPath);
  state.reported.forget(userPath);
}

/** A file held still for settleMs: reported, unless its folder stopped or this version was reported already. */
export function reportSettled(state: WatcherState, file: string, folderId: string, version: FileVersion): void {
  const run = state.runs.get(folderId);
  if (state.closed || !run || isPaused(state, run) || run.watcher === null) return;
  // An empty file has nothing to scan; browsers create empty placeholders (Firefox) and
  // fill them by renaming the finished download over them, which is reported then.
  if (version.size === 0) return;
  if (!state.reported.claim(file, version)) return;
  try {
    state.options.onReady({ path: file, size: version.size, mtimeMs: version.mtimeMs, folderId });
  } catch (error) {
    state.log('error', `The watched-file callback failed for ${file}: ${messageOf(error)}`);
  }
}
