// Computes md5, sha1 and sha256 of an upload as its chunks arrive, counts the
// bytes, keeps the first few KB as a sample for type detection, and fails as
// soon as the size limit is passed. Fed by the upload sink (upload-sink.ts)
// with each chunk it receives: every byte is hashed once, in the same pass
// that stores it, with no stream stage of its own.
import { createHash } from 'node:crypto';
import type { FileHash } from '../../../shared/service-contract/scan.ts';

export const SAMPLE_BYTES = 8 * 1024;

export class FileTooLargeError extends Error {
  constructor(limit: number) {
    super(`more than ${limit} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export class FileDigest {
  readonly #maxBytes: number;
  readonly #md5 = createHash('md5');
  readonly #sha1 = createHash('sha1');
  readonly #sha256 = createHash('sha256');
  readonly #sample: Buffer[] = [];
  #sampled = 0;
  #size = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get size(): number {
    return this.#size;
  }

  /** Takes the next chunk; throws FileTooLargeError once the limit is passed (the chunk is then not hashed). */
  update(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) throw new FileTooLargeError(this.#maxBytes);
    this.#md5.update(chunk);
    this.#sha1.update(chunk);
    this.#sha256.update(chunk);
    if (this.#sampled < SAMPLE_BYTES) {
      // Copy: the chunk may be a view into a larger buffer we must not keep alive.
      const piece = Buffer.from(chunk.subarray(0, SAMPLE_BYTES - this.#sampled));
      this.#sample.push(piece);
      this.#sampled += piece.length;
    }
  }

  /** Call once, after the last chunk. */
  digests(): FileHash {
    return { md5: this.#md5.digest('hex'), sha1: this.#sha1.digest('hex'), sha256: this.#sha256.digest('hex') };
  }

  sample(): Buffer {
    return this.#sample.length === 1 ? (this.#sample[0] as Buffer) : Buffer.concat(this.#sample);
  }
}
