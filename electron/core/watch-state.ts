// When this data dir last stopped watching (app closed, crashed, or all folders
// paused), so the next start catches up on files that landed meanwhile instead
// of missing them (or rescanning every folder in full). A crash never calls
// close(), so the time is also refreshed every minute while watching.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-write.ts';

export const WATCH_STATE_FILE = 'watch-state.json';
const HEARTBEAT_MS = 60_000;

export interface WatchState {
  /** Epoch ms of the last moment watching was known to run, or null on a first start. */
  readonly lastWatchedAt: number | null;
  /** Watching runs (refresh the time now and every minute) or stops (record now, stop refreshing). */
  setRunning(running: boolean): void;
  close(): Promise<void>;
}

export async function openWatchState(dataDir: string, onError: (error: unknown) => void = () => {}): Promise<WatchState> {
  const file = join(dataDir, WATCH_STATE_FILE);
  let lastWatchedAt: number | null = null;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { lastWatchedAt?: unknown };
    if (typeof parsed.lastWatchedAt === 'number' && Number.isFinite(parsed.lastWatchedAt)) lastWatchedAt = parsed.lastWatchedAt;
  } catch {
    // First start, or a damaged file: no catch-up (each folder's scanExisting decides).
  }
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    const at = Date.now();
    writing = writing.then(() => writeFileAtomic(file, `${JSON.stringify({ lastWatchedAt: at })}\n`)).catch(onError);
  };
  return {
    lastWatchedAt,
    setRunning(running) {
      write();
      if (running && !timer) {
        timer = setInterval(write, HEARTBEAT_MS);
        timer.unref();
      } else if (!running && timer) {
        clearInterval(timer);
        timer = null;
      }
    },
    async close() {
      if (timer) {
        clearInterval(timer);
        timer = null;
        write();
      }
      await writing;
    },
  };
}
