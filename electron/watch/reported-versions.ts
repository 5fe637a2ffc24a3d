// Remembers the last version reported for recently reported paths, so a spurious
// event (chmod, touch of atime, a catch-up pass after pause) never reports the
// same (path, size, mtime, inode) twice. Bounded: the oldest paths are forgotten
// first; forgetting only costs a duplicate report, which the pipeline dedupes by
// sha256 anyway.
import type { FileVersion } from './settle-queue.ts';

export interface ReportedVersions {
  /** Records the version; false when this exact version of the path was the last one reported. */
  claim(path: string, version: FileVersion): boolean;
  forget(path: string): void;
  readonly size: number;
}

export function createReportedVersions(capacity: number): ReportedVersions {
  const last = new Map<string, string>();
  return {
    claim(path, version) {
      const key = `${version.size}:${version.mtimeMs}:${version.ino}`;
      const seen = last.get(path) === key;
      // Re-insert: a Map keeps insertion order, so the first key is the least recently used.
      last.delete(path);
      last.set(path, key);
      if (last.size > capacity) {
        const oldest = last.keys().next();
        if (!oldest.done) last.delete(oldest.value);
      }
      return !seen;
    },
    forget(path) {
      last.delete(path);
    },
    get size() {
      return last.size;
    },
  };
}
