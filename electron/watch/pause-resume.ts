// Pausing stops a folder's watcher (its files are caught up on when it resumes);
// resuming starts it again with a fresh backoff. All folders at once, or one.
import { setFolderState } from './folder-status.ts';
import { startFolder } from './start-folder.ts';
import { stopObserving } from './stop-observing.ts';
import type { FolderRun, WatcherState } from './watcher-state.ts';

export function pauseRun(state: WatcherState, run: FolderRun): void {
  stopObserving(state, run);
  setFolderState(state, run, 'paused');
}

export function resumeRun(state: WatcherState, run: FolderRun): void {
  run.retryDelay = state.retry.initial;
  void startFolder(state, run);
}

/** Pauses every folder (settings.watchingPaused); those paused on their own stay as they are. */
export function pauseAll(state: WatcherState): void {
  if (state.closed || state.globalPaused) return;
  state.globalPaused = true;
  for (const run of state.runs.values()) if (!run.folder.paused) pauseRun(state, run);
}

/** Resumes every folder that is not paused on its own. */
export function resumeAll(state: WatcherState): void {
  if (state.closed || !state.globalPaused) return;
  state.globalPaused = false;
  for (const run of state.runs.values()) if (!run.folder.paused) resumeRun(state, run);
}
