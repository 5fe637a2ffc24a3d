// Encodes a submission (the `attributes` JSON part and the file) as a
// multipart/form-data body that streams from disk with an exact
// Content-Length, counts bytes as the socket takes them, and notices a file
// that changes while it is being sent.
//
// Why not FormData + fs.openAsBlob: measured on a 100 MB upload through
// undici, that allocates a fresh 64 KiB buffer per chunk and the process's
// peak RSS grows by 50+ MB before the GC catches up.
// Here a small ring of reused buffers keeps the growth to a few MB. A slot is
// reused only after RING_SLOTS - 1 later chunks were handed to the socket, and
// undici pulls the next chunk only once the socket's buffer is below its
// high-water mark (64 KiB), so a reused slot's bytes have long been written.
// A small file (most of them) is read whole into one buffer with the multipart
// envelope around it instead, which undici writes with the head in one go.
import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { displayName } from '../../shared/display-name.ts';
import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { describeUpload } from '../scans/failure-text.ts';
import { sendableName } from './sendable-name.ts';

/** A file to upload, as the pipeline knows it (size as fingerprinted). */
export interface UploadFile {
  path: string;
  size: number;
  /** The name sent as the part's filename (and attributes.file_name by default). */
  name: string;
  /**
   * The whole file's bytes, when the caller already read them (e.g. while fingerprinting a
   * small file): sent as they are, without opening the file again. Ignored unless its
   * length is `size`.
   */
  content?: Buffer;
}

export interface UploadProgress {
  /** Body bytes handed to the socket so far in this attempt. */
  sent: number;
  /** The whole multipart body, in bytes. */
  total: number;
}

/** What went wrong with the file while it was being sent (failure-text.ts words it). */
export type UploadFileProblem = Omit<Extract<ScanFailureParams, { cause: 'upload_problem' }>, 'cause' | 'attempts'>;

/** Why the local file could not be sent; never carries the path. */
export class LocalFileError extends Error {
  readonly code: string;
  readonly problem: UploadFileProblem;
  constructor(code: string, problem: UploadFileProblem) {
    super(describeUpload(problem));
    this.name = 'LocalFileError';
    this.code = code;
    this.problem = problem;
  }
}

export const CHUNK_SIZE = 256 * 1024;
export const RING_SLOTS = 8;

/**
 * Files up to this size are sent as one buffer. Small enough that the whole body
 * fits the kernel's socket buffers at once, so no upload can stall unnoticed
 * after it was handed over (the stall timer watches streamed bodies only).
 */
export const SINGLE_BUFFER_BYTES = 64 * 1024;

/** WHATWG multipart/form-data escaping of a field or file name. */
const escapeName = (name: string) => name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');

/**
 * The part's filename (a header; a service reads attributes.file_name first): the name sent there
 * (sendable-name.ts, no backslash left to end the quoted string early) in its displayName form, so
 * no control character goes into the header either. Multipart parsers refuse one there, so a file
 * named with \x01 could otherwise never be sent.
 */
const partFileName = (name: string): string => escapeName(displayName(sendableName(name)));

export interface MultipartUploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Called each time the socket takes the next chunk (the client's stall timer). */
  onPull?: () => void;
  /** Called once the body has ended, successfully or not. */
  onSettled?: () => void;
}

export interface MultipartUpload {
  readonly contentType: string;
  readonly contentLength: number;
  /**
   * Pull-based body, each chunk requested only after the previous one was written; or,
   * for a small file, the whole body, already read (and checked) before the request.
   */
  readonly body: AsyncIterable<Uint8Array> | Buffer;
  /** Set when the body failed because of the local file (read error, changed while sending). */
  readonly fileError: LocalFileError | undefined;
  /** Closes the file; safe to call more than once, and needed when the body is never read. */
  close(): Promise<void>;
}

const describeFsError = (error: unknown): LocalFileError => {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'EIO';
  return new LocalFileError(code, { upload: 'unreadable', errno: code });
};

/**
 * Opens the file and prepares the body. Rejects with a LocalFileError when the
 * file cannot be opened, is not a regular file, or no longer has the expected size.
 */
export async function openMultipartUpload(file: UploadFile, attributesJson: string, options: MultipartUploadOptions = {}): Promise<MultipartUpload> {
  if (file.content && file.content.length === file.size) {
    const { contentType, head, tail } = envelope(file, attributesJson);
    const whole = Buffer.concat([head, file.content, tail]);
    options.onSettled?.();
    return { contentType, contentLength: whole.length, body: whole, fileError: undefined, close: async () => {} };
  }
  let handle: FileHandle;
  try {
    handle = await open(fsPath(file.path), 'r');
  } catch (error) {
    throw describeFsError(error);
  }
  let stat: Stats;
  try {
    stat = await handle.stat();
  } catch (error) {
    await handle.close().catch(() => {});
    throw describeFsError(error);
  }
  if (!stat.isFile()) {
    await handle.close().catch(() => {});
    throw new LocalFileError('ENOTFILE', { upload: 'not_regular' });
  }
  if (stat.size !== file.size) {
    await handle.close().catch(() => {});
    throw new LocalFileError('ECHANGED', { upload: 'size_changed', before: file.size, after: stat.size });
  }

  const { contentType, head, tail } = envelope(file, attributesJson);
  const size = stat.size;
  const total = head.length + size + tail.length;

  if (size <= SINGLE_BUFFER_BYTES) {
    try {
      const whole = await readWhole(handle, stat, head, tail);
      options.onSettled?.();
      return { contentType, contentLength: total, body: whole, fileError: undefined, close: async () => {} };
    } finally {
      await handle.close().catch(() => {});
    }
  }

  let closed = false;
  let fileError: LocalFileError | undefined;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };

  async function* body(): AsyncGenerator<Uint8Array> {
    let sent = 0;
    const pushed = (length: number) => {
      sent += length;
      options.onProgress?.({ sent, total });
    };
    try {
      options.onPull?.();
      yield head;
      pushed(head.length);
      const slots = Math.min(RING_SLOTS, Math.max(1, Math.ceil(size / CHUNK_SIZE)));
      const ring = Array.from({ length: slots }, () => Buffer.allocUnsafeSlow(Math.min(CHUNK_SIZE, Math.max(size, 1))));
      let position = 0;
      let slot = 0;
      while (position < size) {
        options.onPull?.();
        const buffer = ring[slot]!;
        slot = (slot + 1) % slots;
        let bytesRead: number;
        try {
          ({ bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position));
        } catch (error) {
          throw (fileError = describeFsError(error));
        }
        if (bytesRead === 0) throw (fileError = new LocalFileError('ECHANGED', { upload: 'shorter' }));
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
        pushed(bytesRead);
      }
      // A file rewritten in place keeps its size but not its mtime; one that grew changes size.
      const after = await handle.stat().catch((error: unknown) => {
        throw (fileError = describeFsError(error));
      });
      if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) {
        throw (fileError = new LocalFileError('ECHANGED', { upload: 'changed' }));
      }
      options.onPull?.();
      yield tail;
      pushed(tail.length);
    } finally {
      options.onSettled?.();
      await close();
    }
  }

  return {
    contentType,
    contentLength: total,
    body: body(),
    get fileError() {
      return fileError;
    },
    close,
  };
}

/** The multipart framing around the file's bytes: `attributes` first, then the file part. */
function envelope(file: UploadFile, attributesJson: string): { contentType: string; head: Buffer; tail: Buffer } {
  // 122 random bits; randomUUID draws from a cached pool (randomBytes costs a call into the CSPRNG each time).
  const boundary = `----VerdictFormBoundary${randomUUID().replaceAll('-', '')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      'Content-Disposition: form-data; name="attributes"\r\n' +
      'Content-Type: application/json\r\n\r\n' +
      `${attributesJson}\r\n` +
      `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="${partFileName(file.name)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, tail };
}

/**
 * head + the file + tail in one buffer. The same checks as the streamed body: the file
 * must not end early, and must have the same size and mtime after it was read.
 */
async function readWhole(handle: FileHandle, before: Stats, head: Buffer, tail: Buffer): Promise<Buffer> {
  const size = before.size;
  const whole = Buffer.allocUnsafe(head.length + size + tail.length);
  head.copy(whole, 0);
  let filled = 0;
  while (filled < size) {
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(whole, head.length + filled, size - filled, filled));
    } catch (error) {
      throw describeFsError(error);
    }
    if (bytesRead === 0) throw new LocalFileError('ECHANGED', { upload: 'shorter' });
    filled += bytesRead;
  }
  const after = await handle.stat().catch((error: unknown) => {
    throw describeFsError(error);
  });
  if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) throw new LocalFileError('ECHANGED', { upload: 'changed' });
  tail.copy(whole, head.length + size);
  return whole;
}
