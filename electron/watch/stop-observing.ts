// Stops observing a folder (pause, error, restart, removal, close): its watcher closes,
// its files still settling are dropped, and its next start catches up on them.
import { mergePolicies, since } from './initial-policy.ts';
import type { FolderRun, WatcherState } from './watcher-state.ts';

/** Stops observing; the next start reports what changed from now on (and what was left settling). */
export function stopObserving(state: WatcherState, run: FolderRun): void {
  run.generation += 1;
  const { droppedInitial } = state.settle.dropFolder(run.folder.id);
  const wasObserving = run.watcher !== null;
  if (run.watcher) {
    const watcher = run.watcher;
    run.watcher = null;
    const done = watcher.close().catch((error: unknown) => state.log('warn', `Closing the watcher of ${run.root}: ${String(error)}`));
    state.closing.add(done);
    void done.finally(() => state.closing.delete(done));
  }
  if (wasObserving) {
    run.initial = mergePolicies(run.initial, since(Date.now()));
    // Files the last start's initial scan found that had not settled yet are found again.
    if (droppedInitial > 0) run.initial = mergePolicies(run.initial, run.active);
  }
  run.ready = false;
  run.warning = null;
}
