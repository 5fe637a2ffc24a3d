// What an INSTREAM upload reads, as the local service's ChunkSource: an open descriptor
// (read by position, so it never moves the caller's offset and always starts at byte 0,
// the bytes a re-sent scan needs again) or a Readable (read once; not re-sendable).
import { read } from 'node:fs';
import type { Readable } from 'node:stream';
import { BufferChunks, type ChunkSource, type FileChunk } from '../instream/file-chunks.ts';
import { EngineError } from '../engine.ts';

export type StreamSource = { kind: 'fd'; fd: number; size: number } | { kind: 'bytes'; bytes: Buffer } | { kind: 'readable'; readable: Readable };

function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))));
}

function unreadable(error: unknown): EngineError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  return new EngineError('file_unreadable', `the file to scan could not be read (${code})`, { cause: error });
}

/**
 * `size` bytes of an open file from byte 0, framed for INSTREAM (length, data, and the
 * end marker after the last chunk) so each chunk is one write. A file that shrank ends early.
 */
export class FdChunks implements ChunkSource {
  readonly size: number;
  readonly #fd: number;
  readonly #chunkSize: number;
  #position = 0;

  constructor(fd: number, size: number, chunkSize: number) {
    this.#fd = fd;
    this.size = size;
    this.#chunkSize = chunkSize;
  }

  async next(): Promise<FileChunk> {
    const wanted = Math.min(this.#chunkSize, this.size - this.#position);
    if (wanted <= 0) return { data: Buffer.alloc(0), last: true };
    const frame = Buffer.allocUnsafe(4 + wanted + 4);
    let filled = 0;
    try {
      while (filled < wanted) {
        const got = await readAt(this.#fd, frame, 4 + filled, wanted - filled, this.#position + filled);
        if (got === 0) break;
        filled += got;
      }
    } catch (error) {
      throw unreadable(error);
    }
    this.#position += filled;
    const last = filled < wanted || this.#position >= this.size;
    frame.writeUInt32BE(filled, 0);
    if (last) frame.writeUInt32BE(0, 4 + filled);
    const start = filled === 0 ? 4 : 0;
    return { data: frame.subarray(4, 4 + filled), last, frame: frame.subarray(start, 4 + filled + (last ? 4 : 0)) };
  }

  // The caller owns the descriptor.
  async close(): Promise<void> {}
}

/** A Readable's chunks, one read ahead so the last is known; the sender frames them. */
export class ReadableChunks implements ChunkSource {
  readonly size = Number.NaN;
  readonly #chunks: AsyncIterator<Buffer | string>;
  #ahead: Promise<IteratorResult<Buffer | string>> | null = null;

  constructor(readable: Readable) {
    this.#chunks = readable[Symbol.asyncIterator]();
  }

  async next(): Promise<FileChunk> {
    try {
      const current = await (this.#ahead ?? this.#chunks.next());
      if (current.done) return { data: Buffer.alloc(0), last: true };
      this.#ahead = this.#chunks.next();
      const following = await this.#ahead;
      const data = typeof current.value === 'string' ? Buffer.from(current.value) : current.value;
      return { data, last: following.done === true };
    } catch (error) {
      throw unreadable(error);
    }
  }

  async close(): Promise<void> {
    await this.#chunks.return?.();
  }
}

export function chunksOf(source: StreamSource, chunkSize: number): ChunkSource {
  if (source.kind === 'fd') return new FdChunks(source.fd, source.size, chunkSize);
  if (source.kind === 'bytes') return new BufferChunks(source.bytes, chunkSize);
  return new ReadableChunks(source.readable);
}
