// The folder list: a new folder gets a run (started, or paused), a removed one stops,
// one whose options changed starts over, one whose pause setting changed pauses or resumes.
import path from 'node:path';
import type { WatchedFolder } from '../../shared/settings/settings.ts';
import { recheckExclusions } from './folder-check.ts';
import { notify } from './folder-status.ts';
import { compileIgnorePatterns } from './ignore-rules.ts';
import { ALL, mergePolicies, NONE, since, type InitialPolicy } from './initial-policy.ts';
import { pauseRun, resumeRun } from './pause-resume.ts';
import { restartFolder, startFolder } from './start-folder.ts';
import { stopObserving } from './stop-observing.ts';
import { isPaused, type FolderRun, type WatcherState } from './watcher-state.ts';

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, index) => item === b[index]);

function createRun(state: WatcherState, folder: WatchedFolder, initial: InitialPolicy): FolderRun {
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
    retryDelay: state.retry.initial,
    retryAt: 0,
    checking: false,
    pruneRules: '',
    excludes: null,
    excludedSeen: new Set(),
    excludedParents: new Map(),
  };
  if (run.ignore.invalid.length > 0) state.log('warn', `Ignoring invalid patterns for ${root}: ${run.ignore.invalid.join(', ')}`);
  if (isPaused(state, run)) {
    run.state = 'paused';
    // Files that land while the folder is paused are reported when it resumes.
    run.initial = mergePolicies(initial, since(Date.now()));
  } else {
    void startFolder(state, run);
  }
  return run;
}

/** Replaces the folder list. `catchUpSince`: the folders report what changed since then (the first list only). */
export function setFolders(state: WatcherState, folders: readonly WatchedFolder[], catchUpSince?: number): void {
  if (state.closed) return;
  const next = new Map<string, FolderRun>();
  const wanted = new Map(folders.map((folder) => [folder.id, folder]));
  for (const [id, run] of state.runs) {
    if (wanted.has(id)) continue;
    stopObserving(state, run);
  }
  for (const folder of wanted.values()) {
    const run = state.runs.get(folder.id);
    const initial = catchUpSince !== undefined ? since(catchUpSince) : folder.scanExisting ? ALL : NONE;
    if (!run || path.resolve(run.folder.path) !== path.resolve(folder.path)) {
      // A new folder (or a new path under an old id): scanExisting decides about what is there.
      if (run) stopObserving(state, run);
      next.set(folder.id, createRun(state, folder, initial));
      continue;
    }
    next.set(folder.id, run);
    updateRun(state, run, folder);
  }
  state.runs = next;
  notify(state);
}

/** The same folder with new settings: pauses, resumes or starts over as they say. */
function updateRun(state: WatcherState, run: FolderRun, folder: WatchedFolder): void {
  const wasPaused = isPaused(state, run);
  const optionsChanged = run.folder.recursive !== folder.recursive || !sameList(run.folder.ignore, folder.ignore);
  run.folder = folder;
  if (optionsChanged) run.ignore = compileIgnorePatterns(folder.ignore);
  const nowPaused = isPaused(state, run);
  if (nowPaused && !wasPaused) pauseRun(state, run);
  else if (!nowPaused && wasPaused) resumeRun(state, run);
  else if (!nowPaused && optionsChanged) void restartFolder(state, run);
  // A folder's own exclusions arrive here too (the matcher is rebuilt from the same settings).
  else if (!nowPaused) recheckExclusions(state, run);
}

/** Pauses or resumes one folder (its own setting); false when no folder has this id. */
export function setFolderPaused(state: WatcherState, id: string, paused: boolean): boolean {
  const run = state.runs.get(id);
  if (!run) return false;
  if (Boolean(run.folder.paused) !== paused) {
    setFolders(
      state,
      [...state.runs.values()].map((other) => (other === run ? { ...other.folder, paused } : other.folder)),
    );
  }
  return true;
}
