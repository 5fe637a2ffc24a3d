// What one expansion remembers so that it yields each file and walks each folder once,
// kept to what can really come twice. A plain file met in a folder listing (not a link, one
// hard link) is reached again only through a link or a path naming it, and its folder is
// listed once: so it is not remembered (remembering every file cost about 100 bytes of heap
// per file, 20 MB in a 200,000-file scan). The second way in is checked instead: a file
// reached through a link or named directly is skipped when its folder's listing has begun
// (that listing yields it), and remembered when not (the listing, later, skips it).
import { fileKey } from './check-entry.ts';

export interface SeenEntries {
  /** Files that may be met again and were yielded: through a link, named directly, or with hard links. */
  files: Set<string>;
  /** Folders met (queued, listed or excluded): each is expanded once. */
  dirs: Set<string>;
  /** Folders whose listing has begun: each of their plain files is yielded by that listing. */
  listed: Set<string>;
}

export function createSeenEntries(): SeenEntries {
  return { files: new Set(), dirs: new Set(), listed: new Set() };
}

/** A plain file from a folder listing: yield it unless it was yielded another way; remember it only when it has hard links. */
export function firstPlainVisit(seen: SeenEntries, file: { dev: number; ino: number }, links: number): boolean {
  const key = fileKey(file);
  if (seen.files.has(key)) return false;
  if (links > 1) seen.files.add(key);
  return true;
}

/**
 * A file reached through a link or named directly (`folder`: the identity of the folder it
 * really lies in, null when unknown): yield it unless it was yielded, or its folder's listing
 * has begun and so yields it (or did); remembered when yielded, for that listing to skip it.
 */
export function firstOtherVisit(seen: SeenEntries, file: { dev: number; ino: number }, folder: { dev: number; ino: number } | null): boolean {
  const key = fileKey(file);
  if (seen.files.has(key)) return false;
  if (folder && seen.listed.has(fileKey(folder))) return false;
  seen.files.add(key);
  return true;
}
