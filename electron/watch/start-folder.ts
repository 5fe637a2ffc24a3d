// Starts observing one folder: checks it can be watched, reads the exclusions as they
// are now, and hands it to a chokidar watcher whose events feed the settle queue. Every
// callback carries the generation it was made for and bails once the folder moved on.
import { watch } from 'chokidar';
import { constants, type Stats } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isPruned, readExclusions } from './excluded-folders.ts';
import { onFile, onUnlink } from './file-events.ts';
import { goDown, onWatchError } from './folder-failure.ts';
import { setFolderState } from './folder-status.ts';
import { NONE } from './initial-policy.ts';
import { stopObserving } from './stop-observing.ts';
import { undecodableNames } from './undecodable-names.ts';
import { isPaused, type FolderRun, type WatcherState } from './watcher-state.ts';

/** Probes the folder: its stats, or the error that keeps it from being watched. */
export async function probe(root: string): Promise<Stats> {
  const stats = await stat(root);
  if (!stats.isDirectory()) throw Object.assign(new Error(`Not a folder: ${root}`), { code: 'ENOTDIR', path: root });
  await access(root, constants.R_OK | constants.X_OK);
  return stats;
}

export async function startFolder(state: WatcherState, run: FolderRun): Promise<void> {
  if (state.closed || isPaused(state, run)) return;
  const generation = ++run.generation;
  run.ready = false;
  setFolderState(state, run, 'starting');
  try {
    const stats = await probe(run.root);
    const realRoot = await realpath(run.root);
    if (generation !== run.generation) return;
    run.realRoot = realRoot;
    run.identity = `${stats.dev}:${stats.ino}`;
    run.active = run.initial;
    run.excludes = readExclusions(state, run);
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
        run.ignore.empty && run.excludes === null
          ? undefined
          : (candidate: string, candidateStats?: Stats) => isPruned(state, run, generation, realRoot, candidate, candidateStats),
    });
    run.watcher = watcher;
    // Files whose names are not UTF-8, which chokidar never reports (undecodable-names.ts).
    const undecodable = undecodableNames(state, run, generation);
    watcher.on('raw', (_event, name, details) => undecodable.onRaw(name, details as { watchedPath?: string } | undefined));
    watcher.on('add', (file, fileStats) => onFile(state, run, generation, file, fileStats, 'add'));
    watcher.on('change', (file, fileStats) => onFile(state, run, generation, file, fileStats, 'change'));
    watcher.on('unlink', (file) => onUnlink(state, run, generation, file));
    watcher.on('addDir', (directory) => undecodable.onFolder(directory));
    watcher.on('unlinkDir', (directory) => {
      // The folder itself went away (or was replaced): start over, which finds out which.
      if (generation === run.generation && directory === realRoot) void restartFolder(state, run);
    });
    watcher.on('error', (error) => onWatchError(state, run, generation, error));
    watcher.on('ready', () => {
      if (generation !== run.generation) return;
      run.ready = true;
      run.initial = NONE;
      run.retryDelay = state.retry.initial;
      setFolderState(state, run, 'watching');
    });
  } catch (error) {
    if (generation === run.generation) goDown(state, run, error);
  }
}

export async function restartFolder(state: WatcherState, run: FolderRun): Promise<void> {
  stopObserving(state, run);
  await startFolder(state, run);
}
