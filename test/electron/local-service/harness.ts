// Shared by the local-service tests: starts a real service on loopback with a
// temp data dir, talks to it over HTTP with undici, and offers tiny engines
// that fail or wait, to reach the failed-scan and 408 paths.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { BuiltinEngine } from '../../../electron/engine/builtin-engine.ts';
import { EngineError, type EngineVerdict, type ScanEngine } from '../../../electron/engine/engine.ts';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../../electron/local-service/server.ts';

/** Two integrations. */
export const KEY_A = 'test-key-alpha-0001';
export const KEY_B = 'test-key-bravo-0002';

export interface TestService extends LocalService {
  dataDir: string;
  /** A scratch directory for the test's own files; removed by close(). */
  scratch: string;
}

export async function startTestService(options: Partial<LocalServiceOptions> = {}): Promise<TestService> {
  const scratch = await mkdtemp(join(tmpdir(), 'verdict-local-service-test-'));
  const dataDir = options.dataDir ?? join(scratch, 'data');
  let service: LocalService;
  try {
    service = await startLocalService({ apiKeys: [KEY_A, KEY_B], engine: new BuiltinEngine(), ...options, dataDir });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    ...service,
    dataDir,
    scratch,
    close: async () => {
      await service.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface SubmitOptions {
  key?: string | null;
  mode?: 'sync' | 'async';
  /** Content of the file part; omit with `noFile`. */
  file?: Blob | string | Buffer;
  /** The multipart filename of the file part. */
  partFileName?: string;
  /** An object is sent as JSON; a string as is; null leaves the part out. */
  attributes?: Record<string, unknown> | string | null;
  language?: string;
  noFile?: boolean;
}

export async function submit(baseUrl: string, options: SubmitOptions = {}): Promise<Reply> {
  const parts: MultipartPart[] = [];
  if (!options.noFile) {
    const content = options.file ?? 'hello, scanner\n';
    const blob = content instanceof Blob ? content : new Blob([typeof content === 'string' ? content : new Uint8Array(content)]);
    parts.push({ name: 'file', fileName: options.partFileName ?? 'upload.bin', contentType: 'application/octet-stream', content: blob });
  }
  const attributes = options.attributes === undefined ? { file_name: 'hello.txt' } : options.attributes;
  if (attributes !== null) {
    const json = typeof attributes === 'string' ? attributes : JSON.stringify(attributes);
    parts.push({ name: 'attributes', contentType: 'application/json', content: new Blob([json]) });
  }
  const body = multipart(parts);
  const path = options.mode === 'sync' ? '/file-scans/sync' : '/file-scans';
  return send(`${baseUrl}${path}`, {
    method: 'POST',
    body: body.stream,
    key: options.key,
    language: options.language,
    headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
  });
}

export interface MultipartPart {
  name: string;
  fileName?: string;
  contentType?: string;
  content: Blob;
}

/**
 * multipart/form-data as a stream with a known length. Written out by hand:
 * undici 8's request() can hang on FormData bodies (nodejs/undici#5520), and
 * this streams large files (fs.openAsBlob) without holding them in memory.
 */
export function multipart(parts: MultipartPart[]): { stream: Readable; contentType: string; length: number } {
  const boundary = `----verdict-test-${Math.random().toString(16).slice(2)}`;
  const heads = parts.map((part) => {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
    return Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`);
  });
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = parts.reduce((sum, part, i) => sum + (heads[i] as Buffer).length + part.content.size + 2, tail.length);
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const [i, part] of parts.entries()) {
      yield heads[i] as Buffer;
      for await (const chunk of part.content.stream()) yield chunk;
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  return { stream: Readable.from(generate(), { objectMode: false }), contentType: `multipart/form-data; boundary=${boundary}`, length };
}

export function getScan(baseUrl: string, id: string, options: { key?: string | null; language?: string } = {}): Promise<Reply> {
  return send(`${baseUrl}/file-scans/${encodeURIComponent(id)}`, { method: 'GET', ...options });
}

export function getByReference(baseUrl: string, reference: string, options: { key?: string | null; language?: string } = {}): Promise<Reply> {
  return send(`${baseUrl}/file-scans/external-reference/${encodeURIComponent(reference)}`, { method: 'GET', ...options });
}

/** Sees every request send() makes and the answer's text (the conformance suite checks each against openapi.yaml). */
export type ReplyObserver = (request: { method: string; url: string }, reply: Omit<Reply, 'body'> & { text: string }) => void;
const observers = new Set<ReplyObserver>();

/** Until the returned function is called; an observer that throws fails the request. */
export function observeReplies(observer: ReplyObserver): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

export async function send(
  url: string,
  options: { method: string; body?: Readable | string | Buffer; key?: string | null; language?: string; headers?: Record<string, string> },
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEY_A : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.language) headers['content-language'] = options.language;
  const response = await request(url, { method: options.method as 'GET', headers, body: options.body ?? null });
  const text = await response.body.text();
  for (const observe of observers) observe({ method: options.method, url }, { status: response.statusCode, headers: response.headers, text });
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`Not JSON (HTTP ${response.statusCode}): ${text.slice(0, 200)}`);
  }
  return { status: response.statusCode, headers: response.headers, body };
}

/** Polls until `check` returns a value, within a bounded wait. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls GET /file-scans/{id} until the scan is terminal. */
export function waitForTerminal(baseUrl: string, id: string, key = KEY_A): Promise<Reply> {
  return waitFor(async () => {
    const reply = await getScan(baseUrl, id, { key });
    return reply.body.status !== 'processing' ? reply : null;
  }, `scan ${id} to finish`);
}

/** An engine that cannot give a verdict. */
export class FailingEngine implements ScanEngine {
  readonly name = 'failing';
  async scan(): Promise<EngineVerdict> {
    throw new EngineError('engine_unavailable', 'clamd is not reachable (ECONNREFUSED)');
  }
}

/** An engine whose scans wait until release(); they honour the abort signal like a real engine. */
export class GatedEngine implements ScanEngine {
  readonly name = 'gated';
  started = 0;
  #open = false;
  #waiting: Array<() => void> = [];

  release(): void {
    this.#open = true;
    for (const wake of this.#waiting.splice(0)) wake();
  }

  async scan(_file: string, signal?: AbortSignal): Promise<EngineVerdict> {
    this.started++;
    if (!this.#open) {
      await new Promise<void>((resolve, reject) => {
        this.#waiting.push(resolve);
        signal?.addEventListener('abort', () => reject(new EngineError('engine_aborted', 'the scan was cancelled')), { once: true });
      });
    }
    return { safe: true, detailed: 'clean', findings: [] };
  }
}
