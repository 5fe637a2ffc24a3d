// A file scanned by its path through the clamd session client (electron/engine/clamd): the
// file is opened once, by its exact name bytes, and that descriptor goes to clamd (FILDES,
// or INSTREAM read from it where descriptors cannot go), so clamd scans exactly the file
// opened, whatever the path names later. When the caller says which file it hashed, a
// verdict for that same, unchanged file says so (`sameAsHashed`): the caller need not read
// it again to know the verdict is for the bytes it hashed.
import { open, type FileHandle } from 'node:fs/promises';
import type { ClamdClient, ClamdVerdict } from './clamd/clamd-client.ts';
import { identityOf, type FileIdentity } from './clamd/file-identity.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { parseInstreamReply } from './instream/clamd-protocol.ts';
import { EngineError, type EngineVerdict, type HashedIdentity } from './engine.ts';

/** The verdict of the file at `filePath`; `hashed`: the file the caller hashed, as it was when it opened it. */
export async function scanFileByDescriptor(client: ClamdClient, filePath: string, hashed: HashedIdentity | undefined, signal?: AbortSignal): Promise<EngineVerdict> {
  return (await scanOpened(client, filePath, hashed, false, signal))!;
}

/** `onlyIfHashed`: a file that is not the one hashed, unchanged, is not scanned (null). */
async function scanOpened(client: ClamdClient, filePath: string, hashed: HashedIdentity | undefined, onlyIfHashed: boolean, signal?: AbortSignal): Promise<EngineVerdict | null> {
  if (signal?.aborted) throw aborted(signal);
  let handle: FileHandle;
  let atOpen: FileIdentity;
  let same = false;
  try {
    handle = await open(fsPath(filePath), 'r');
  } catch (error) {
    throw unreadable(error);
  }
  try {
    // The identity clamd's verdict must still hold at the end, then the caller's comparison: a change between the two
    // shows in one of them (the caller's, or the client's after the scan).
    atOpen = identityOf(handle.fd);
    if (hashed !== undefined) same = isHashedFile(hashed, await handle.stat());
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw unreadable(error);
  }
  if (onlyIfHashed && !same) {
    await handle.close().catch(() => undefined);
    return null;
  }
  // The descriptor stays open until the client is done with it, even when the caller stops waiting first:
  // a descriptor closed (and its number reused) while a command still reads or passes it would be another file.
  const scanning = client.scan(handle.fd, { expect: atOpen });
  void scanning.finally(() => handle.close().catch(() => undefined));
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

/** The same file, unchanged since the caller opened it to hash it (a Stats of the same kind as the caller's: ms as Node gives them). */
function isHashedFile(hashed: HashedIdentity, now: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): boolean {
  if (now.dev !== hashed.dev || now.ino !== hashed.ino || now.size !== hashed.size || now.mtimeMs !== hashed.mtimeMs) return false;
  // Without the caller's ctime a write that set mtime back cannot be told: not the same, as far as anyone can say.
  return hashed.ctimeMs !== undefined && now.ctimeMs === hashed.ctimeMs;
}

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
