// Feed files that must leave the database folder: those of a feed switched off or removed, and
// those of a URL no longer in its feed. Only files named as Verdict names feed files are touched.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FEED_FILE_PREFIX, type FeedsState } from './feeds-state.ts';
import { removeSignatureNames } from './signature-names.ts';

/** Removes them; returns how many went (a RELOAD is due when any did). */
export function pruneFeedFiles(state: FeedsState): number {
  const wanted = new Set<string>();
  for (const feed of state.feeds) {
    if (!feed.enabled) continue;
    for (const file of feed.files) if (file.file !== null && feed.urls.includes(file.url)) wanted.add(file.file);
  }
  let names: string[];
  try {
    names = readdirSync(state.databaseDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(FEED_FILE_PREFIX) || wanted.has(name)) continue;
    rmSync(join(state.databaseDir, name), { force: true });
    removeSignatureNames(state.namesDir, name);
    removed += 1;
  }
  // The feeds' records follow: a file no longer in the folder is not installed.
  state.feeds = state.feeds.map((feed) => ({
    ...feed,
    files: feed.files.filter((file) => feed.urls.includes(file.url)).map((file) => (file.file !== null && !wanted.has(file.file) ? { ...file, file: null, signatures: null, etag: null, lastModified: null } : file)),
  }));
  return removed;
}
