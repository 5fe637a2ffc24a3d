// Reads a multipart submission (spec 2.3) as a stream: the file part stays in
// memory while small and otherwise goes to a temporary file in the data
// directory, its digests computed in the same pass; the size limit is enforced
// while receiving, so a large body is never held in memory. The `attributes`
// part (at most 64 KB) is parsed and checked.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { MB } from '../../../shared/service-contract/limits.ts';
import type { ExecutionMode, FileHash, SubmissionAttributes } from '../../../shared/service-contract/scan.ts';
import { asError, guardListener } from '../http/error-boundary.ts';
import { HttpError } from '../http/http-error.ts';
import { MAX_ATTRIBUTES_BYTES, parseAttributes } from './attributes.ts';
import { FileDigest, FileTooLargeError } from './file-digest.ts';
import { sanitizeFileName } from './file-name.ts';
import { detectMediaType } from './media-type.ts';
import { MemoryBudget, UploadSink } from './upload-sink.ts';

/** Files up to this size may be received into memory (see upload-sink.ts); larger ones stream to disk. */
export const SMALL_UPLOAD_BYTES = 1024 * 1024;

/** All bodies being received in memory at once, together; past it they stream to disk as large ones do. */
export const UPLOAD_MEMORY_BUDGET_BYTES = 16 * 1024 * 1024;

export interface ReceiveOptions {
  mode: ExecutionMode;
  maxFileSize: number;
  /** Where the temporary file is written (same file system as the uploads directory). */
  incomingDir: string;
  /** Called once the headers have passed the checks, right before the body is read (sends 100 Continue). */
  beforeBody?: () => void;
  /**
   * Receive small files into memory, within this service-wide budget; up to `perUpload`
   * bytes each (default SMALL_UPLOAD_BYTES). Without it every file goes to a temporary file.
   */
  memory?: { budget: MemoryBudget; perUpload?: number };
}

/** The received file: its bytes, or the temporary file holding them (the caller moves or deletes it). */
export type ReceivedFile = { kind: 'memory'; content: Buffer } | { kind: 'file'; tempFile: string };

export interface ReceivedSubmission {
  file: ReceivedFile;
  size: number;
  hash: FileHash;
  fileType: string;
  /** The multipart part's filename, sanitised; the fallback for attributes.file_name. */
  partFileName: string | null;
  attributes: SubmissionAttributes;
}

/** The client went away mid-upload: there is nobody to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection during the upload');
    this.name = 'ClientGoneError';
  }
}

/**
 * Everything in a valid body besides the file: at most 6 parts with headers of
 * up to 16 KB (busboy's bound) and fields of up to 64 KB, plus boundaries.
 * A declared Content-Length beyond the file limit plus this cannot be valid.
 */
export const MAX_ENVELOPE_BYTES = 1024 * 1024;

const MULTIPART = /^multipart\/form-data\s*;(.*;)?\s*boundary=("[^"]+"|[^;\s]+)/i;

const bad = (message: ConstructorParameters<typeof HttpError>[1]) => new HttpError('invalid_request', message);

export async function receiveSubmission(req: IncomingMessage, options: ReceiveOptions): Promise<ReceivedSubmission> {
  if (!MULTIPART.test(req.headers['content-type'] ?? '')) throw bad({ key: 'notMultipart' });
  // Refused before reading; with `Expect: 100-continue` the client does not even send the body.
  if (Number(req.headers['content-length'] ?? 0) > options.maxFileSize + MAX_ENVELOPE_BYTES) throw tooLarge(options);
  options.beforeBody?.();
  const tempFile = join(options.incomingDir, `${randomUUID()}.part`);
  let fileStarted = false;
  try {
    const parsed = await parseBody(req, options, tempFile, () => (fileStarted = true));
    const file: ReceivedFile = parsed.content ? { kind: 'memory', content: parsed.content } : { kind: 'file', tempFile };
    const fileType = await detectMediaType(file.kind === 'memory' ? { content: file.content } : { path: tempFile }, parsed.sample, parsed.size);
    return { file, size: parsed.size, hash: parsed.hash, fileType, partFileName: parsed.partFileName, attributes: parsed.attributes };
  } catch (error) {
    if (fileStarted) await rm(tempFile, { force: true });
    throw error;
  }
}

interface ParsedBody {
  /** The whole file when it stayed in memory, else null (it is in the temporary file). */
  content: Buffer | null;
  size: number;
  hash: FileHash;
  sample: Buffer;
  partFileName: string | null;
  attributes: SubmissionAttributes;
}

function parseBody(req: IncomingMessage, options: ReceiveOptions, tempFile: string, onFileStart: () => void): Promise<ParsedBody> {
  return new Promise<ParsedBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // +1 so that a value of exactly the limit is not reported as truncated.
        limits: { fileSize: options.maxFileSize + 1, fieldSize: MAX_ATTRIBUTES_BYTES + 1, fieldNameSize: 100, files: 2, fields: 4, parts: 6, headerPairs: 16 },
      });
    } catch {
      reject(bad({ key: 'notMultipart' }));
      return;
    }

    let failure: Error | null = null;
    let digest: FileDigest | null = null;
    let sink: UploadSink | null = null;
    let fileWritten: Promise<void> | null = null;
    let partFileName: string | null = null;
    let attributesText: string | undefined;

    const fail = (error: Error): void => {
      if (failure) return;
      failure = error;
      sink?.release();
      req.unpipe(parser);
      // Stop a file still being written. (Destroying busboy's file stream instead can leave the pipeline unsettled.)
      sink?.destroy(error);
      // The pipeline must settle (file closed) before the caller deletes the file.
      void (fileWritten ?? Promise.resolve()).finally(() => reject(error));
    };

    // Every listener below runs inside an emitter: a throw must become this request's answer, not a crash.
    const guard = <A extends unknown[]>(listener: (...args: A) => void) => guardListener(fail, listener);

    parser.on('file', guard((name: string | undefined, stream: Readable, info: busboy.FileInfo) => {
      // busboy fails a part's stream when the body ends inside it: without a listener that 'error' would end the process.
      stream.on('error', guard(() => fail(bad({ key: 'malformedMultipart' }))));
      if (failure) return void stream.resume();
      // busboy gives no name for `name=""`, a missing name, or only `name*=` (RFC 7578 defines no `name*`).
      if (!name) {
        stream.resume();
        return fail(bad({ key: 'partWithoutName' }));
      }
      if (name === 'attributes') return void readAttributesFile(stream, (text) => (attributesText = text), fail, guard);
      // Only "file" is scanned: any other part that carries a file is refused, never dropped unscanned.
      if (name !== 'file') {
        stream.resume();
        return fail(bad({ key: 'unexpectedFilePart', params: { name: name.slice(0, 100) } }));
      }
      if (fileWritten) {
        stream.resume();
        return fail(bad({ key: 'secondFilePart' }));
      }
      partFileName = info.filename === undefined ? null : sanitizeFileName(info.filename);
      digest = new FileDigest(options.maxFileSize);
      sink = new UploadSink({
        memoryLimit: options.memory ? (options.memory.perUpload ?? SMALL_UPLOAD_BYTES) : 0,
        budget: options.memory?.budget ?? NO_MEMORY,
        spillFile: tempFile,
        onSpill: onFileStart,
        digest,
      });
      stream.on('limit', guard(() => fail(tooLarge(options))));
      fileWritten = pumpFile(stream, sink).catch((error: unknown) => {
        fail(error instanceof FileTooLargeError ? tooLarge(options) : asError(error));
      });
    }));

    parser.on('field', guard((name: string | undefined, value: string, info: busboy.FieldInfo) => {
      if (name === 'attributes') {
        if (info.valueTruncated) return fail(bad({ key: 'attributesTooLarge', params: { limit: MAX_ATTRIBUTES_BYTES } }));
        if (attributesText !== undefined) return fail(bad({ key: 'tooManyParts' }));
        attributesText = value;
      } else if (name === 'file') {
        fail(bad({ key: 'filePartNotAFile' }));
      }
      // Other text fields carry no file: they are ignored, as unknown members are (the parts limit bounds them).
    }));

    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) parser.on(limit, guard(() => fail(bad({ key: 'tooManyParts' }))));
    parser.on('error', guard(() => fail(bad({ key: 'malformedMultipart' }))));
    req.on('error', guard(() => fail(new ClientGoneError())));
    req.on('close', guard(() => {
      if (!req.complete) fail(new ClientGoneError());
    }));

    parser.on('close', guard(() => {
      void (async () => {
        await fileWritten;
        if (failure) return;
        if (!fileWritten || !digest || !sink) return fail(bad({ key: 'missingFilePart' }));
        if (attributesText === undefined) return fail(bad({ key: 'missingAttributesPart' }));
        try {
          const attributes = parseAttributes(attributesText);
          const done: FileDigest = digest;
          const content = sink.content();
          // The content is the caller's now (the scan runner bounds what it keeps).
          sink.release();
          // The bytes the engine will scan must be exactly the bytes hashed.
          if (content && content.length !== done.size) throw new Error(`the upload held in memory has ${content.length} bytes, ${done.size} were received`);
          resolve({ content, size: done.size, hash: done.digests(), sample: done.sample(), partFileName, attributes });
        } catch (error) {
          fail(asError(error));
        }
      })().catch((error: unknown) => fail(asError(error)));
    }));

    req.pipe(parser);
  });
}

/**
 * The file part into the sink (which hashes it), settled once the sink has closed (and with it its file),
 * with the first error. What stream/promises' pipeline() does for two streams, without the AbortController
 * it makes per call and aborts at the end (building a DOMException): 140 → 35 µs a file, measured here.
 */
function pumpFile(source: Readable, sink: UploadSink): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failed: Error | null = null;
    const fail = (error: Error) => {
      if (failed) return;
      failed = error;
      source.unpipe(sink);
      source.destroy();
      sink.destroy(error);
    };
    source.on('error', fail);
    sink.on('error', fail);
    sink.on('close', () => {
      if (failed) reject(failed);
      else if (sink.writableFinished) resolve();
      else reject(new Error('the upload ended before the file part was complete'));
    });
    source.pipe(sink);
  });
}

/** An `attributes` part sent as a file (curl -F attributes=@a.json) is read into memory, bounded. */
function readAttributesFile(
  stream: Readable,
  onText: (text: string) => void,
  fail: (error: Error) => void,
  guard: <A extends unknown[]>(listener: (...args: A) => void) => (...args: A) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', guard((chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_ATTRIBUTES_BYTES) {
      stream.resume();
      fail(bad({ key: 'attributesTooLarge', params: { limit: MAX_ATTRIBUTES_BYTES } }));
    } else chunks.push(chunk);
  }));
  stream.on('end', guard(() => {
    if (size <= MAX_ATTRIBUTES_BYTES) onText(Buffer.concat(chunks).toString('utf8'));
  }));
}

function tooLarge(options: ReceiveOptions): HttpError {
  return new HttpError('file_too_large', {
    key: 'fileTooLarge',
    params: { limit: `${options.maxFileSize / MB} MB`, bytes: options.maxFileSize, mode: options.mode },
  });
}

const NO_MEMORY = new MemoryBudget(0);
