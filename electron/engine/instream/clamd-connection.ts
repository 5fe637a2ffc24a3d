// One request to clamd on a fresh connection: send a command (and, for
// INSTREAM, the file from disk in chunks, honouring backpressure), read the
// reply until clamd closes, and turn every failure into an EngineError.
import { createConnection, type Socket } from 'node:net';
import { EngineError } from '../engine.ts';
import { chunkHeader, END_OF_STREAM, endpointLabel, type ClamdEndpoint } from './clamd-protocol.ts';
import type { ChunkSource, FileChunk } from './file-chunks.ts';

export interface ClamdRequest {
  endpoint: ClamdEndpoint;
  command: Buffer;
  /** For INSTREAM: the file (being opened), or bytes in memory, that follow the command; the caller closes it. */
  body?: Promise<ChunkSource>;
  connectTimeoutMs: number;
  /** Longest silence from clamd (no byte read or written) before giving up. */
  idleTimeoutMs: number;
  signal?: AbortSignal;
}

// The reason the upload loop is stopped with: a constant, because a default
// abort reason (a DOMException with a stack) costs measurably per scan.
const EXCHANGE_OVER = 'exchange over';

// clamd's replies are one short line each; anything longer is not clamd.
const MAX_REPLY_BYTES = 64 * 1024;

// Socket errors that mean nobody (usable) is listening there.
const UNREACHABLE = new Set([
  'ENOENT', 'ECONNREFUSED', 'EACCES', 'EPERM', 'ENOTSOCK', 'ENOTDIR', 'EHOSTUNREACH', 'ENETUNREACH',
  'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EPIPE', 'EADDRNOTAVAIL',
]);

/**
 * clamd hung up on an INSTREAM upload and its reply, if it sent one, was lost:
 * Node closes the socket on a failed write (EPIPE) before reading the reply
 * waiting in the kernel buffer, and a TCP reset (ECONNRESET) discards it. The
 * engine then asks clamd whether it is alive, to tell a refusal from a crash.
 */
export class ClamdStreamDropped extends EngineError {
  readonly bytesSent: number;
  constructor(message: string, bytesSent: number, options?: { cause?: unknown }) {
    super('engine_unavailable', message, options);
    this.bytesSent = bytesSent;
  }
}

/** Resolves with everything clamd sent before closing the connection. */
export function clamdRequest(request: ClamdRequest): Promise<string> {
  const { endpoint, signal } = request;
  const where = endpointLabel(endpoint);
  if (signal?.aborted) {
    return Promise.reject(new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason }));
  }

  return new Promise<string>((resolve, reject) => {
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let connected = false;
    let settled = false;
    const progress = { bytesSent: 0 };
    // Read the first chunk while connecting, so the command and the first
    // chunk (for a small file: all of it and the end marker) leave together.
    const firstChunk = request.body?.then((body) => body.next());
    firstChunk?.catch(() => undefined); // awaited (and reported) by upload()
    // Aborted when the exchange ends for any reason: stops the upload loop.
    const stopUpload = new AbortController();

    const socket: Socket =
      'socketPath' in endpoint
        ? createConnection({ path: endpoint.socketPath })
        : createConnection({ host: endpoint.host, port: endpoint.port });

    const replyText = () => Buffer.concat(received).toString('utf8');
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
      stopUpload.abort(EXCHANGE_OVER);
      socket.destroy();
      outcome();
    };
    const fail = (error: EngineError) => settle(() => reject(error));

    const connectTimer = setTimeout(
      () => fail(new EngineError('engine_timeout', `could not connect to clamd at ${where} within ${request.connectTimeoutMs} ms`)),
      request.connectTimeoutMs,
    );
    const onAbort = () => fail(new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal?.reason }));
    signal?.addEventListener('abort', onAbort, { once: true });

    socket.on('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      socket.setTimeout(request.idleTimeoutMs);
      if (request.body === undefined || firstChunk === undefined) {
        socket.write(request.command);
        return;
      }
      // FileChunks reports read errors as EngineError (file_unreadable); anything else is a bug.
      void upload(socket, request.command, request.body, firstChunk, stopUpload.signal, progress).catch((error: unknown) =>
        fail(error instanceof EngineError ? error : new EngineError('engine_error', String(error), { cause: error })),
      );
    });
    socket.on('timeout', () =>
      fail(new EngineError('engine_timeout', `clamd at ${where} did not answer within ${request.idleTimeoutMs} ms`)),
    );
    socket.on('data', (data: Buffer) => {
      received.push(data);
      receivedBytes += data.length;
      if (receivedBytes > MAX_REPLY_BYTES) {
        fail(new EngineError('engine_error', `the reply from ${where} is too long to be clamd's`));
        return;
      }
      // clamd answers only after the end-of-stream chunk, unless it gave up
      // (size limit): either way it reads no more, so stop sending.
      stopUpload.abort(EXCHANGE_OVER);
    });
    socket.on('end', () => settle(() => resolve(replyText())));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // clamd may close while we are still sending (it rejected the stream):
      // its complete reply, if any, is the real answer, not the broken pipe.
      const reply = replyText();
      if (connected && reply.includes('\0')) {
        settle(() => resolve(reply));
        return;
      }
      // Over TCP the whole file may already sit in kernel buffers when clamd
      // resets the connection, so "still uploading" is not required here.
      if (request.body !== undefined && reply === '' && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) {
        const message = `clamd at ${where} closed the connection after ${progress.bytesSent} bytes of the file without a reply (${error.code})`;
        fail(new ClamdStreamDropped(message, progress.bytesSent, { cause: error }));
        return;
      }
      fail(socketError(error, where, connected));
    });
    // Every exchange ends in 'close'; only an unsettled one is a failure (and
    // only then is an error built: they are not free).
    socket.on('close', () => {
      if (!settled) fail(new EngineError('engine_unavailable', `clamd at ${where} closed the connection without a reply`));
    });
  });
}

/**
 * Sends the command and the file as INSTREAM chunks, reading the next chunk
 * while the current one is written; waits for drain whenever the socket's
 * buffer is full, so memory stays at a chunk or two whatever the file size.
 */
export async function upload(
  socket: Socket,
  command: Buffer,
  opening: Promise<ChunkSource>,
  firstChunk: Promise<FileChunk>,
  stop: AbortSignal,
  progress: { bytesSent: number },
): Promise<void> {
  const body = await opening;
  let pending = firstChunk;
  let commandSent = false;
  for (;;) {
    const chunk = await pending;
    if (stop.aborted) return;
    if (!chunk.last) {
      pending = body.next();
      pending.catch(() => undefined); // awaited on the next turn, unless the exchange ends first
    }
    const flushed = writeChunk(socket, commandSent ? null : command, chunk);
    commandSent = true;
    progress.bytesSent += chunk.data.length;
    if (chunk.last) return;
    if (!flushed) await drained(socket, stop);
  }
}

/**
 * One chunk on the wire (after the command, for the first): a framed chunk in one
 * write, its buffer released once written; else its length, data and end marker
 * corked into one. Returns false when the socket's buffer is full.
 */
function writeChunk(socket: Socket, command: Buffer | null, chunk: FileChunk): boolean {
  const { frame, release } = chunk;
  if (frame && !command) return socket.write(frame, release);
  socket.cork();
  if (command) socket.write(command);
  let flushed = true;
  if (frame) flushed = socket.write(frame, release);
  else {
    if (chunk.data.length > 0) {
      socket.write(chunkHeader(chunk.data.length));
      flushed = socket.write(chunk.data);
    }
    if (chunk.last) socket.write(END_OF_STREAM);
  }
  socket.uncork();
  return flushed;
}

/** Resolves when the socket wants more data or the exchange is over. */
function drained(socket: Socket, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      stop.removeEventListener('abort', done);
      resolve();
    };
    socket.on('drain', done);
    stop.addEventListener('abort', done, { once: true });
  });
}

export function socketError(error: NodeJS.ErrnoException, where: string, connected: boolean): EngineError {
  const code = error.code ?? error.message;
  if (!connected || UNREACHABLE.has(code)) {
    const what = connected ? 'dropped the connection' : 'is not reachable';
    return new EngineError('engine_unavailable', `clamd at ${where} ${what} (${code})`, { cause: error });
  }
  return new EngineError('engine_error', `talking to clamd at ${where} failed (${code})`, { cause: error });
}
