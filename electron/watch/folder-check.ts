// Whether a folder's current start still fits: the periodic look (gone, unreadable,
// replaced, or back again) and the look after the exclusion rules changed.
import type { Stats } from 'node:fs';
import { goDown } from './folder-failure.ts';
import { probe, restartFolder, startFolder } from './start-folder.ts';
import { isPaused, type FolderRun, type WatcherState } from './watcher-state.ts';

/** The periodic look at one folder: gone, unreadable, replaced, or back again. */
export async function checkFolder(state: WatcherState, run: FolderRun): Promise<void> {
  // A start in progress is left alone: state `starting` until it watches or fails.
  if (state.closed || run.checking || isPaused(state, run) || run.state === 'starting') return;
  if (run.state === 'error' && performance.now() < run.retryAt) return;
  const generation = run.generation;
  run.checking = true;
  let stats: Stats | null = null;
  let failure: unknown = null;
  try {
    stats = await probe(run.root);
  } catch (error) {
    failure = error;
  } finally {
    run.checking = false;
  }
  if (state.closed || generation !== run.generation || isPaused(state, run)) return;
  if (run.state === 'watching') {
    if (failure !== null) goDown(state, run, failure);
    else if (stats && `${stats.dev}:${stats.ino}` !== run.identity) await restartFolder(state, run);
    return;
  }
  // missing or error: start again once the folder is there and readable. An error that
  // persists (ENOSPC) is met again by the start, which backs off further.
  if (failure === null) await startFolder(state, run);
  else goDown(state, run, failure);
}

/** Starts a watching folder over if the rules that exclude folders in it changed (its pruning is fixed per start). */
export function recheckExclusions(state: WatcherState, run: FolderRun): void {
  if (isPaused(state, run) || (run.state !== 'watching' && run.state !== 'starting')) return;
  const rules = state.options.exclusions?.().folderRules(run.folder.id) ?? '';
  if (rules !== run.pruneRules) void restartFolder(state, run);
}
