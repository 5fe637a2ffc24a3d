/**
 * HTTP/1.1 over a bare TCP socket, for tests that must send what a well-behaved
 * client refuses to (no boundary, cut-off bodies, huge header lines, lying
 * Content-Length, non-ASCII header bytes) and still read the server's answer.
 *
 * ```ts
 * const reply = await rawRequest(port, 'POST /file-scans HTTP/1.1\r\nHost: x\r\n...\r\n\r\n', body);
 * reply.status; reply.headers['retry-after']; reply.json();
 * ```
 *
 * The body may be a string/Buffer or an (async) iterable of chunks; it is written
 * with back-pressure and writing stops as soon as the answer has arrived (a
 * server that answers early and then drains or closes is not fed further).
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export type RawBody = string | Buffer | Iterable<string | Buffer> | AsyncIterable<string | Buffer>;

export interface RawResponse {
  /** 0 when the connection ended before a complete answer. */
  status: number;
  /** Lower-case names; the last value wins. */
  headers: Record<string, string>;
  body: string;
  /** Interim (1xx) statuses seen before the answer, e.g. 100. */
  interim: number[];
  /** Body bytes the client managed to write before it stopped (answer, close or end). */
  bytesWritten: number;
  /** Why the connection ended without an answer (ECONNRESET, EPIPE, 'closed'), if it did. */
  error: string | null;
  json(): Record<string, unknown>;
}

export interface RawRequestOptions {
  host?: string;
  /** Give up (and destroy the socket) after this long; the reply then has status 0 and error 'timeout'. */
  timeoutMs?: number;
  /** Keep the socket open after the answer instead of destroying it (the caller gets it back). */
  keepOpen?: boolean;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  interim: number[];
  /** Offset just past this answer in the data. */
  end: number;
}

/** Parses the first complete non-1xx answer in `data`; null while incomplete. `ended`: the peer closed. */
function parseResponse(data: Buffer, ended: boolean): Parsed | null {
  const interim: number[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return null;
    const lines = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (!Number.isFinite(status)) return null;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) {
      interim.push(status);
      offset = bodyStart;
      continue;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const end = bodyStart + Number(length);
      if (data.length < end) return null;
      return { status, headers, body: data.subarray(bodyStart, end), interim, end };
    }
    // No length (e.g. Node's own 400/431 answers): the body runs to the close.
    return ended ? { status, headers, body: data.subarray(bodyStart), interim, end: data.length } : null;
  }
}

export async function rawRequest(port: number, head: string | Buffer, body?: RawBody, options: RawRequestOptions = {}): Promise<RawResponse & { socket: Socket }> {
  const socket = connect(port, options.host ?? '127.0.0.1');
  const chunks: Buffer[] = [];
  let ended = false;
  let error: string | null = null;
  let parsed: Parsed | null = null;
  let bytesWritten = 0;

  const done = new Promise<void>((resolve) => {
    const check = () => {
      if (!parsed) parsed = parseResponse(Buffer.concat(chunks), ended);
      if (parsed || ended) resolve();
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      check();
    });
    socket.on('end', () => {
      ended = true;
      check();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => {
      ended = true;
      check();
    });
  });

  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          error ??= 'timeout';
          socket.destroy();
        }, options.timeoutMs);

  const writing = (async () => {
    try {
      await once(socket, 'connect');
    } catch {
      return;
    }
    const write = async (chunk: string | Buffer) => {
      if (parsed || socket.destroyed || socket.writableEnded) return false;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
      bytesWritten += buffer.length;
      if (!socket.write(buffer)) {
        await Promise.race([once(socket, 'drain'), done]);
      }
      return !parsed && !socket.destroyed;
    };
    if (!(await write(head))) return;
    bytesWritten = 0;
    if (body === undefined) return;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      await write(body);
      return;
    }
    for await (const chunk of body as AsyncIterable<string | Buffer>) {
      if (!(await write(chunk))) return;
    }
  })().catch(() => {});

  await done;
  if (timer) clearTimeout(timer);
  await Promise.race([writing, Promise.resolve()]);
  if (!options.keepOpen) socket.destroy();
  const result: Parsed | null = parsed;
  const text = result ? (result as Parsed).body.toString('utf8') : '';
  return {
    status: result ? (result as Parsed).status : 0,
    headers: result ? (result as Parsed).headers : {},
    body: text,
    interim: result ? (result as Parsed).interim : [],
    bytesWritten,
    error: result ? null : (error ?? 'closed'),
    socket,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

/** A request head; `headers` are written as given (no validation), so they may be hostile. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** `total` bytes of `fill`, in chunks of `chunkSize`, generated lazily (nothing held). */
export function* repeatedBytes(total: number, chunkSize = 256 * 1024, fill = 0x61): Generator<Buffer> {
  const chunk = Buffer.alloc(chunkSize, fill);
  let left = total;
  while (left > 0) {
    const n = Math.min(left, chunkSize);
    left -= n;
    yield n === chunkSize ? chunk : chunk.subarray(0, n);
  }
}

/**
 * Writes `payload` (several requests back to back on one connection) and
 * collects `count` answers in order, for pipelining and request-boundary tests.
 * Fewer answers come back if the server closes the connection first.
 */
export async function rawExchange(port: number, payload: Buffer, count: number, options: { host?: string; timeoutMs?: number } = {}): Promise<RawResponse[]> {
  const socket = connect(port, options.host ?? '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(payload);
  const answers: RawResponse[] = [];
  const take = (ended: boolean) => {
    let data = Buffer.concat(chunks);
    while (answers.length < count) {
      const parsed = parseResponse(data, ended);
      if (!parsed) break;
      const text = parsed.body.toString('utf8');
      answers.push({ status: parsed.status, headers: parsed.headers, body: text, interim: parsed.interim, bytesWritten: payload.length, error: null, json: () => JSON.parse(text) as Record<string, unknown> });
      data = data.subarray(parsed.end);
      chunks.length = 0;
      chunks.push(data);
    }
  };
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, options.timeoutMs ?? 10_000);
    const finish = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      take(false);
      if (answers.length >= count) finish();
    });
    socket.on('close', () => {
      take(true);
      finish();
    });
  });
  socket.destroy();
  return answers;
}
