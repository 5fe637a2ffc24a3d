// Each folder's status (watching, paused, starting, missing, error) as the user sees it,
// sent to the listeners once per microtask and only when something in it changed.
import type { WatchedFolderStatus, WatchState } from '../../shared/bridge/api.ts';
import { messageOf, type FolderRun, type WatcherState } from './watcher-state.ts';

export function statuses(state: WatcherState): WatchedFolderStatus[] {
  return [...state.runs.values()].map((run) => ({
    folder: { ...run.folder, ignore: [...run.folder.ignore] },
    state: run.state,
    error: run.state === 'missing' || run.state === 'error' ? run.problem : run.state === 'watching' ? run.warning : null,
  }));
}

export function notify(state: WatcherState): void {
  if (state.notifyQueued) return;
  state.notifyQueued = true;
  queueMicrotask(() => {
    state.notifyQueued = false;
    const current = statuses(state);
    if (!current.some((status) => status.state === 'starting') || state.closed) {
      for (const resolve of state.startedWaiters.splice(0)) resolve();
    }
    const signature = JSON.stringify(current);
    if (signature === state.lastSignature || state.closed) return;
    state.lastSignature = signature;
    for (const listener of state.listeners) {
      try {
        listener(current);
      } catch (error) {
        state.log('error', `A watch status listener failed: ${messageOf(error)}`);
      }
    }
  });
}

export function setFolderState(state: WatcherState, run: FolderRun, watchState: WatchState, problem: string | null = null): void {
  run.state = watchState;
  run.problem = problem;
  notify(state);
}

/** Resolves once no folder is `starting`. */
export function whenStarted(state: WatcherState): Promise<void> {
  if (state.closed || ![...state.runs.values()].some((run) => run.state === 'starting')) return Promise.resolve();
  return new Promise((resolve) => state.startedWaiters.push(resolve));
}
