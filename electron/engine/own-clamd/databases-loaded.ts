// When Verdict's own clamd last read its database folder, kept as the time of a file in the
// data directory: set before clamd starts and before each RELOAD, by whichever process sends it
// (the service thread starts clamd, the core reloads it after an update), and read by all of them
// for the signature identity (database-digest.ts): a database changed after it is not in clamd yet.
import { closeSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const MARK_FILE = 'clamd-databases-loaded';

/** Marks "clamd reads its folder from now on"; returns how to take the mark back if it then did not. */
export function markDatabasesLoading(dataDir: string): () => void {
  const file = join(dataDir, MARK_FILE);
  const before = databasesLoadedAt(dataDir);
  try {
    closeSync(openSync(file, 'a', 0o600));
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Not marked: the identity then falls back to clamd's start (its pid file), earlier than any reload.
  }
  return () => {
    try {
      if (before !== null) utimesSync(file, new Date(before), new Date(before));
    } catch {
      // As above.
    }
  };
}

/** Marks "clamd has read its folder as it was at `atMs`" (reload-and-mark.ts, once clamd switched to it). */
export function markDatabasesLoadedAt(dataDir: string, atMs: number): void {
  const file = join(dataDir, MARK_FILE);
  try {
    closeSync(openSync(file, 'a', 0o600));
    utimesSync(file, new Date(atMs), new Date(atMs));
  } catch {
    // Not marked: the identity falls back to the last mark or clamd's start, earlier than this load.
  }
}

/** The mark's time (ms since the epoch), or null when there is none. */
export function databasesLoadedAt(dataDir: string): number | null {
  try {
    return statSync(join(dataDir, MARK_FILE), { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}
