// One feed file fetched as fangfrisch does: a conditional GET (If-None-Match / If-Modified-Since
// from the last answer), a size cap checked against Content-Length and again while receiving,
// time limits for the headers, for each pause in the body and for the whole download. The body
// goes to a staging file; nothing in the database folder changes here.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Dispatcher } from 'undici';

export interface FeedFetchLimits {
  maxBytes: number;
  /** Until the response's headers arrive. */
  headersTimeoutMs: number;
  /** Longest pause between two chunks of the body. */
  bodyTimeoutMs: number;
  /** The whole download. */
  totalTimeoutMs: number;
}

/** 200 MB: Sanesecurity's largest files are tens of MB; clamd's whole official database is about 300 MB. */
export const DEFAULT_FEED_LIMITS: FeedFetchLimits = { maxBytes: 200 * 1024 * 1024, headersTimeoutMs: 30_000, bodyTimeoutMs: 30_000, totalTimeoutMs: 600_000 };

export type FeedFetchProblem = 'http_status' | 'too_large' | 'timeout' | 'network' | 'write_failed';

export type FeedFetchResult =
  | { kind: 'fetched'; bytes: number; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified' }
  | { kind: 'failed'; code: FeedFetchProblem; detail: string };

export interface FeedFetchInput {
  url: string;
  /** Where the body is written (a staging file next to the database folder's files). */
  to: string;
  etag: string | null;
  lastModified: string | null;
  limits: FeedFetchLimits;
  userAgent: string;
}

let shared: Promise<Dispatcher> | null = null;
/** One agent for every feed, following up to 5 redirects (mirrors redirect); undici loads at the first fetch, not with the app. */
function dispatcher(): Promise<Dispatcher> {
  shared ??= import('undici').then(({ Agent, interceptors }) => new Agent({ connections: 2 }).compose(interceptors.redirect({ maxRedirections: 5 })));
  return shared;
}

export async function fetchFeedFile(input: FeedFetchInput): Promise<FeedFetchResult> {
  const { limits } = input;
  const total = AbortSignal.timeout(limits.totalTimeoutMs);
  const headers: Record<string, string> = { 'user-agent': input.userAgent, accept: '*/*' };
  if (input.etag !== null) headers['if-none-match'] = input.etag;
  if (input.lastModified !== null) headers['if-modified-since'] = input.lastModified;
  let response: Dispatcher.ResponseData;
  try {
    const { request } = await import('undici');
    response = await request(input.url, { method: 'GET', headers, dispatcher: await dispatcher(), headersTimeout: limits.headersTimeoutMs, bodyTimeout: limits.bodyTimeoutMs, signal: total });
  } catch (error) {
    return failure(error, total);
  }
  const { statusCode, body } = response;
  if (statusCode === 304) {
    await body.dump().catch(() => undefined);
    return { kind: 'not_modified' };
  }
  if (statusCode !== 200) {
    await body.dump().catch(() => undefined);
    return { kind: 'failed', code: 'http_status', detail: `HTTP ${statusCode}` };
  }
  const length = Number(header(response.headers, 'content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length > limits.maxBytes) {
    // Destroying a body emits an abort error: heard here, not left to end the process.
    body.once('error', () => undefined).destroy();
    return { kind: 'failed', code: 'too_large', detail: `${length} bytes, more than ${limits.maxBytes}` };
  }
  const written = await writeBody(body, input.to, limits.maxBytes).catch((error: unknown) => error as Error);
  if (written instanceof Error) {
    await rm(input.to, { force: true });
    if (written.message === TOO_LARGE) return { kind: 'failed', code: 'too_large', detail: `more than ${limits.maxBytes} bytes` };
    if ((written as NodeJS.ErrnoException).syscall !== undefined && /^E[A-Z]+$/.test((written as NodeJS.ErrnoException).code ?? '')) {
      return { kind: 'failed', code: 'write_failed', detail: `${(written as NodeJS.ErrnoException).code}` };
    }
    return failure(written, total);
  }
  return { kind: 'fetched', bytes: written, etag: header(response.headers, 'etag'), lastModified: header(response.headers, 'last-modified') };
}

const TOO_LARGE = 'feed file over the size cap';

async function writeBody(body: Dispatcher.ResponseData['body'], to: string, maxBytes: number): Promise<number> {
  const out = createWriteStream(to, { mode: 0o644 });
  let bytes = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        body.once('error', () => undefined).destroy();
        throw new Error(TOO_LARGE);
      }
      if (!out.write(chunk)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return bytes;
  } finally {
    out.destroy();
  }
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | null {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text.length > 0 && text.length <= 512 ? text : null;
}

function failure(error: unknown, total: AbortSignal): FeedFetchResult {
  const code = (error as { code?: string }).code ?? '';
  if (total.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'failed', code: 'timeout', detail: code || 'the download took too long' };
  }
  return { kind: 'failed', code: 'network', detail: `${code ? `${code}: ` : ''}${(error as Error).message ?? String(error)}`.slice(0, 300) };
}
