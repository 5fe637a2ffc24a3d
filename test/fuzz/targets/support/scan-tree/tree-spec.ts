// What one scan-tree round is, as JSON (a corpus entry rebuilds it exactly): the
// tree's entries, each named by raw bytes (base64 path segments from the tree's
// root), and the plan of CLI runs over one data directory.

/** Base64 of one name's raw bytes: a name need not be UTF-8. */
export type Name = string;
/** Names from the tree's root down to the entry. */
export type EntryPath = Name[];

/** File contents; `eicar` and `eicar-padded` are the EICAR test file by its definition, the others are not. */
export const BODIES = ['eicar', 'eicar-padded', 'near-eicar', 'eicar-tail', 'text', 'text68', 'empty'] as const;
export type Body = (typeof BODIES)[number];

export type LinkTarget =
  | { to: 'entry'; path: EntryPath; absolute: boolean }
  | { to: 'outside-file' }
  | { to: 'outside-dir' }
  | { to: 'missing' }
  | { to: 'self' }
  /** `..` this many times (0: `.`): a folder that holds the link, or past the root. */
  | { to: 'up'; levels: number };

export type EntrySpec =
  | { kind: 'dir'; path: EntryPath }
  /** `size`: the file is then truncated (sparse) to this many bytes. */
  | { kind: 'file'; path: EntryPath; body: Body; size?: number }
  | { kind: 'hardlink'; path: EntryPath; to: EntryPath }
  | { kind: 'symlink'; path: EntryPath; target: LinkTarget }
  | { kind: 'fifo' | 'socket'; path: EntryPath }
  /** A folder of `count` small files named f0, f1, …; every `eicarEvery`th one (from f0) EICAR, none when 0. Enough files for a stop to land mid-scan. */
  | { kind: 'many'; path: EntryPath; count: number; eicarEvery: number };

export type Change =
  | { op: 'add'; atMs: number; path: EntryPath; body: Body }
  | { op: 'remove'; atMs: number; path: EntryPath }
  /** In place (same inode): every hard link of the file changes too. */
  | { op: 'rewrite'; atMs: number; path: EntryPath; body: Body };

export interface EarlierRun {
  /** A signal this long after the start (none when the run has ended by then). */
  stop: { signal: 'SIGINT' | 'SIGKILL'; afterMs: number } | null;
  /** Applied while the run goes on (or, when it ended first, right after it). */
  changes: Change[];
}

export interface RunPlan {
  before: EarlierRun[];
  /** The data directory is a tmpfs of this many KiB during the earlier runs, remounted to 256 MiB for the final one. */
  smallDiskKb: number | null;
  /** Changes while the final run goes on: the files they touch are not held to the exact rules. */
  finalChanges: Change[];
}

export interface TreeSpec {
  entries: EntrySpec[];
  plan: RunPlan;
}

/** The intake's size limit (shared/service-contract/limits.ts), restated: the oracle keeps its own copy of each rule. */
export const SIZE_LIMIT = 100 * 1024 * 1024;

export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

export function bodyBytes(body: Body): Buffer {
  switch (body) {
    case 'eicar':
      return EICAR;
    case 'eicar-padded':
      return Buffer.concat([EICAR, Buffer.from('\r\n \t\x1a', 'latin1')]);
    case 'near-eicar':
      return Buffer.concat([EICAR.subarray(0, 67), Buffer.from('!')]);
    case 'eicar-tail':
      return Buffer.concat([EICAR, Buffer.from('x')]);
    case 'text':
      return Buffer.from('plain text\n');
    case 'text68':
      // As long as EICAR: a verdict kept by size and time would show here.
      return Buffer.alloc(68, 'a');
    case 'empty':
      return Buffer.alloc(0);
  }
}

const EICAR_PADDING = new Set([0x20, 0x09, 0x0a, 0x0d, 0x1a]);

/** The EICAR test file's definition: the 68 bytes first, then only padding, 128 bytes at most. */
export function isEicar(content: Buffer): boolean {
  if (content.length < EICAR.length || content.length > 128) return false;
  return content.subarray(0, EICAR.length).equals(EICAR) && content.subarray(EICAR.length).every((byte) => EICAR_PADDING.has(byte));
}

const SLASH = Buffer.from('/');

const nameBytes = (name: Name): Buffer => Buffer.from(name, 'base64');

/** An entry's path below `root` as bytes. */
export function pathBytes(root: Buffer, path: EntryPath): Buffer {
  return Buffer.concat([root, ...path.flatMap((name) => [SLASH, nameBytes(name)])]);
}
