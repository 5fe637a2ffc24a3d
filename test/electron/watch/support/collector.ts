// A folder watcher whose reports and statuses are collected for assertions, plus
// bounded polling (tests wait for conditions, never for fixed times).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WatchedFolderStatus } from '../../../../shared/bridge/api.ts';
import { watchedFolderSchema, type WatchedFolder } from '../../../../shared/settings/settings.ts';
import { createFolderWatcher, type FolderWatcher, type FolderWatcherOptions, type ReadyFile } from '../../../../electron/watch/folder-watcher.ts';

export async function waitFor<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A folder with the settings' defaults (so new settings fields need no change here). */
export function folder(id: string, folderPath: string, overrides: Partial<WatchedFolder> = {}): WatchedFolder {
  return watchedFolderSchema.parse({ ...overrides, id, path: folderPath });
}

export async function makeTempDir(prefix = 'verdict-watch-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

export interface Collector {
  watcher: FolderWatcher;
  files: ReadyFile[];
  /** Every status list the watcher announced, in order. */
  history: WatchedFolderStatus[][];
  reportsOf(file: string): ReadyFile[];
  status(id: string): WatchedFolderStatus | undefined;
  waitForReport(file: string, what?: string): Promise<ReadyFile>;
  waitForState(id: string, state: WatchedFolderStatus['state']): Promise<WatchedFolderStatus>;
  /**
   * Writes a fresh file into `dir` and waits for its report, twice. The settle queue
   * releases files in the order their last event arrived; chokidar may hold an event a
   * few milliseconds (empty files: 10 ms), so the first barrier can overtake it. The
   * second is written a whole settle period later, after every earlier event has been
   * queued, so once it is reported, everything written before the call has been
   * reported too (or never will be).
   */
  barrier(dir: string): Promise<void>;
  close(): Promise<void>;
}

let barrierCount = 0;

export function collect(options: Omit<FolderWatcherOptions, 'onReady'>): Collector {
  const files: ReadyFile[] = [];
  const history: WatchedFolderStatus[][] = [];
  const watcher = createFolderWatcher({ settleMs: 300, checkIntervalMs: 100, retryMs: { initial: 100, max: 400 }, ...options, onReady: (file) => void files.push(file) });
  watcher.onStatus((statuses) => void history.push(statuses));
  const reportsOf = (file: string): ReadyFile[] => files.filter((report) => report.path === file);
  const status = (id: string): WatchedFolderStatus | undefined => watcher.statuses().find((entry) => entry.folder.id === id);
  const waitForReport = (file: string, what = `a report of ${file}`): Promise<ReadyFile> => waitFor(what, () => reportsOf(file)[0]);
  return {
    watcher,
    files,
    history,
    reportsOf,
    status,
    waitForReport,
    waitForState: (id, state) => waitFor(`folder ${id} to be ${state} (now ${status(id)?.state})`, () => (status(id)?.state === state ? status(id) : undefined)),
    async barrier(dir) {
      for (let round = 0; round < 2; round += 1) {
        barrierCount += 1;
        const file = path.join(dir, `barrier-${process.pid}-${barrierCount}.txt`);
        await fs.writeFile(file, `barrier ${barrierCount}`);
        await waitForReport(file, `the barrier file ${file}`);
      }
    },
    close: () => watcher.close(),
  };
}
