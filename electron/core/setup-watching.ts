// The core's watching capability: the folder watcher, fed from the settings; its
// complete files go to the pipeline in small batches.
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { Result } from '../../shared/result.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { createFolderWatcher, type FolderWatcher } from '../watch/folder-watcher.ts';
import type { CoreContext } from './core-context.ts';
import { openWatchState } from './watch-state.ts';

export interface Watching {
  statuses(): WatchedFolderStatus[];
  apply(next: Settings, previous: Settings): void;
  onChange(listener: (statuses: WatchedFolderStatus[]) => void): () => void;
  close(): Promise<void>;
}

export async function setupWatching(
  ctx: CoreContext,
  input: {
    /** Folders these exclude are not watched; one that turns up is submitted, to be listed once as skipped. */
    exclusions: () => ExclusionMatcher;
    submit: (paths: string[]) => Promise<Result<unknown>>;
  },
): Promise<Watching> {
  const watching = await startWatching(ctx, input);
  ctx.onClose(() => watching.close());
  return watching;
}

async function startWatching(ctx: CoreContext, input: Parameters<typeof setupWatching>[1]): Promise<Watching> {
  const { settings, tuning, log } = ctx;
  const listeners = new Set<(statuses: WatchedFolderStatus[]) => void>();
  if (tuning.watch === false) {
    const off = (): WatchedFolderStatus[] =>
      settings.get().watchedFolders.map((folder) => ({ folder, state: 'paused', error: 'Folders are not watched in this process (command-line scan).' }));
    return {
      statuses: off,
      apply: () => {
        for (const listener of listeners) listener(off());
      },
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => {},
    };
  }

  // Files that settle together are queued together (one history transaction).
  let pending: string[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  const flush = () => {
    flushTimer = null;
    const paths = pending;
    pending = [];
    if (paths.length === 0) return;
    void input.submit(paths).then((result) => {
      if (!result.ok) log.warn({ error: result.error, count: paths.length }, 'could not queue watched files');
    });
  };

  const initial = settings.get();
  const state = await openWatchState(ctx.dataDir, (error) => log.warn({ err: error }, 'could not save the watch state'));
  const watcher: FolderWatcher = createFolderWatcher({
    folders: initial.watchedFolders,
    paused: initial.watchingPaused,
    // Files that landed while Verdict was not watching are scanned now (not a full rescan).
    ...(state.lastWatchedAt !== null ? { catchUpSince: state.lastWatchedAt } : {}),
    settleMs: tuning.watchSettleMs,
    onReady(file) {
      pending.push(file.path);
      if (pending.length >= 500) flush();
      else flushTimer ??= setTimeout(flush, 100);
    },
    exclusions: input.exclusions,
    onExcludedFolder(found) {
      pending.push(found.path);
      flushTimer ??= setTimeout(flush, 100);
    },
    log: (level, message) => log[level]({}, message),
  });
  state.setRunning(!initial.watchingPaused);

  return {
    statuses: () => watcher.statuses(),
    apply(next, previous) {
      if (JSON.stringify(next.watchedFolders) !== JSON.stringify(previous.watchedFolders)) watcher.setFolders(next.watchedFolders);
      if (JSON.stringify(next.exclusions) !== JSON.stringify(previous.exclusions)) watcher.exclusionsChanged();
      if (next.watchingPaused !== previous.watchingPaused) {
        if (next.watchingPaused) watcher.pauseAll();
        else watcher.resumeAll();
        state.setRunning(!next.watchingPaused);
      }
    },
    onChange: (listener) => watcher.onStatus(listener),
    async close() {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      pending = [];
      await watcher.close();
      await state.close();
    },
  };
}
