// Reads a file from disk chunk by chunk for INSTREAM, knowing which chunk is
// the last, so the final chunk and the end-of-stream marker leave in one write.
// A file's chunks are read straight into INSTREAM frames (length prefix, data,
// and the end marker after the last), in buffers reused once their write is
// done: a large file costs no allocation per chunk and one write each.
// BufferChunks does the same for bytes already in memory (small uploads).
import { open, type FileHandle } from 'node:fs/promises';
import { fsPath } from '../../file-names/fs-path.ts';
import { EngineError } from '../engine.ts';

export interface FileChunk {
  data: Buffer;
  /** No more data follows. */
  last: boolean;
  /**
   * The chunk as it goes on the wire, when the source framed it: the 4-byte length,
   * `data`, and after the last chunk the end-of-stream marker. Absent: the sender frames it.
   */
  frame?: Buffer;
  /** Call once the frame has been written (or will never be): its buffer may then be reused. */
  release?: () => void;
}

/** What an INSTREAM upload reads from: a file on disk or bytes in memory. */
export interface ChunkSource {
  readonly size: number;
  next(): Promise<FileChunk>;
  close(): Promise<void>;
}

/** The bytes of a file already in memory, in chunks of at most `chunkSize`. */
export class BufferChunks implements ChunkSource {
  readonly #content: Buffer;
  readonly #chunkSize: number;
  #position = 0;

  constructor(content: Buffer, chunkSize: number) {
    this.#content = content;
    this.#chunkSize = chunkSize;
  }

  get size(): number {
    return this.#content.length;
  }

  async next(): Promise<FileChunk> {
    const end = Math.min(this.#content.length, this.#position + this.#chunkSize);
    const data = this.#content.subarray(this.#position, end);
    this.#position = end;
    return { data, last: end >= this.#content.length };
  }

  async close(): Promise<void> {}
}

/** Bytes around a chunk's data in a frame: its length before, room for the end marker after. */
const FRAME_OVERHEAD = 8;

/** Frames kept for reuse: one being written while the next is read. */
const SPARE_FRAMES = 2;

export class FileChunks implements ChunkSource {
  readonly #handle: FileHandle;
  /** The size when opened: the bytes a scan covers (the service scans files it no longer writes). */
  readonly size: number;
  readonly #chunkSize: number;
  /** Frame buffers whose writes are done. */
  readonly #spare: Buffer[] = [];
  #position = 0;
  #closed = false;

  private constructor(handle: FileHandle, size: number, chunkSize: number) {
    this.#handle = handle;
    this.size = size;
    this.#chunkSize = chunkSize;
  }

  /** Opens the file; a file that cannot be read is `file_unreadable` before clamd is contacted. */
  static async open(filePath: string, chunkSize: number): Promise<FileChunks> {
    let handle: FileHandle | undefined;
    try {
      // The name's exact bytes: the local engine path hands the user's own paths, which need not be UTF-8.
      handle = await open(fsPath(filePath), 'r');
      const stats = await handle.stat();
      if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
      return new FileChunks(handle, stats.size, chunkSize);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      throw unreadable(error);
    }
  }

  /** The next chunk, framed; an empty file yields one empty, last chunk. */
  async next(): Promise<FileChunk> {
    const wanted = Math.min(this.#chunkSize, this.size - this.#position);
    if (wanted <= 0) return { data: Buffer.alloc(0), last: true };
    // A spare frame, or a new one while the socket still holds the others.
    const buffer = this.#spare.pop() ?? Buffer.allocUnsafe(this.#chunkSize + FRAME_OVERHEAD);
    let filled = 0;
    try {
      while (filled < wanted) {
        const { bytesRead } = await this.#handle.read(buffer, 4 + filled, wanted - filled, this.#position + filled);
        if (bytesRead === 0) break; // the file shrank since it was opened
        filled += bytesRead;
      }
    } catch (error) {
      throw unreadable(error);
    }
    this.#position += filled;
    const last = filled < wanted || this.#position >= this.size;
    buffer.writeUInt32BE(filled, 0);
    // The end marker: a zero length (an empty chunk is sent as the marker alone).
    if (last) buffer.writeUInt32BE(0, 4 + filled);
    const start = filled === 0 ? 4 : 0;
    const frame = buffer.subarray(start, 4 + filled + (last ? 4 : 0));
    let released = false;
    const release = () => {
      if (!released && this.#spare.length < SPARE_FRAMES) this.#spare.push(buffer);
      released = true;
    };
    return { data: buffer.subarray(4, 4 + filled), last, frame, release };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#handle.close().catch(() => undefined);
  }
}

function unreadable(error: unknown): EngineError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  // The message names the error code, not the path: paths are the service's business.
  return new EngineError('file_unreadable', `the file to scan could not be read (${code})`, { cause: error });
}
