// What an error does to a watched folder: one unreadable subfolder is a warning and the
// rest is still watched; the folder itself gone, unreadable or out of system resources
// stops it (missing or error, with backoff) until a check finds it usable again.
import { describeFolderError, errorCode, errorPath, isResourceLimit } from './folder-errors.ts';
import { setFolderState, notify } from './folder-status.ts';
import { mergePolicies, since } from './initial-policy.ts';
import { stopObserving } from './stop-observing.ts';
import { messageOf, toUserPath, type FolderRun, type WatcherState } from './watcher-state.ts';

/** An error chokidar reported while watching. */
export function onWatchError(state: WatcherState, run: FolderRun, generation: number, error: unknown): void {
  if (generation !== run.generation) return;
  const code = errorCode(error);
  const where = errorPath(error);
  const atRoot = where === undefined || where === run.realRoot || where === run.root;
  if (isResourceLimit(code) || (atRoot && (code === 'EACCES' || code === 'EPERM'))) {
    goDown(state, run, error);
    return;
  }
  const message = messageOf(error);
  if (code === 'EACCES' || code === 'EPERM') {
    // One unreadable subfolder: the rest of the folder is still watched.
    run.warning = `Some items cannot be read (permission denied): ${where === undefined ? message : toUserPath(run, where)}`;
    notify(state);
  }
  state.log('warn', `Watching ${run.root}: ${message}`);
}

/** The folder cannot be watched: stops observing it and shows why (`missing` or `error`, which backs off). */
export function goDown(state: WatcherState, run: FolderRun, error: unknown): void {
  const problem = describeFolderError(error);
  stopObserving(state, run);
  // Nothing was observed from here on, whether or not a watcher was running.
  run.initial = mergePolicies(run.initial, since(Date.now()));
  if (problem.state === 'error') {
    run.retryAt = performance.now() + run.retryDelay;
    run.retryDelay = Math.min(run.retryDelay * 2, state.retry.max);
  }
  if (run.state !== problem.state || run.problem !== problem.message) {
    state.log('warn', `Watching ${run.root}: ${problem.message}`);
  }
  setFolderState(state, run, problem.state, problem.message);
}
