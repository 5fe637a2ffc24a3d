// A pass-through stream that computes md5, sha1 and sha256 of what flows
// through it, counts the bytes, keeps the first few KB as a sample for type
// detection, and fails as soon as the size limit is passed.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { FileHash } from '../../../shared/service-contract/scan.ts';

export const SAMPLE_BYTES = 8 * 1024;

export class FileTooLargeError extends Error {
  constructor(limit: number) {
    super(`more than ${limit} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export class DigestStream extends Transform {
  readonly #maxBytes: number;
  readonly #md5 = createHash('md5');
  readonly #sha1 = createHash('sha1');
  readonly #sha256 = createHash('sha256');
  readonly #sample: Buffer[] = [];
  #sampled = 0;
  #size = 0;

  constructor(maxBytes: number) {
    super();
    this.#maxBytes = maxBytes;
  }

  get size(): number {
    return this.#size;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) {
      callback(new FileTooLargeError(this.#maxBytes));
      return;
    }
    this.#md5.update(chunk);
    this.#sha1.update(chunk);
    this.#sha256.update(chunk);
    if (this.#sampled < SAMPLE_BYTES) {
      // Copy: the chunk may be a view into a larger buffer we must not keep alive.
      const piece = Buffer.from(chunk.subarray(0, SAMPLE_BYTES - this.#sampled));
      this.#sample.push(piece);
      this.#sampled += piece.length;
    }
    callback(null, chunk);
  }

  /** Call once, after the stream has finished. */
  digests(): FileHash {
    return { md5: this.#md5.digest('hex'), sha1: this.#sha1.digest('hex'), sha256: this.#sha256.digest('hex') };
  }

  sample(): Buffer {
    return Buffer.concat(this.#sample);
  }
}
