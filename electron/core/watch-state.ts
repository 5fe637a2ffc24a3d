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

/** The time in a watch-state file's text, or null for no file or a damaged one. Never throws (the fuzzer runs it on any text). */
export function readWatchStateText(text: string | null): number | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as { lastWatchedAt?: unknown } | null;
    const at = parsed?.lastWatchedAt;
    return typeof at === 'number' && Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

export async function openWatchState(dataDir: string, onError: (error: unknown) => void = () => {}): Promise<WatchState> {
  const file = join(dataDir, WATCH_STATE_FILE);
  // First start, or an unreadable file: no catch-up (each folder's scanExisting decides).
  const lastWatchedAt = readWatchStateText(await readFile(file, 'utf8').catch(() => null));
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
