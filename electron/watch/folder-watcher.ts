// Watches the user's folders and reports each complete file version once, with a
// status per folder (watching, paused, starting, missing, error). One chokidar 6
// watcher per active folder; a paused, missing or failed folder holds no watcher
// and is caught up on (files changed since it stopped) when it comes back. A
// folder the exclusions cover (node_modules, a path rule) is not watched at all.
//
// This file is the coordinator: the state is WatcherState (watcher-state.ts), and each
// step is its own module (folder-list, start-folder, file-events, folder-check, …).
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { WatchedFolder } from '../../shared/settings/settings.ts';
import type { ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { checkFolder, recheckExclusions } from './folder-check.ts';
import { setFolderPaused, setFolders } from './folder-list.ts';
import { statuses, whenStarted } from './folder-status.ts';
import { reportSettled } from './file-events.ts';
import { pauseAll, resumeAll } from './pause-resume.ts';
import { stopObserving } from './stop-observing.ts';
import { createWatcherState, type WatcherState } from './watcher-state.ts';

export { DEFAULT_CHECK_INTERVAL_MS, DEFAULT_SETTLE_MS } from './watcher-state.ts';

/** A complete version of a regular file, reported once. */
export interface ReadyFile {
  /** Under the folder's configured path (even when that path goes through a symlink). */
  path: string;
  size: number;
  mtimeMs: number;
  folderId: string;
}

export interface FolderWatcherOptions {
  folders?: readonly WatchedFolder[];
  /** Called once per complete file version; keep it cheap (queue the work). */
  onReady(file: ReadyFile): void;
  /**
   * The exclusion rules as they are now. A folder they exclude inside a watched folder is
   * not watched (no watches, no events). Read when a folder starts; exclusionsChanged()
   * starts over the folders whose folder-excluding rules changed.
   */
  exclusions?: () => Pick<ExclusionMatcher, 'check' | 'folderRules'>;
  /**
   * An excluded folder turned up: created while watching, or found by a start that reports
   * files already there (scanExisting, or changed since the catch-up time). Once per folder
   * per start, so a restart does not list the same node_modules again. Keep it cheap.
   */
  onExcludedFolder?(found: { path: string; folderId: string }): void;
  /** Start with every folder paused (settings.watchingPaused). */
  paused?: boolean;
  /**
   * For the folders given here: report files created or changed at or after this time
   * (epoch ms; e.g. when the app last stopped watching), so nothing that landed while
   * the app was closed is missed. Without it, each folder's `scanExisting` decides.
   * Folders added later with setFolders always follow `scanExisting`.
   */
  catchUpSince?: number;
  /** How long size, mtime and inode must stay unchanged before a file counts as complete. */
  settleMs?: number;
  /** How often each folder is checked (still there, readable, same folder) and a missing one looked for. */
  checkIntervalMs?: number;
  /** Backoff for folders in `error` (permission denied, inotify or file limits). */
  retryMs?: { initial: number; max: number };
  /** How many paths remember their last reported version. */
  reportedCapacity?: number;
  log?(level: 'warn' | 'error', message: string): void;
}

export interface FolderWatcher {
  /** Replaces the folder list: new ids start, missing ids stop, changed options restart. */
  setFolders(folders: readonly WatchedFolder[]): void;
  pauseAll(): void;
  /** Resumes every folder that is not paused on its own. */
  resumeAll(): void;
  /** The exclusion rules changed: folders whose folder-excluding rules differ start over with them. */
  exclusionsChanged(): void;
  /** False when no folder has this id. */
  pause(id: string): boolean;
  resume(id: string): boolean;
  statuses(): WatchedFolderStatus[];
  /** Called with every folder's status whenever one of them changes. */
  onStatus(listener: (statuses: WatchedFolderStatus[]) => void): () => void;
  /** Resolves once no folder is `starting` (each watches, is paused, missing or in error). */
  started(): Promise<void>;
  close(): Promise<void>;
}

export function createFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const state: WatcherState = createWatcherState(options, (file, folderId, version) => reportSettled(state, file, folderId, version));
  const ticker = setInterval(() => {
    for (const run of state.runs.values()) void checkFolder(state, run);
  }, state.checkIntervalMs);
  setFolders(state, options.folders ?? [], options.catchUpSince);

  return {
    setFolders: (folders) => setFolders(state, folders),
    pauseAll: () => pauseAll(state),
    resumeAll: () => resumeAll(state),
    exclusionsChanged() {
      if (state.closed) return;
      for (const run of state.runs.values()) recheckExclusions(state, run);
    },
    pause: (id) => setFolderPaused(state, id, true),
    resume: (id) => setFolderPaused(state, id, false),
    statuses: () => statuses(state),
    onStatus(listener) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    started: () => whenStarted(state),
    async close() {
      if (state.closed) return;
      state.closed = true;
      clearInterval(ticker);
      for (const run of state.runs.values()) stopObserving(state, run);
      state.settle.close();
      state.listeners.clear();
      for (const resolve of state.startedWaiters.splice(0)) resolve();
      await Promise.all([...state.closing]);
    },
  };
}
