// Where a received file part goes: memory while it is small, a temporary file
// (written as it arrives) once it passes `memoryLimit` or the service-wide
// budget for bodies in memory runs out. Most scanned files are small; for
// them, writing a temporary file and reading it back for type detection and
// again for the engine cost more than everything else the service does. A
// large upload, or many uploads held open by slow or hostile clients, still
// cost only stream buffers: the budget bounds the total held in memory.
// Each chunk is hashed (file-digest.ts) as it is stored, in the same pass.
import { createWriteStream, type WriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import type { FileDigest } from './file-digest.ts';

/** Bytes of upload bodies held in memory by all requests together. */
export class MemoryBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get used(): number {
    return this.#used;
  }

  tryTake(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}

export interface UploadSinkOptions {
  /** Bodies up to this many bytes may stay in memory. */
  memoryLimit: number;
  /** Shared by every upload being received; a body that cannot take its next chunk from it spills. */
  budget: MemoryBudget;
  /** Created (exclusively, owner-only) only when the body spills. */
  spillFile: string;
  /** Called right before the spill file is created (so the caller knows to delete it). */
  onSpill?: () => void;
  /** Fed every chunk before it is stored; its error (the size limit) fails the sink. */
  digest?: FileDigest;
}

export class UploadSink extends Writable {
  readonly #options: UploadSinkOptions;
  #chunks: Buffer[] = [];
  #held = 0;
  /** Bytes taken from the budget and not yet given back. */
  #reserved = 0;
  #content: Buffer | null = null;
  #file: WriteStream | null = null;

  constructor(options: UploadSinkOptions) {
    super();
    this.#options = options;
  }

  /** The whole body, when it stayed in memory; null when it went to the spill file (or failed). Call after 'finish'. */
  content(): Buffer | null {
    return this.#content;
  }

  /** Gives the body's share of the budget back (the caller has taken the content over, or is done). */
  release(): void {
    this.#options.budget.give(this.#reserved);
    this.#reserved = 0;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.#options.digest?.update(chunk);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (!this.#file && this.#held + chunk.length <= this.#options.memoryLimit && this.#options.budget.tryTake(chunk.length)) {
      this.#reserved += chunk.length;
      // Kept as they are: Node's HTTP parser copies each body chunk into a buffer of its own
      // (the multipart parser's pieces are views of those), so nothing reuses them later.
      this.#chunks.push(chunk);
      this.#held += chunk.length;
      callback();
      return;
    }
    if (!this.#file) this.#spill();
    this.#writeToFile(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const file = this.#file;
    if (!file) {
      this.#content = wholeBody(this.#chunks, this.#held);
      this.#chunks = [];
      return callback();
    }
    if (file.closed) return callback(file.errored);
    file.end();
    // 'close', not 'finish': the descriptor is closed before the caller moves or deletes the file.
    onceSettled(file, callback);
  }

  // Also runs after a successful finish (autoDestroy): the content stays, and so does its share.
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#chunks = [];
    if (error) {
      this.#content = null;
      this.release();
    }
    const file = this.#file;
    if (!file || file.closed) return callback(error);
    file.destroy();
    onceSettled(file, () => callback(error));
  }

  #spill(): void {
    this.#options.onSpill?.();
    const file = createWriteStream(this.#options.spillFile, { flags: 'wx', mode: 0o600 });
    this.#file = file;
    // A failure of the file stream fails the sink (and so the pipeline feeding it).
    file.on('error', (error) => this.destroy(error));
    const held = this.#chunks;
    this.#chunks = [];
    this.#held = 0;
    for (const piece of held) file.write(piece);
    // What was held is now the file stream's to write; new chunks wait for its drain.
    this.release();
  }

  #writeToFile(chunk: Buffer, callback: (error?: Error | null) => void): void {
    const file = this.#file as WriteStream;
    if (file.write(chunk)) callback();
    else file.once('drain', () => callback());
  }
}

/**
 * The chunks as one buffer: a single chunk as it is, unless it is a small view of a much
 * larger buffer (which holding it would keep alive); several are concatenated.
 */
function wholeBody(chunks: Buffer[], length: number): Buffer {
  const only = chunks.length === 1 ? (chunks[0] as Buffer) : null;
  if (only && only.buffer.byteLength <= 2 * only.length) return only;
  return Buffer.concat(chunks, length);
}

function onceSettled(file: WriteStream, done: (error?: Error | null) => void): void {
  let called = false;
  const finish = (error?: Error | null) => {
    if (called) return;
    called = true;
    done(error ?? null);
  };
  file.once('close', () => finish());
  file.once('error', (error) => finish(error));
}
