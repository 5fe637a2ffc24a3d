// Which entries a watched folder never reports: names of partial downloads and
// lock files (the complete file arrives later under its final name, by rename),
// anything that is not a regular file or a folder, and the folder's own globs.
import type { Stats } from 'node:fs';
import path from 'node:path';

/**
 * Partial-download and lock-file names, matched case-insensitively on the name.
 * Chrome/Edge `.crdownload`, Firefox `.part`, Safari `.download` (a folder on macOS),
 * Opera `.opdownload`, curl/wget-style `.partial`/`.tmp`, vim `.swp`,
 * Office owner files `~$…`, LibreOffice locks `.~lock.…`.
 */
export const PARTIAL_SUFFIXES: readonly string[] = ['.crdownload', '.part', '.partial', '.download', '.opdownload', '.tmp', '.swp'];
export const PARTIAL_PREFIXES: readonly string[] = ['~$', '.~lock.'];

export function isPartialName(name: string): boolean {
  const lower = name.toLowerCase();
  return PARTIAL_SUFFIXES.some((suffix) => lower.endsWith(suffix)) || PARTIAL_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Only regular files and folders are worth a look. FIFOs, sockets and devices
 * would block or never end if opened; symlinks are not followed (a link is not a
 * file that landed here, its target may be anywhere, and links make loops).
 */
export function isWatchableType(stats: Stats): boolean {
  return stats.isFile() || stats.isDirectory();
}

export interface IgnorePatterns {
  /** `relativePath` uses `/` separators and is relative to the watched folder. */
  matches(relativePath: string): boolean;
  /** No patterns at all: nothing to prune while scanning. */
  empty: boolean;
  /** Patterns that could not be parsed; they match nothing. */
  invalid: string[];
}

/**
 * Per-folder ignore globs (Node's `path.matchesGlob`, no extra dependency). As in
 * .gitignore, a pattern without `/` matches a name at any depth (`*.iso`,
 * `node_modules`); one with `/` matches from the folder's top (`build/**`).
 * An ignored folder is ignored with everything in it. A trailing `/` is dropped.
 */
export function compileIgnorePatterns(patterns: readonly string[]): IgnorePatterns {
  const byName: string[] = [];
  const byPath: string[] = [];
  const invalid: string[] = [];
  for (const raw of patterns) {
    const pattern = raw.trim().replace(/^\/+/, '').replace(/\/+$/, '');
    if (pattern === '') continue;
    try {
      path.posix.matchesGlob('probe', pattern);
    } catch {
      invalid.push(raw);
      continue;
    }
    (pattern.includes('/') ? byPath : byName).push(pattern);
  }
  const matches = (relativePath: string): boolean => {
    if (byName.length > 0) {
      const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
      if (byName.some((pattern) => path.posix.matchesGlob(name, pattern))) return true;
    }
    return byPath.some((pattern) => path.posix.matchesGlob(relativePath, pattern));
  };
  return { matches, empty: byName.length + byPath.length === 0, invalid };
}

/** True when any segment of a `/`-separated relative path is a partial-download name (Safari's `x.download/` is a folder). */
export function hasPartialSegment(relativePath: string): boolean {
  return relativePath.split('/').some(isPartialName);
}

/** `candidate` relative to `root` with `/` separators, or null when it is not inside `root`. Plain string work: this runs per scanned entry. */
export function relativeInside(root: string, candidate: string): string | null {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (!candidate.startsWith(prefix) || candidate.length === prefix.length) return null;
  const relative = candidate.slice(prefix.length);
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}
