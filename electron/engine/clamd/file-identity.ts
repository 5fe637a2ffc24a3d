// Whether an open file's content may have changed between two looks at it. A descriptor
// pins the file (a rename over its path or an unlink does not touch what clamd reads),
// but not its content: a write or a truncate through any other descriptor does. So a
// verdict stands for the bytes the caller hashed only when this says "unchanged".
import { fstatSync, type BigIntStats } from 'node:fs';

export interface FileIdentity {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  nlink: bigint;
}

/** The identity of an open regular file; throws (EBADF …) when it cannot be read, or ENOTFILE. */
export function identityOf(fd: number): FileIdentity {
  return identityOfStats(fstatSync(fd, { bigint: true }));
}

/** The same from an fstat the caller took (with bigint: true), so one fstat serves it and the caller. */
export function identityOfStats(stats: BigIntStats): FileIdentity {
  if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
  return { size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, nlink: stats.nlink };
}

/** A time in ms exactly as Node's Stats give it (sec * 1e3 + nsec / 1e6), from the ns of a bigint stat. */
export function msOf(ns: bigint): number {
  return Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6;
}

/**
 * Changed when the size or mtime moved, or ctime moved without a change of link count:
 * ctime also moves on a rename over the path, an unlink or a new link, which leave the
 * content alone, but it cannot be set back by hand, so a write whose mtime was restored
 * still shows. (A chmod counts as a change: harmless, the file is scanned again.)
 */
export function contentMayHaveChanged(before: FileIdentity, after: FileIdentity): boolean {
  if (before.size !== after.size || before.mtimeNs !== after.mtimeNs) return true;
  return before.ctimeNs !== after.ctimeNs && before.nlink === after.nlink;
}
