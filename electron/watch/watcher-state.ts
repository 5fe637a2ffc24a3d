// The folder watcher's state, named once: the options as resolved, one FolderRun per
// watched folder, the status listeners, and the queues every folder shares. Each step
// (folder-list, start-folder, folder-check, …) takes it as its first argument.
import type { FSWatcher } from 'chokidar';
import type { WatchedFolderStatus, WatchState } from '../../shared/bridge/api.ts';
import type { WatchedFolder } from '../../shared/settings/settings.ts';
import type { FolderWatcherOptions } from './folder-watcher.ts';
import type { IgnorePatterns } from './ignore-rules.ts';
import type { InitialPolicy } from './initial-policy.ts';
import { createReportedVersions, type ReportedVersions } from './reported-versions.ts';
import { createSettleQueue, type SettleQueue, type SettleQueueOptions } from './settle-queue.ts';

export const DEFAULT_SETTLE_MS = 2000;
export const DEFAULT_CHECK_INTERVAL_MS = 2000;
const DEFAULT_RETRY = { initial: 5000, max: 60_000 };

/** One watched folder: its settings, what is observed now, and what its next start reports. */
export interface FolderRun {
  folder: WatchedFolder;
  /** The configured path, resolved; reported paths start with it. */
  root: string;
  /** What chokidar watches: `root` with symlinks resolved. */
  realRoot: string;
  /** dev:ino of the folder being watched, to notice it was replaced. */
  identity: string | null;
  ignore: IgnorePatterns;
  state: WatchState;
  /** Why the folder is missing or in error. */
  problem: string | null;
  /** A problem that does not stop watching (a subfolder cannot be read). */
  warning: string | null;
  /** Bumped whenever observation stops or starts; stale callbacks compare and bail. */
  generation: number;
  watcher: FSWatcher | null;
  ready: boolean;
  /** Files already there that the next start reports. */
  initial: InitialPolicy;
  /** The policy of the current start. */
  active: InitialPolicy;
  retryDelay: number;
  retryAt: number;
  /** A periodic check is in flight. */
  checking: boolean;
  /** The folder-excluding rules of the current start ('' none), to notice a change. */
  pruneRules: string;
  /** Whether a folder (a path under `root`) is excluded, by the current start's rules; null: none can be. */
  excludes: ((userPath: string) => boolean) | null;
  /** Excluded folders met since this start (path and identity): each is reported once. */
  excludedSeen: Set<string>;
  /** Folders of file events already looked up in `excludes`. */
  excludedParents: Map<string, boolean>;
}

export interface WatcherState {
  options: FolderWatcherOptions;
  settleMs: number;
  checkIntervalMs: number;
  retry: { initial: number; max: number };
  log(level: 'warn' | 'error', message: string): void;
  /**
   * How much further back than the moment observation stopped a catch-up looks: files
   * still settling then were dropped, and their last write came up to settleMs before.
   */
  catchUpMargin: number;
  /** By folder id, in the order of the folder list. */
  runs: Map<string, FolderRun>;
  globalPaused: boolean;
  closed: boolean;
  /** Watchers still closing; close() waits for them. */
  closing: Set<Promise<void>>;
  listeners: Set<(statuses: WatchedFolderStatus[]) => void>;
  startedWaiters: Array<() => void>;
  /** The statuses last sent to the listeners (JSON), so an unchanged list is not sent again. */
  lastSignature: string;
  notifyQueued: boolean;
  reported: ReportedVersions;
  settle: SettleQueue;
}

export function createWatcherState(options: FolderWatcherOptions, onSettled: SettleQueueOptions['onSettled']): WatcherState {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const log = options.log ?? (() => {});
  return {
    options,
    settleMs,
    checkIntervalMs: options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS,
    retry: options.retryMs ?? DEFAULT_RETRY,
    log,
    catchUpMargin: settleMs + 2000,
    runs: new Map(),
    globalPaused: options.paused ?? false,
    closed: false,
    closing: new Set(),
    listeners: new Set(),
    startedWaiters: [],
    lastSignature: '',
    notifyQueued: false,
    reported: createReportedVersions(options.reportedCapacity ?? 20_000),
    settle: createSettleQueue({
      settleMs,
      onSettled,
      onError: (file, error) => log('warn', `Cannot check ${file}: ${messageOf(error)}`),
    }),
  };
}

export const isPaused = (state: WatcherState, run: FolderRun): boolean => state.globalPaused || run.folder.paused;

/** A path chokidar reports (under `realRoot`) as the user configured it (under `root`). */
export function toUserPath(run: FolderRun, watched: string): string {
  if (run.realRoot === run.root || !watched.startsWith(run.realRoot)) return watched;
  return run.root + watched.slice(run.realRoot.length);
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
