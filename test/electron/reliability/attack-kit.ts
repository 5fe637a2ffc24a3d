// Building blocks for the attack tests on the local service: raw multipart
// bodies (correct or broken on purpose), checks on the error answers, and a
// walk of a folder tree to prove nothing was written where it should not be.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { errorBodySchema } from '../../../shared/service-contract/errors.ts';
import { rawRequest, requestHead, type RawBody, type RawResponse } from '../../support/raw-http.ts';

export const BOUNDARY = 'verdict-attack-boundary';
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** One part: its header lines (without the leading boundary) and its content. */
export const part = (headers: string, content: string | Buffer = ''): Buffer =>
  Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`, 'utf8'), Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), Buffer.from('\r\n')]);

export const filePart = (content: string | Buffer = 'hello, attacker\n', fileName = 'upload.bin'): Buffer =>
  part(`Content-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream`, content);

export const attributesPart = (json: string): Buffer => part('Content-Disposition: form-data; name="attributes"\r\nContent-Type: application/json', json);

export const closing = (): Buffer => Buffer.from(`--${BOUNDARY}--\r\n`);

/** A complete body: the given parts and the closing boundary. */
export const body = (...parts: Buffer[]): Buffer => Buffer.concat([...parts, closing()]);

export interface RawPostOptions {
  key?: string | null;
  contentType?: string | null;
  /** Declared length; default: the body's length (a Buffer) or chunked (an iterable). */
  contentLength?: number;
  headers?: Record<string, string | number>;
  path?: string;
  timeoutMs?: number;
}

/** POSTs a raw body to the service; a Buffer gets its exact Content-Length, an iterable is sent chunked. */
export function rawPost(port: number, payload: Buffer | Iterable<Buffer> | AsyncIterable<Buffer>, options: RawPostOptions = {}, defaultKey?: string): Promise<RawResponse> {
  const headers: Record<string, string | number> = { Host: `127.0.0.1:${port}` };
  const key = options.key === undefined ? defaultKey : options.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.contentType !== null) headers['Content-Type'] = options.contentType ?? MULTIPART;
  let sent: RawBody = payload;
  if (options.contentLength !== undefined) headers['Content-Length'] = options.contentLength;
  else if (Buffer.isBuffer(payload)) headers['Content-Length'] = payload.length;
  else {
    headers['Transfer-Encoding'] = 'chunked';
    sent = chunked(payload);
  }
  Object.assign(headers, options.headers);
  headers.Connection = 'close';
  return rawRequest(port, requestHead('POST', options.path ?? '/file-scans', headers), sent, { timeoutMs: options.timeoutMs ?? 30_000 });
}

/** HTTP/1.1 chunked transfer coding of a stream of buffers. */
export async function* chunked(source: Iterable<Buffer> | AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    yield Buffer.from(`${chunk.length.toString(16)}\r\n`);
    yield chunk;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from('0\r\n\r\n');
}

/** Checks a JSON error answer of the documented shape and returns its message. */
export function expectErrorReply(reply: RawResponse, status: number, code: string): string {
  expect(reply.status, `${reply.error ?? ''} ${reply.body.slice(0, 300)}`).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const parsed = errorBodySchema.parse(reply.json());
  expect(parsed.code).toBe(code);
  expect(parsed.message.length).toBeGreaterThan(0);
  return parsed.message;
}

/** Every file and folder under `root`, as paths relative to it, sorted. */
export async function listTree(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      found.push(relative(root, full) + (entry.isDirectory() ? '/' : ''));
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return found.sort();
}

/** What the service may keep in its data dir (store/data-dir.ts): its database and the two upload folders. */
export const SERVICE_DATA_ENTRY = /^(local-service\.sqlite(-wal|-shm)?|incoming\/|uploads\/|uploads\/[0-9a-f-]{36})$/;
