// md5, sha1 and sha256 of a file (or only some of them) in one read pass. The next chunk is read
// (thread pool) while the current one is hashed (this thread), so the disk
// and the CPU work at the same time. Opens without blocking and refuses
// anything but a regular file, so a path swapped for a FIFO cannot hang it.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fsPath } from '../file-names/fs-path.ts';

export type DigestName = 'md5' | 'sha1' | 'sha256';

export interface Fingerprint {
  /** Absent when `digests` did not ask for it. */
  md5?: string;
  sha1?: string;
  sha256: string;
  /** Bytes actually hashed: differs from the size at intake when the file changed meanwhile. */
  bytesRead: number;
  /** The file read, as it was when it was opened (fstat): compared with a stat after the read, it says whether the file changed meanwhile. */
  opened: FileIdentity;
  /**
   * The bytes hashed, when `keepContentUpTo` asked for them and the file was that small:
   * the caller can upload exactly what was fingerprinted without reading the file again.
   */
  content?: Buffer;
}

export interface FileIdentity {
  size: number;
  mtimeMs: number;
  /** Moves with any write, even one whose mtime was set back: an engine compares it to vouch for the file it scanned. */
  ctimeMs?: number;
  dev: number;
  ino: number;
}

export interface FingerprintOptions {
  /** Stops the read; the promise rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
  /** Called after each chunk with the bytes hashed so far. */
  onProgress?: (bytesRead: number) => void;
  /** The file's identity at intake: a different file at the path is `file_changed`. */
  expect?: { dev: number; ino: number };
  /** Bytes per read (default 1 MiB). */
  chunkSize?: number;
  /** Return the content of files up to this many bytes (read in one go anyway). Default 0: never. */
  keepContentUpTo?: number;
  /**
   * The digests besides sha256 (always computed): default md5 and sha1 as well. md5 costs more
   * than sha1 and sha256 together (no CPU instructions for it), so a caller that gets them
   * elsewhere leaves them out.
   */
  digests?: readonly DigestName[];
  /** Looks at the file opened before anything is read: the error it returns (e.g. too large) is thrown as it is. */
  refuse?: (opened: FileIdentity) => Error | undefined;
}

export type FingerprintErrorCode = 'not_found' | 'unreadable' | 'not_regular_file' | 'file_changed' | 'read_failed';

/** For `read_failed` and `file_changed`: the file, and for `read_failed` the system's reason and whether opening or reading failed (the caller words it). */
export interface FingerprintErrorDetail {
  path: string;
  reason?: string;
  phase?: 'open' | 'read';
}

export class FingerprintError extends Error {
  readonly code: FingerprintErrorCode;
  readonly detail: FingerprintErrorDetail | undefined;
  constructor(code: FingerprintErrorCode, message: string, options?: { cause?: unknown; detail?: FingerprintErrorDetail }) {
    super(message, options);
    this.name = 'FingerprintError';
    this.code = code;
    this.detail = options?.detail;
  }
}

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
export const ALL_DIGESTS: readonly DigestName[] = ['md5', 'sha1', 'sha256'];

// O_NONBLOCK: opening a FIFO or device returns at once instead of waiting for a writer.
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export async function fingerprintFile(filePath: string, options: FingerprintOptions = {}): Promise<Fingerprint> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  let handle: FileHandle;
  try {
    handle = await open(fsPath(filePath), OPEN_FLAGS);
  } catch (error) {
    throw openError(filePath, error);
  }
  let inFlight: Promise<unknown> | null = null;
  let refused: Error | undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FingerprintError('not_regular_file', `${filePath} is not a regular file any more; it was not read.`);
    if (options.expect && (info.dev !== options.expect.dev || info.ino !== options.expect.ino)) {
      throw new FingerprintError('file_changed', `${filePath} was replaced by another file after it was queued.`, { detail: { path: filePath } });
    }
    const opened: FileIdentity = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, dev: info.dev, ino: info.ino };
    refused = options.refuse?.(opened);
    if (refused) throw refused;

    // Buffers no larger than the file (+1, so its end shows as a short read): a 4 KB file
    // must not cost two 1 MiB allocations, which the GC pays for many times over.
    const size = Math.max(1, Math.min(options.chunkSize ?? DEFAULT_CHUNK_SIZE, info.size + 1));
    let current: Buffer = Buffer.allocUnsafe(size);
    let spare: Buffer | null = null;
    const hashes = digestSet(options.digests);
    let position = 0;
    let reads = 0;

    const readAt = (buffer: Buffer, at: number) => {
      const read = handle.read(buffer, 0, buffer.length, at);
      inFlight = read.catch(() => {});
      return read;
    };
    let pending: Promise<{ bytesRead: number }> | null = readAt(current, 0);
    while (pending) {
      const { bytesRead }: { bytesRead: number } = await pending;
      if (bytesRead === 0) break;
      position += bytesRead;
      reads++;
      // A short read that reached the size seen at open is the end: no need to ask for the 0.
      // (A file that grows meanwhile is caught by the caller comparing bytesRead with a stat.)
      const more: boolean = bytesRead === current.length || position < info.size;
      spare ??= more ? Buffer.allocUnsafe(size) : null;
      pending = more && spare ? readAt(spare, position) : null;
      const chunk = current.subarray(0, bytesRead);
      hashes.update(chunk);
      if (spare) [current, spare] = [spare, current];
      onProgress?.(position);
      signal?.throwIfAborted();
    }
    inFlight = null;
    const digests: Fingerprint = { ...hashes.finish(), bytesRead: position, opened };
    // One read into a buffer of its own (no spare was ever swapped in): the whole file, and nobody else's buffer.
    const keep = reads === 1 && spare === null && position <= (options.keepContentUpTo ?? 0);
    return keep ? { ...digests, content: current.subarray(0, position) } : digests;
  } catch (error) {
    if (error instanceof FingerprintError || error === refused || signal?.aborted) throw error;
    throw readError(filePath, error);
  } finally {
    // Never close the descriptor under a read still running in the thread pool.
    await inFlight;
    await handle.close().catch(() => {});
  }
}

/** The digests asked for (sha256 always), fed the same chunks: one for the async read and the blocking one. */
export function digestSet(wanted: readonly DigestName[] = ALL_DIGESTS): { update(chunk: Buffer): void; finish(): Pick<Fingerprint, 'sha256' | 'md5' | 'sha1'> } {
  const md5 = wanted.includes('md5') ? createHash('md5') : null;
  const sha1 = wanted.includes('sha1') ? createHash('sha1') : null;
  const sha256 = createHash('sha256');
  return {
    update(chunk) {
      md5?.update(chunk);
      sha1?.update(chunk);
      sha256.update(chunk);
    },
    finish() {
      const done: Pick<Fingerprint, 'sha256' | 'md5' | 'sha1'> = { sha256: sha256.digest('hex') };
      if (md5) done.md5 = md5.digest('hex');
      if (sha1) done.sha1 = sha1.digest('hex');
      return done;
    },
  };
}

export function readError(filePath: string, error: unknown): FingerprintError {
  return new FingerprintError('read_failed', `${filePath} could not be read: ${(error as Error).message}`, {
    cause: error,
    detail: { path: filePath, reason: (error as Error).message, phase: 'read' },
  });
}

export function openError(filePath: string, error: unknown): FingerprintError {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new FingerprintError('not_found', `${filePath} no longer exists.`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new FingerprintError('unreadable', `${filePath} cannot be read: permission denied.`, { cause: error });
    case 'ELOOP':
      return new FingerprintError('not_found', `${filePath} is a symbolic link loop.`, { cause: error });
    default:
      return new FingerprintError('read_failed', `${filePath} could not be opened: ${(error as Error).message}`, {
        cause: error,
        detail: { path: filePath, reason: (error as Error).message, phase: 'open' },
      });
  }
}
