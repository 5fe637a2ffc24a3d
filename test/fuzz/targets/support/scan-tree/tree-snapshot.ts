// What the tree holds right before the final run, read back from disk by bytes
// (readdir with buffer names, lstat, never following a link), and where each
// symbolic link really leads. The oracle's expectations come from this, not
// from the description, so what the builder or a change did is what counts.
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isEicar } from './tree-spec.ts';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'fifo' | 'socket' | 'other';

export interface LinkInfo {
  /** The real path it leads to; null when it leads nowhere (dangling, a loop of links). */
  resolved: Buffer | null;
  /** Its text taken from its folder, no link followed: where it pointed even once its target is gone. */
  lexical: Buffer;
  /** Whether that lies inside the tree (the CLI's rule for following it). */
  inside: boolean;
  targetKind: EntryKind | null;
  targetSize: number;
}

export interface SnapshotEntry {
  path: Buffer;
  kind: EntryKind;
  /** dev:ino; hard links share it. */
  inode: string;
  nlink: number;
  size: number;
  /** Regular files only: whether the content is the EICAR test file. */
  eicar: boolean;
  link?: LinkInfo;
}

/** Entries by their path's bytes (latin1 keeps one character per byte). */
export type Snapshot = Map<string, SnapshotEntry>;

export const keyOf = (path: Buffer): string => path.toString('latin1');

const SLASH = Buffer.from('/');

/** The C library's realpath: fs.realpathSync's JavaScript one decodes a Buffer path as UTF-8 and loses a name that is not. */
export const realPath = (path: Buffer): Buffer => realpathSync.native(path, { encoding: 'buffer' });
export const joinBytes = (dir: Buffer, name: Buffer): Buffer => Buffer.concat([dir, SLASH, name]);

function kindOf(stats: Stats): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'dir';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  return 'other';
}

/** `path` is `root` or lies in it. */
function isWithin(path: Buffer, root: Buffer): boolean {
  return path.equals(root) || (path.length > root.length && path.subarray(0, root.length).equals(root) && path[root.length] === 0x2f);
}

function linkInfo(path: Buffer, realRoot: Buffer): LinkInfo {
  // latin1 keeps each byte as one character, so path.resolve works on any name.
  const lexical = Buffer.from(resolve(dirname(path.toString('latin1')), readlinkSync(path, { encoding: 'buffer' }).toString('latin1')), 'latin1');
  let resolved: Buffer;
  try {
    resolved = realPath(path);
  } catch {
    return { resolved: null, lexical, inside: false, targetKind: null, targetSize: 0 };
  }
  const stats = statSync(resolved);
  return { resolved, lexical, inside: isWithin(resolved, realRoot), targetKind: kindOf(stats), targetSize: stats.size };
}

function entryOf(path: Buffer, stats: Stats, realRoot: Buffer): SnapshotEntry {
  const kind = kindOf(stats);
  // Only a file small enough to be EICAR is read (a sparse 100 MB one is not).
  const eicar = kind === 'file' && stats.size <= 128 && isEicar(readFileSync(path));
  const entry: SnapshotEntry = { path, kind, inode: `${stats.dev}:${stats.ino}`, nlink: stats.nlink, size: stats.size, eicar };
  if (kind === 'symlink') entry.link = linkInfo(path, realRoot);
  return entry;
}

/** Every entry under `root` (the root itself left out), depth first. */
export function snapshotTree(root: Buffer): Snapshot {
  const realRoot = realPath(root);
  const snapshot: Snapshot = new Map();
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    for (const name of readdirSync(dir, { encoding: 'buffer' })) {
      const path = joinBytes(dir, name);
      const entry = entryOf(path, lstatSync(path), realRoot);
      snapshot.set(keyOf(path), entry);
      if (entry.kind === 'dir') pending.push(path);
    }
  }
  return snapshot;
}
