// What the final run must print for each entry of the tree, by README's rules:
// - a regular file within the limit: exactly one line, a threat when it is the
//   EICAR test file, else safe. A hard link is a path of its own. A link met in
//   the tree whose real target lies inside is followed: its line, if any, stands
//   for the target (the intake yields a file reached twice once), so the file and
//   the links to it share that one line;
// - a file over the limit, a FIFO, a socket, a dangling link or a loop of links:
//   exactly one line, could-not-scan; a link leading out of the tree: one SKIP line;
// - a link to a folder inside: no line, or one could-not-scan line when the walk
//   meets it as a loop back into a folder it came through (that depends on the
//   order the walk reached folders in);
// - a folder: no line of its own; entered through a link, a could-not-scan line
//   where it closes a loop of links.
// Entries a change touched (in any run) keep only what must still hold.
import { SIZE_LIMIT, pathBytes, type Change } from './tree-spec.ts';
import { keyOf, type Snapshot, type SnapshotEntry } from './tree-snapshot.ts';

/** `basic-only`: a clean file, as the built-in engine the runs use judges it (never plain `safe`). */
export type Verdict = 'basic-only' | 'unsafe' | 'skipped' | 'could-not-scan';

export type Rule =
  /** Exactly one line of its own or of a link standing for it, with this verdict, among the paths of its `group`. */
  | { rule: 'covered'; verdict: Verdict; group: string }
  | { rule: 'once'; verdict: Verdict }
  | { rule: 'optional'; verdict: Verdict }
  /** A followed link: an optional line that stands for the file `target` (a key). */
  | { rule: 'alias'; target: string }
  | { rule: 'none' };

export interface Expectation {
  entry: SnapshotEntry;
  rule: Rule;
  /** A change made or removed it: it may be missing. */
  mayVanish: boolean;
  /** A change touched it or what it leads to: any verdict. */
  anyVerdict: boolean;
}

/**
 * The rule for a file with several hard links under the scanned paths: one line for the inode, under the
 * first name met (electron/intake/seen-entries.ts, README), as for a file also reached through a symbolic
 * link. true: a line for each name (not what Verdict does; see the README's note on hard links).
 */
const HARD_LINKS_COUNT_APART = false;

function ruleFor(entry: SnapshotEntry, key: string): Rule {
  switch (entry.kind) {
    case 'dir':
      return { rule: 'none' };
    case 'file': {
      if (entry.size > SIZE_LIMIT) return { rule: 'once', verdict: 'could-not-scan' };
      return { rule: 'covered', verdict: entry.eicar ? 'unsafe' : 'basic-only', group: HARD_LINKS_COUNT_APART ? key : `inode ${entry.inode}` };
    }
    case 'symlink':
      return linkRule(entry);
    default:
      return { rule: 'once', verdict: 'could-not-scan' };
  }
}

function linkRule(entry: SnapshotEntry): Rule {
  const link = entry.link!;
  if (link.resolved === null) return { rule: 'once', verdict: 'could-not-scan' };
  if (!link.inside) return { rule: 'once', verdict: 'skipped' };
  if (link.targetKind === 'dir') return { rule: 'optional', verdict: 'could-not-scan' };
  if (link.targetKind === 'file' && link.targetSize <= SIZE_LIMIT) return { rule: 'alias', target: keyOf(link.resolved) };
  return { rule: 'once', verdict: 'could-not-scan' };
}

/** Keys of entries a change made or removed (in any run), and every path of an inode a change rewrote. */
function touchedBy(changes: readonly Change[], root: Buffer, snapshot: Snapshot): { vanishing: Set<string>; rewritten: Set<string> } {
  const vanishing = new Set<string>();
  const rewrittenInodes = new Set<string>();
  for (const change of changes) {
    const key = keyOf(pathBytes(root, change.path));
    if (change.op !== 'rewrite') vanishing.add(key);
    else {
      const inode = snapshot.get(key)?.inode;
      if (inode) rewrittenInodes.add(inode);
    }
  }
  const rewritten = new Set([...snapshot].filter(([, entry]) => rewrittenInodes.has(entry.inode)).map(([key]) => key));
  return { vanishing, rewritten };
}

export interface Expectations {
  byKey: Map<string, Expectation>;
  /** Paths a change made or removed: not in the tree, a line each at most (a continued job may list what it saw), any verdict. */
  vanishing: Set<string>;
}

/**
 * `changes`: those made in the earlier runs and those planned for the final one. A file
 * a change touched at any time is not held to the exact rules: a job continued after
 * an interruption lists what it saw then (a file removed since, an earlier content).
 */
export function expectationsFor(snapshot: Snapshot, root: Buffer, changes: readonly Change[]): Expectations {
  const { vanishing, rewritten } = touchedBy(changes, root, snapshot);
  const unsettled = (key: string) => vanishing.has(key) || rewritten.has(key);
  const byKey = new Map<string, Expectation>();
  for (const [key, entry] of snapshot) {
    const rule = ruleFor(entry, key);
    // A link's target as it is now, and as its text names it (a removed target leaves it dangling).
    const targets = entry.link ? [entry.link.resolved, entry.link.lexical].filter((path) => path !== null).map(keyOf) : [];
    byKey.set(key, { entry, rule, mayVanish: vanishing.has(key), anyVerdict: unsettled(key) || targets.some(unsettled) });
  }
  return { byKey, vanishing };
}
