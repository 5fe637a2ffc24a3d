// When Verdict's own clamd last read its database folder, kept as the time of a file in the
// data directory: set before clamd starts, and once it uses the databases of a RELOAD
// (reload-and-mark.ts), by whichever process runs it, and read by all of them
// for the signature identity (database-digest.ts): a database changed after it is not in clamd yet.
import { closeSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const MARK_FILE = 'clamd-databases-loaded';

/** Marks "clamd reads its folder from now on" (a clamd starting: it answers only once it has loaded). */
export function markDatabasesLoading(dataDir: string): void {
  markDatabasesLoadedAt(dataDir, Date.now());
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
