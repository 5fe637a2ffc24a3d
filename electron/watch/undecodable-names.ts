// Files whose names are not UTF-8 in a watched folder. chokidar takes and reports paths as
// strings Node decoded lossily (U+FFFD for each invalid sequence): such a file is never reported,
// since its lossy path names no file (or another one) and chokidar's stat of it fails. Two ways
// find them anyway, each listing the folder as bytes (file-names/fs-path.ts):
// - a live event: chokidar's `raw` event carries fs.watch's lossy name and the folder watched. A
//   name holding U+FFFD sends that folder to be listed; each entry whose lossy decoding equals the
//   reported name and which is not valid UTF-8 (the valid ones are chokidar's: a real U+FFFD) is
//   taken as an added or changed file. Events of one folder within RELIST_MS share one listing.
// - a folder chokidar lists (`addDir`: a start's scan of what is there, a folder moved in): its
//   entries whose names are not UTF-8 are taken as chokidar's own would be.
// A folder whose own name is not UTF-8 is not watched: chokidar cannot watch it.
import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fsPath, nameOf } from '../file-names/fs-path.ts';
import { onFile } from './file-events.ts';
import type { FolderRun, WatcherState } from './watcher-state.ts';

const RELIST_MS = 100;

export interface UndecodableNames {
  /** chokidar's `raw` event (name: as fs.watch decoded it; details.watchedPath: the folder). */
  onRaw(name: string | null | undefined, details: { watchedPath?: string } | undefined): void;
  /** chokidar's `addDir`: a folder it has listed. */
  onFolder(folder: string): void;
}

/** For one start of a folder (its generation): every callback bails once the folder moved on. */
export function undecodableNames(state: WatcherState, run: FolderRun, generation: number): UndecodableNames {
  /** Folders to list again, with the lossy names reported in each. */
  const pending = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | null = null;
  const current = () => !state.closed && generation === run.generation;

  const flush = () => {
    timer = null;
    const folders = [...pending];
    pending.clear();
    for (const [folder, names] of folders) void takeEntries(state, run, generation, folder, { names, initial: false });
  };
  return {
    onRaw(name, details) {
      if (!current() || !name?.includes('\uFFFD') || !details?.watchedPath) return;
      const folder = details.watchedPath;
      pending.set(folder, (pending.get(folder) ?? new Set()).add(path.basename(name)));
      timer ??= setTimeout(flush, RELIST_MS);
    },
    onFolder(folder) {
      if (current()) void takeEntries(state, run, generation, folder, { names: null, initial: !run.ready });
    },
  };
}

/**
 * Lists `folder` as bytes and hands each regular file whose name is not UTF-8 to onFile;
 * `names`: only those whose lossy decoding is one of them (null: all). Never rejects.
 */
async function takeEntries(state: WatcherState, run: FolderRun, generation: number, folder: string, want: { names: Set<string> | null; initial: boolean }): Promise<void> {
  let entries;
  try {
    entries = await readdir(fsPath(folder), { encoding: 'buffer', withFileTypes: true });
  } catch {
    return; // Gone or unreadable: chokidar reports the folder's own trouble.
  }
  for (const entry of entries) {
    const lossy = entry.name.toString('utf8');
    // Without U+FFFD the name was valid UTF-8: chokidar's own (most entries: nothing more is done).
    if (!lossy.includes('\uFFFD') || (want.names !== null && !want.names.has(lossy)) || !entry.isFile()) continue;
    const exact = nameOf(entry.name);
    if (exact === lossy) continue;
    const file = path.join(folder, exact);
    const stats: Stats | null = await lstat(fsPath(file)).catch(() => null);
    if (!stats?.isFile() || generation !== run.generation) continue;
    onFile(state, run, generation, file, stats, 'add', want.initial);
  }
}
