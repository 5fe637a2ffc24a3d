// A file scanned by its path through the clamd session client (electron/engine/clamd): the
// file is opened once, by its exact name bytes, and that descriptor goes to clamd (FILDES,
// or INSTREAM read from it where descriptors cannot go), so clamd scans exactly the file
// opened, whatever the path names later. When the caller says which file it hashed, a
// verdict for that same, unchanged file says so (`sameAsHashed`): the caller need not read
// it again to know the verdict is for the bytes it hashed.
import { closeSync, constants, fstatSync, openSync, type BigIntStats } from 'node:fs';
import type { ClamdClient, ClamdVerdict } from './clamd/clamd-client.ts';
import { identityOfStats, msOf, type FileIdentity } from './clamd/file-identity.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { parseInstreamReply } from './instream/clamd-protocol.ts';
import { EngineError, type EngineVerdict, type HashedIdentity } from './engine.ts';

/** The verdict of the file at `filePath`; `hashed`: the file the caller hashed, as it was when it opened it. */
export async function scanFileByDescriptor(client: ClamdClient, filePath: string, hashed: HashedIdentity | undefined, signal?: AbortSignal): Promise<EngineVerdict> {
  return (await scanOpened(client, filePath, hashed, false, signal))!;
}

/**
 * `onlyIfHashed`: a file that is not the one hashed, unchanged, is not scanned (null). Blocking calls: the engine runs in
 * a worker thread, where open, fstat and close cost a few µs, less than a hop to the thread pool and back.
 */
async function scanOpened(client: ClamdClient, filePath: string, hashed: HashedIdentity | undefined, onlyIfHashed: boolean, signal?: AbortSignal): Promise<EngineVerdict | null> {
  if (signal?.aborted) throw aborted(signal);
  let fd: number;
  let atOpen: FileIdentity;
  let same = false;
  try {
    // O_NONBLOCK: a path swapped for a FIFO opens at once (and is refused below) instead of blocking the thread.
    fd = openSync(fsPath(filePath), OPEN_FLAGS);
  } catch (error) {
    throw unreadable(error);
  }
  try {
    // The identity clamd's verdict must still hold at the end, then the caller's comparison: a change between the two
    // shows in one of them (the caller's, or the client's after the scan). One fstat serves both.
    const stats = fstatSync(fd, { bigint: true });
    atOpen = identityOfStats(stats);
    if (hashed !== undefined) same = isHashedFile(hashed, stats);
  } catch (error) {
    closeQuietly(fd);
    throw unreadable(error);
  }
  if (onlyIfHashed && !same) {
    closeQuietly(fd);
    return null;
  }
  // The descriptor stays open until the client is done with it, even when the caller stops waiting first:
  // a descriptor closed (and its number reused) while a command still reads or passes it would be another file.
  const scanning = client.scan(fd, { expect: atOpen, now: atOpen });
  void scanning.finally(() => closeQuietly(fd));
  const verdict = await untilAborted(scanning, signal);
  return { ...engineVerdictOf(verdict), ...(same ? { sameAsHashed: true } : {}) };
}

/**
 * Bytes in memory (a small file the caller hashed), by INSTREAM on the same session; or, while clamd takes descriptors
 * and the file they came from is still the one hashed, unchanged, by its descriptor: clamd then reads the file itself
 * instead of first writing the stream to a temporary file of its own.
 */
export async function scanBytesInSession(client: ClamdClient, content: Buffer, hashed: HashedIdentity | undefined, signal?: AbortSignal): Promise<EngineVerdict> {
  if (signal?.aborted) throw aborted(signal);
  if (hashed?.path !== undefined && hashed.ctimeMs !== undefined && client.transport === 'fildes') {
    const byDescriptor = await scanOpened(client, hashed.path, hashed, true, signal).catch((error: unknown) => {
      // Gone or unreadable now, or changed during the scan (file_changed): the bytes hashed are still here.
      if (signal?.aborted) throw error;
      return null;
    });
    if (byDescriptor?.sameAsHashed === true) return byDescriptor;
  }
  return engineVerdictOf(await client.scanStream(content, signal ? { signal } : {}));
}

/** The same file, unchanged since the caller opened it to hash it (the caller's times are in ms as Node's Stats give them). */
function isHashedFile(hashed: HashedIdentity, now: BigIntStats): boolean {
  if (Number(now.dev) !== hashed.dev || Number(now.ino) !== hashed.ino || Number(now.size) !== hashed.size || msOf(now.mtimeNs) !== hashed.mtimeMs) return false;
  // Without the caller's ctime a write that set mtime back cannot be told: not the same, as far as anyone can say.
  return hashed.ctimeMs !== undefined && msOf(now.ctimeNs) === hashed.ctimeMs;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing to do about a failed close of a file only read.
  }
}

// O_NONBLOCK: opening a FIFO or device returns at once instead of waiting for a writer (as the fingerprint opens files).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The client's verdict as the engines give theirs; an error is thrown, never a verdict. */
function engineVerdictOf(verdict: ClamdVerdict): EngineVerdict {
  if (verdict.kind === 'error') throw new EngineError(verdict.code, verdict.message);
  if (verdict.kind === 'clean') return parseInstreamReply('stream: OK\0');
  // Read as clamd's own reply would be, so findings are labelled as on every other path (infected, scanned in part).
  return parseInstreamReply(verdict.signatures.map((name) => `stream: ${name} FOUND\0`).join(''));
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(aborted(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

function aborted(signal: AbortSignal): EngineError {
  return new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
}

function unreadable(error: unknown): EngineError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  // The message names the error code, not the path (as file-chunks.ts).
  return new EngineError('file_unreadable', `the file to scan could not be read (${code})`, { cause: error });
}
