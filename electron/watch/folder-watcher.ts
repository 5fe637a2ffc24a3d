// Watches the user's folders and reports each complete file version once, with a
// status per folder (watching, paused, starting, missing, error). One chokidar 6
// watcher per active folder; a paused, missing or failed folder holds no watcher
// and is caught up on (files changed since it stopped) when it comes back. A
// folder the exclusions cover (node_modules, a path rule) is not watched at all.
import { watch, type FSWatcher } from 'chokidar';
import { constants, type Stats } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WatchedFolderStatus, WatchState } from '../../shared/bridge/api.ts';
import type { WatchedFolder } from '../../shared/settings/settings.ts';
import type { ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { describeFolderError, errorCode, errorPath, isResourceLimit } from './folder-errors.ts';
import { compileIgnorePatterns, hasPartialSegment, isPartialName, isWatchableType, relativeInside, type IgnorePatterns } from './ignore-rules.ts';
import { createReportedVersions } from './reported-versions.ts';
import { createSettleQueue, type FileVersion } from './settle-queue.ts';

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

export const DEFAULT_SETTLE_MS = 2000;
export const DEFAULT_CHECK_INTERVAL_MS = 2000;
const DEFAULT_RETRY = { initial: 5000, max: 60_000 };

/** Which files that are already there a (re)start reports. */
type InitialPolicy = { kind: 'none' } | { kind: 'all' } | { kind: 'since'; since: number };
const NONE: InitialPolicy = { kind: 'none' };
const ALL: InitialPolicy = { kind: 'all' };
const since = (time: number): InitialPolicy => ({ kind: 'since', since: time });

function mergePolicies(a: InitialPolicy, b: InitialPolicy): InitialPolicy {
  if (a.kind === 'all' || b.kind === 'all') return ALL;
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  return since(Math.min(a.since, b.since));
}

interface FolderRun {
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

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, index) => item === b[index]);

export function createFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
  const retry = options.retryMs ?? DEFAULT_RETRY;
  const log = options.log ?? (() => {});
  // A catch-up pass looks a little further back than the moment observation stopped:
  // files still settling then were dropped, and their last write came up to settleMs before.
  const catchUpMargin = settleMs + 2000;

  let runs = new Map<string, FolderRun>();
  let globalPaused = options.paused ?? false;
  let closed = false;
  const closing = new Set<Promise<void>>();
  const listeners = new Set<(statuses: WatchedFolderStatus[]) => void>();
  const startedWaiters: Array<() => void> = [];
  let lastSignature = '';
  let notifyQueued = false;

  const reported = createReportedVersions(options.reportedCapacity ?? 20_000);
  const settle = createSettleQueue({
    settleMs,
    onSettled: (file, folderId, version) => report(file, folderId, version),
    onError: (file, error) => log('warn', `Cannot check ${file}: ${error instanceof Error ? error.message : String(error)}`),
  });

  const isPaused = (run: FolderRun): boolean => globalPaused || run.folder.paused;

  function report(file: string, folderId: string, version: FileVersion): void {
    const run = runs.get(folderId);
    if (closed || !run || isPaused(run) || run.watcher === null) return;
    // An empty file has nothing to scan; browsers create empty placeholders (Firefox) and
    // fill them by renaming the finished download over them, which is reported then.
    if (version.size === 0) return;
    if (!reported.claim(file, version)) return;
    try {
      options.onReady({ path: file, size: version.size, mtimeMs: version.mtimeMs, folderId });
    } catch (error) {
      log('error', `The watched-file callback failed for ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // ---- Status ----

  function statuses(): WatchedFolderStatus[] {
    return [...runs.values()].map((run) => ({
      folder: { ...run.folder, ignore: [...run.folder.ignore] },
      state: run.state,
      error: run.state === 'missing' || run.state === 'error' ? run.problem : run.state === 'watching' ? run.warning : null,
    }));
  }

  function notify(): void {
    if (notifyQueued) return;
    notifyQueued = true;
    queueMicrotask(() => {
      notifyQueued = false;
      const current = statuses();
      if (!current.some((status) => status.state === 'starting') || closed) {
        for (const resolve of startedWaiters.splice(0)) resolve();
      }
      const signature = JSON.stringify(current);
      if (signature === lastSignature || closed) return;
      lastSignature = signature;
      for (const listener of listeners) {
        try {
          listener(current);
        } catch (error) {
          log('error', `A watch status listener failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
  }

  function setState(run: FolderRun, state: WatchState, problem: string | null = null): void {
    run.state = state;
    run.problem = problem;
    notify();
  }

  // ---- Observation ----

  function toUserPath(run: FolderRun, watched: string): string {
    if (run.realRoot === run.root || !watched.startsWith(run.realRoot)) return watched;
    return run.root + watched.slice(run.realRoot.length);
  }

  /**
   * Prunes the scan (given to chokidar only when the folder has ignore patterns or folder
   * exclusions: any `ignored` matcher costs chokidar a path normalization per entry, and
   * 100,000 entries take noticeably longer to be ready).
   */
  function isPruned(run: FolderRun, generation: number, realRoot: string, candidate: string, stats?: Stats): boolean {
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
    noteExcludedFolder(run, userPath, stats);
    return true;
  }

  /** Reports an excluded folder once per start, if it is new (see onExcludedFolder). */
  function noteExcludedFolder(run: FolderRun, userPath: string, stats: Stats): void {
    const key = `${userPath}\0${stats.dev}:${stats.ino}`;
    if (!options.onExcludedFolder || run.excludedSeen.has(key)) return;
    run.excludedSeen.add(key);
    if (!run.ready && (run.active.kind === 'none' || !admits(run.active, stats))) return;
    try {
      options.onExcludedFolder({ path: userPath, folderId: run.folder.id });
    } catch (error) {
      log('error', `The excluded-folder callback failed for ${userPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The last word on a file event: inside the root, under no partial-download name, not ignored. */
  function isIgnoredFile(run: FolderRun, watched: string): boolean {
    const relative = relativeInside(run.realRoot, watched);
    return relative === null || hasPartialSegment(relative) || run.ignore.matches(relative) || inExcludedFolder(run, watched);
  }

  /**
   * Whether a file lies in an excluded folder. Pruning keeps such events away on Linux; the
   * recursive native watchers (macOS, Windows) see the whole tree, and chokidar asks about
   * a file's folders without stats there. One lookup per folder per start.
   */
  function inExcludedFolder(run: FolderRun, watched: string): boolean {
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

  /** The current rules that exclude whole folders inside this one (null: none can); remembers them on the run. */
  function readExclusions(run: FolderRun): ((userPath: string) => boolean) | null {
    const matcher = options.exclusions?.();
    const folderId = run.folder.id;
    run.pruneRules = matcher?.folderRules(folderId) ?? '';
    if (!matcher || run.pruneRules === '') return null;
    return (userPath) => matcher.check(userPath, { size: null, automatic: true, folderId, kind: 'folder' }) !== null;
  }

  /** Whether a file found by the initial scan of a start is to be reported. */
  function admits(policy: InitialPolicy, stats: Stats | undefined): boolean {
    if (policy.kind !== 'since' || !stats) return true;
    // ctime catches files moved or copied in with an old mtime (rename and copy set ctime).
    return Math.max(stats.mtimeMs, stats.ctimeMs) >= policy.since - catchUpMargin;
  }

  function onFile(run: FolderRun, generation: number, watched: string, stats: Stats | undefined, event: 'add' | 'change'): void {
    if (generation !== run.generation) return;
    // FIFOs, sockets, devices and symlinks (lstat stats) are never queued; the settle check lstats again.
    if (stats && !stats.isFile()) return;
    if (isIgnoredFile(run, watched)) return;
    const initial = !run.ready && event === 'add';
    if (initial && !admits(run.active, stats)) return;
    settle.touch(toUserPath(run, watched), run.folder.id, stats, initial);
  }

  function onWatchError(run: FolderRun, generation: number, error: unknown): void {
    if (generation !== run.generation) return;
    const code = errorCode(error);
    const where = errorPath(error);
    const atRoot = where === undefined || where === run.realRoot || where === run.root;
    if (isResourceLimit(code) || (atRoot && (code === 'EACCES' || code === 'EPERM'))) {
      goDown(run, error);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'EACCES' || code === 'EPERM') {
      // One unreadable subfolder: the rest of the folder is still watched.
      run.warning = `Some items cannot be read (permission denied): ${where === undefined ? message : toUserPath(run, where)}`;
      notify();
    }
    log('warn', `Watching ${run.root}: ${message}`);
  }

  /** Stops observing; the next start reports what changed from now on (and what was left settling). */
  function stopObserving(run: FolderRun): void {
    run.generation += 1;
    const { droppedInitial } = settle.dropFolder(run.folder.id);
    const wasObserving = run.watcher !== null;
    if (run.watcher) {
      const watcher = run.watcher;
      run.watcher = null;
      const done = watcher.close().catch((error: unknown) => log('warn', `Closing the watcher of ${run.root}: ${String(error)}`));
      closing.add(done);
      void done.finally(() => closing.delete(done));
    }
    if (wasObserving) {
      run.initial = mergePolicies(run.initial, since(Date.now()));
      // Files the last start's initial scan found that had not settled yet are found again.
      if (droppedInitial > 0) run.initial = mergePolicies(run.initial, run.active);
    }
    run.ready = false;
    run.warning = null;
  }

  function goDown(run: FolderRun, error: unknown): void {
    const problem = describeFolderError(error);
    stopObserving(run);
    // Nothing was observed from here on, whether or not a watcher was running.
    run.initial = mergePolicies(run.initial, since(Date.now()));
    if (problem.state === 'error') {
      run.retryAt = performance.now() + run.retryDelay;
      run.retryDelay = Math.min(run.retryDelay * 2, retry.max);
    }
    if (run.state !== problem.state || run.problem !== problem.message) {
      log('warn', `Watching ${run.root}: ${problem.message}`);
    }
    setState(run, problem.state, problem.message);
  }

  /** Probes the folder: its stats, or the error that keeps it from being watched. */
  async function probe(root: string): Promise<Stats> {
    const stats = await stat(root);
    if (!stats.isDirectory()) throw Object.assign(new Error(`Not a folder: ${root}`), { code: 'ENOTDIR', path: root });
    await access(root, constants.R_OK | constants.X_OK);
    return stats;
  }

  async function start(run: FolderRun): Promise<void> {
    if (closed || isPaused(run)) return;
    const generation = ++run.generation;
    run.ready = false;
    setState(run, 'starting');
    try {
      const stats = await probe(run.root);
      const realRoot = await realpath(run.root);
      if (generation !== run.generation) return;
      run.realRoot = realRoot;
      run.identity = `${stats.dev}:${stats.ino}`;
      run.active = run.initial;
      run.excludes = readExclusions(run);
      run.excludedSeen = new Set();
      run.excludedParents = new Map();
      const watcher = watch(realRoot, {
        ignoreInitial: run.active.kind === 'none',
        followSymlinks: false,
        depth: run.folder.recursive ? undefined : 0,
        // Our own settle queue waits for complete files (awaitWriteFinish checks size only
        // and does not hold initial-scan files); unlink+add needs no merging either.
        atomic: false,
        awaitWriteFinish: false,
        alwaysStat: true,
        persistent: true,
        ignored:
          run.ignore.empty && run.excludes === null ? undefined : (candidate: string, candidateStats?: Stats) => isPruned(run, generation, realRoot, candidate, candidateStats),
      });
      run.watcher = watcher;
      watcher.on('add', (file, fileStats) => onFile(run, generation, file, fileStats, 'add'));
      watcher.on('change', (file, fileStats) => onFile(run, generation, file, fileStats, 'change'));
      watcher.on('unlink', (file) => {
        if (generation !== run.generation) return;
        const userPath = toUserPath(run, file);
        settle.drop(userPath);
        reported.forget(userPath);
      });
      watcher.on('unlinkDir', (directory) => {
        // The folder itself went away (or was replaced): start over, which finds out which.
        if (generation === run.generation && directory === realRoot) void restart(run);
      });
      watcher.on('error', (error) => onWatchError(run, generation, error));
      watcher.on('ready', () => {
        if (generation !== run.generation) return;
        run.ready = true;
        run.initial = NONE;
        run.retryDelay = retry.initial;
        setState(run, 'watching');
      });
    } catch (error) {
      if (generation === run.generation) goDown(run, error);
    }
  }

  async function restart(run: FolderRun): Promise<void> {
    stopObserving(run);
    await start(run);
  }

  /** Starts a watching folder over if the rules that exclude folders in it changed (its pruning is fixed per start). */
  function recheckExclusions(run: FolderRun): void {
    if (isPaused(run) || (run.state !== 'watching' && run.state !== 'starting')) return;
    const rules = options.exclusions?.().folderRules(run.folder.id) ?? '';
    if (rules !== run.pruneRules) void restart(run);
  }

  /** The periodic look at one folder: gone, unreadable, replaced, or back again. */
  async function check(run: FolderRun): Promise<void> {
    // A start in progress is left alone: state `starting` until it watches or fails.
    if (closed || run.checking || isPaused(run) || run.state === 'starting') return;
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
    if (closed || generation !== run.generation || isPaused(run)) return;
    if (run.state === 'watching') {
      if (failure !== null) goDown(run, failure);
      else if (stats && `${stats.dev}:${stats.ino}` !== run.identity) await restart(run);
      return;
    }
    // missing or error: start again once the folder is there and readable. An error that
    // persists (ENOSPC) is met again by the start, which backs off further.
    if (failure === null) await start(run);
    else goDown(run, failure);
  }

  const ticker = setInterval(() => {
    for (const run of runs.values()) void check(run);
  }, checkIntervalMs);

  // ---- Folder list ----

  function createRun(folder: WatchedFolder, initial: InitialPolicy): FolderRun {
    const root = path.resolve(folder.path);
    const run: FolderRun = {
      folder,
      root,
      realRoot: root,
      identity: null,
      ignore: compileIgnorePatterns(folder.ignore),
      state: 'starting',
      problem: null,
      warning: null,
      generation: 0,
      watcher: null,
      ready: false,
      initial,
      active: NONE,
      retryDelay: retry.initial,
      retryAt: 0,
      checking: false,
      pruneRules: '',
      excludes: null,
      excludedSeen: new Set(),
      excludedParents: new Map(),
    };
    if (run.ignore.invalid.length > 0) log('warn', `Ignoring invalid patterns for ${root}: ${run.ignore.invalid.join(', ')}`);
    if (isPaused(run)) {
      run.state = 'paused';
      // Files that land while the folder is paused are reported when it resumes.
      run.initial = mergePolicies(initial, since(Date.now()));
    } else {
      void start(run);
    }
    return run;
  }

  function pauseRun(run: FolderRun): void {
    stopObserving(run);
    setState(run, 'paused');
  }

  function resumeRun(run: FolderRun): void {
    run.retryDelay = retry.initial;
    void start(run);
  }

  function setFolders(folders: readonly WatchedFolder[], catchUpSince?: number): void {
    if (closed) return;
    const next = new Map<string, FolderRun>();
    const wanted = new Map(folders.map((folder) => [folder.id, folder]));
    for (const [id, run] of runs) {
      if (wanted.has(id)) continue;
      stopObserving(run);
    }
    for (const folder of wanted.values()) {
      const run = runs.get(folder.id);
      const initial = catchUpSince !== undefined ? since(catchUpSince) : folder.scanExisting ? ALL : NONE;
      if (!run || path.resolve(run.folder.path) !== path.resolve(folder.path)) {
        // A new folder (or a new path under an old id): scanExisting decides about what is there.
        if (run) stopObserving(run);
        next.set(folder.id, createRun(folder, initial));
        continue;
      }
      next.set(folder.id, run);
      const wasPaused = isPaused(run);
      const optionsChanged = run.folder.recursive !== folder.recursive || !sameList(run.folder.ignore, folder.ignore);
      run.folder = folder;
      if (optionsChanged) run.ignore = compileIgnorePatterns(folder.ignore);
      const nowPaused = isPaused(run);
      if (nowPaused && !wasPaused) pauseRun(run);
      else if (!nowPaused && wasPaused) resumeRun(run);
      else if (!nowPaused && optionsChanged) void restart(run);
      // A folder's own exclusions arrive here too (the matcher is rebuilt from the same settings).
      else if (!nowPaused) recheckExclusions(run);
    }
    runs = next;
    notify();
  }

  setFolders(options.folders ?? [], options.catchUpSince);

  return {
    setFolders: (folders) => setFolders(folders),
    pauseAll() {
      if (closed || globalPaused) return;
      globalPaused = true;
      for (const run of runs.values()) if (!run.folder.paused) pauseRun(run);
    },
    resumeAll() {
      if (closed || !globalPaused) return;
      globalPaused = false;
      for (const run of runs.values()) if (!run.folder.paused) resumeRun(run);
    },
    exclusionsChanged() {
      if (closed) return;
      for (const run of runs.values()) recheckExclusions(run);
    },
    pause(id) {
      const run = runs.get(id);
      if (!run) return false;
      if (!run.folder.paused) setFolders([...runs.values()].map((other) => (other === run ? { ...other.folder, paused: true } : other.folder)));
      return true;
    },
    resume(id) {
      const run = runs.get(id);
      if (!run) return false;
      if (run.folder.paused) setFolders([...runs.values()].map((other) => (other === run ? { ...other.folder, paused: false } : other.folder)));
      return true;
    },
    statuses,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    started() {
      if (closed || ![...runs.values()].some((run) => run.state === 'starting')) return Promise.resolve();
      return new Promise((resolve) => startedWaiters.push(resolve));
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      for (const run of runs.values()) stopObserving(run);
      settle.close();
      listeners.clear();
      for (const resolve of startedWaiters.splice(0)) resolve();
      await Promise.all([...closing]);
    },
  };
}
