// Prepare: fingerprint (which opens the file and takes its fstat), then stat the
// path (the fingerprint thread takes that stat itself, right after the read), so the digests describe one stable content: the file opened is the one at
// the path, unchanged while it was read (a file still being written is read again,
// a few times at most).
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { fsPath } from '../../file-names/fs-path.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { fileChangedFailure, notRegularFailure, tooLargeFailure } from '../failures.ts';
import type { FileDigests } from '../ports.ts';
import type { Pipeline } from './context.ts';

/** How often a file that changed while it was read (fingerprinted, or sent) is read again. */
export const SAME_CONTENT_RETRIES = 3;

export interface Prepared {
  size: number;
  digests: FileDigests;
}

export async function prepare(p: Pipeline, record: ScanRecord, signal: AbortSignal): Promise<Prepared> {
  for (let attempt = 1; attempt <= SAME_CONTENT_RETRIES; attempt++) {
    const digests = await fingerprint(p, record.path, record.size, signal);
    const after = digests.after ? checkedFile(digests.after) : await statFile(record.path);
    if (sameFile(digests.opened, after) && digests.bytesRead === after.size) return { size: after.size, digests };
    p.log?.info('file changed while fingerprinting; reading it again', { id: record.id, attempt });
    await delay(200 * attempt, signal);
  }
  throw fileChangedFailure();
}

/** The fingerprint of a regular file within the size limit; a file that cannot be read fails as a stat of its path says. */
async function fingerprint(p: Pipeline, path: string, sizeAtIntake: number | null, signal: AbortSignal): Promise<FileDigests> {
  let digests: FileDigests;
  try {
    digests = await p.options.fingerprint(path, signal, sizeAtIntake);
  } catch (error) {
    // The same failure as a stat before opening would have given (it names the cause more precisely).
    if (!signal.aborted) await statFile(path);
    throw error;
  }
  if (digests.opened.size > MAX_ASYNC_FILE_SIZE) throw tooLargeFailure(digests.opened.size);
  return digests;
}

/** A regular file within the size limit, or a LocalFailure saying why not. */
export async function statFile(path: string): Promise<Stats> {
  const info = await stat(fsPath(path));
  if (!info.isFile()) throw notRegularFailure();
  if (info.size > MAX_ASYNC_FILE_SIZE) throw tooLargeFailure(info.size);
  return info;
}

/** The same checks as statFile, on a stat the fingerprinter took. */
function checkedFile<T extends { size: number; isFile: boolean }>(info: T): T {
  if (!info.isFile) throw notRegularFailure();
  if (info.size > MAX_ASYNC_FILE_SIZE) throw tooLargeFailure(info.size);
  return info;
}

type Identity = Pick<Stats, 'size' | 'mtimeMs' | 'ino' | 'dev'>;
const sameFile = (a: Identity, b: Identity) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
