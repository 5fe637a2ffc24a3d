// Folders the exclusions cover (node_modules, a path rule) inside a watched folder: not
// descended into, their files never reported, and each one found told once per start.
import type { Stats } from 'node:fs';
import path from 'node:path';
import { admits } from './initial-policy.ts';
import { isPartialName, isWatchableType, relativeInside } from './ignore-rules.ts';
import { messageOf, toUserPath, type FolderRun, type WatcherState } from './watcher-state.ts';

/** The current rules that exclude whole folders inside this one (null: none can); remembers them on the run. */
export function readExclusions(state: WatcherState, run: FolderRun): ((userPath: string) => boolean) | null {
  const matcher = state.options.exclusions?.();
  const folderId = run.folder.id;
  run.pruneRules = matcher?.folderRules(folderId) ?? '';
  if (!matcher || run.pruneRules === '') return null;
  return (userPath) => matcher.check(userPath, { size: null, automatic: true, folderId, kind: 'folder' }) !== null;
}

/**
 * Prunes the scan (given to chokidar only when the folder has ignore patterns or folder
 * exclusions: any `ignored` matcher costs chokidar a path normalization per entry, and
 * 100,000 entries take noticeably longer to be ready).
 */
export function isPruned(state: WatcherState, run: FolderRun, generation: number, realRoot: string, candidate: string, stats?: Stats): boolean {
  // The root, and directories above it (chokidar asks about them when a root goes missing).
  const relative = relativeInside(realRoot, candidate);
  if (relative === null) return false;
  if (stats && !isWatchableType(stats)) return true;
  if (isPartialName(path.basename(candidate)) || run.ignore.matches(relative)) return true;
  // Folders only (chokidar asks again with stats before it descends): an excluded file is
  // still reported, and listed as skipped with the reason.
  if (!stats?.isDirectory() || generation !== run.generation || run.excludes === null) return false;
  const userPath = toUserPath(run, candidate);
  if (!run.excludes(userPath)) return false;
  noteExcludedFolder(state, run, userPath, stats);
  return true;
}

/** Reports an excluded folder once per start, if it is new (see onExcludedFolder). */
function noteExcludedFolder(state: WatcherState, run: FolderRun, userPath: string, stats: Stats): void {
  const key = `${userPath}\0${stats.dev}:${stats.ino}`;
  if (!state.options.onExcludedFolder || run.excludedSeen.has(key)) return;
  run.excludedSeen.add(key);
  if (!run.ready && (run.active.kind === 'none' || !admits(run.active, stats, state.catchUpMargin))) return;
  try {
    state.options.onExcludedFolder?.({ path: userPath, folderId: run.folder.id });
  } catch (error) {
    state.log('error', `The excluded-folder callback failed for ${userPath}: ${messageOf(error)}`);
  }
}

/**
 * Whether a file lies in an excluded folder. Pruning keeps such events away on Linux; the
 * recursive native watchers (macOS, Windows) see the whole tree, and chokidar asks about
 * a file's folders without stats there. One lookup per folder per start.
 */
export function inExcludedFolder(run: FolderRun, watched: string): boolean {
  if (run.excludes === null) return false;
  const parent = path.dirname(watched);
  if (relativeInside(run.realRoot, parent) === null) return false;
  let excluded = run.excludedParents.get(parent);
  if (excluded === undefined) {
    excluded = run.excludes(toUserPath(run, parent));
    run.excludedParents.set(parent, excluded);
  }
  return excluded;
}
