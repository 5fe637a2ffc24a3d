// The fingerprint with blocking reads, for the fingerprint thread (fingerprint-thread.ts):
// there a file is read with a few system calls and one reused buffer, where the async
// version pays a promise and a thread-pool round trip per call and a buffer per file.
// Also takes the stat of the path after the read, which the pipeline compares with the
// fstat at open (prepare.ts). Same results and errors as fingerprintFile.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { fsPath } from '../file-names/fs-path.ts';
import { DEFAULT_CHUNK_SIZE, digestSet, FingerprintError, OPEN_FLAGS, openError, readError, type DigestName, type FileIdentity, type Fingerprint } from './fingerprint.ts';

/** A stat of the path after the read (null when it failed: the caller stats again and words the failure). */
export type PathStat = (FileIdentity & { isFile: boolean }) | null;

export type SyncFingerprint =
  | { kind: 'digests'; fingerprint: Fingerprint; after: PathStat }
  /** The file opened is over `maxSize` bytes: nothing was read. */
  | { kind: 'too_large'; size: number };

export interface SyncFingerprintOptions {
  keepContentUpTo?: number;
  digests?: readonly DigestName[];
  /** Files larger than this are refused unread. */
  maxSize?: number;
}

/** The read buffer of files larger than `keepContentUpTo`, reused from file to file (one per thread). */
let scratch: Buffer | null = null;

export function fingerprintFileSync(filePath: string, options: SyncFingerprintOptions = {}): SyncFingerprint {
  let fd: number;
  try {
    fd = openSync(fsPath(filePath), OPEN_FLAGS);
  } catch (error) {
    throw openError(filePath, error);
  }
  let fingerprint: Fingerprint;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new FingerprintError('not_regular_file', `${filePath} is not a regular file any more; it was not read.`);
    if (options.maxSize !== undefined && info.size > options.maxSize) return { kind: 'too_large', size: info.size };
    const opened: FileIdentity = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, dev: info.dev, ino: info.ino };
    // A file kept whole gets a buffer of its own (+1 byte: its end shows as a short read), one that can be
    // handed to another thread; a larger one is read through the reused buffer.
    const keep = info.size <= (options.keepContentUpTo ?? 0);
    const buffer = keep ? Buffer.allocUnsafeSlow(info.size + 1) : (scratch ??= Buffer.allocUnsafeSlow(DEFAULT_CHUNK_SIZE));
    const hashes = digestSet(options.digests);
    let position = 0;
    let reads = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      reads++;
      hashes.update(buffer.subarray(0, bytesRead));
      // A short read that reached the size seen at open is the end (growth shows in the stat after).
      if (bytesRead < buffer.length && position >= info.size) break;
    }
    fingerprint = { ...hashes.finish(), bytesRead: position, opened };
    if (keep && reads <= 1 && position === info.size) fingerprint.content = buffer.subarray(0, position);
  } catch (error) {
    if (error instanceof FingerprintError) throw error;
    throw readError(filePath, error);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do about a failed close of a file only read.
    }
  }
  return { kind: 'digests', fingerprint, after: statAfter(filePath) };
}

function statAfter(filePath: string): PathStat {
  try {
    const after = statSync(fsPath(filePath));
    return { size: after.size, mtimeMs: after.mtimeMs, dev: after.dev, ino: after.ino, isFile: after.isFile() };
  } catch {
    return null;
  }
}
