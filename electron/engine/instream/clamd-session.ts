// One clamd session (zIDSESSION): a kept connection on which INSTREAM scans
// follow one another, each reply prefixed by its request number. One request
// at a time, so replies come in order. A session that fails, ends, or says
// anything unexpected is never used again (see clamd-session-pool.ts).
import { createConnection, type Socket } from 'node:net';
import { EngineError } from '../engine.ts';
import { ClamdStreamDropped, socketError, upload } from './clamd-connection.ts';
import { COMMANDS, endpointLabel, type ClamdEndpoint } from './clamd-protocol.ts';
import type { ChunkSource } from './file-chunks.ts';
import { sessionMessage, SESSION_COMMANDS } from './clamd-session-protocol.ts';

/** The scan in flight on a session. */
interface Exchange {
  id: number;
  /** Messages (prefix removed) received for this request. */
  messages: string[];
  /** A FOUND reply: END was sent, and the reply is complete when clamd closes (AllMatchScan may add findings). */
  ending: boolean;
  progress: { bytesSent: number };
  stopUpload: AbortController;
  resolve(reply: string): void;
  reject(error: EngineError): void;
}

// clamd's replies are one short line each; anything longer is not clamd.
const MAX_PENDING_BYTES = 64 * 1024;
const EXCHANGE_OVER = 'exchange over';

export class ClamdSession {
  readonly #socket: Socket;
  readonly #where: string;
  #nextId = 1;
  #pending = '';
  #exchange: Exchange | null = null;
  #alive = true;
  #idleTimeoutMs = 0;

  private constructor(socket: Socket, where: string) {
    this.#socket = socket;
    this.#where = where;
    socket.on('data', (data: Buffer) => this.#onData(data));
    socket.on('end', () => this.#onClosed(null));
    socket.on('close', () => this.#onClosed(null));
    socket.on('error', (error: NodeJS.ErrnoException) => this.#onClosed(error));
    socket.on('timeout', () =>
      this.#fail(new EngineError('engine_timeout', `clamd at ${this.#where} did not answer within ${this.#idleTimeoutMs} ms`)),
    );
  }

  /** Connects; the session itself starts with the first request (zIDSESSION leaves with it). */
  static open(endpoint: ClamdEndpoint, connectTimeoutMs: number, signal?: AbortSignal): Promise<ClamdSession> {
    const where = endpointLabel(endpoint);
    return new Promise((resolve, reject) => {
      const socket = 'socketPath' in endpoint ? createConnection({ path: endpoint.socketPath }) : createConnection({ host: endpoint.host, port: endpoint.port });
      const done = (error: EngineError | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.off('connect', onConnect);
        socket.off('error', onError);
        if (error) {
          socket.destroy();
          reject(error);
        } else resolve(new ClamdSession(socket, where));
      };
      const onConnect = () => done(null);
      const onError = (error: NodeJS.ErrnoException) => done(socketError(error, where, false));
      const onAbort = () => done(new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal?.reason }));
      const timer = setTimeout(
        () => done(new EngineError('engine_timeout', `could not connect to clamd at ${where} within ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      socket.once('connect', onConnect);
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Neither failed nor ended, and between requests: may take the next scan. */
  get usable(): boolean {
    return this.#alive && this.#exchange === null;
  }

  /** Requests sent so far (1 after the first scan). */
  get requests(): number {
    return this.#nextId - 1;
  }

  /**
   * Sends zINSTREAM and the body; resolves with the reply as NUL-terminated
   * messages without their request number, as parseInstreamReply reads it.
   */
  instream(opening: Promise<ChunkSource>, idleTimeoutMs: number, signal?: AbortSignal): Promise<string> {
    return this.#request(opening, idleTimeoutMs, signal);
  }

  /** Starts the session with a PING; resolves when clamd answers it as a session (`1: PONG`). */
  async start(timeoutMs: number): Promise<void> {
    const reply = await this.#request(null, timeoutMs);
    if (reply !== 'PONG\0') throw new EngineError('engine_error', `clamd at ${this.#where} did not answer PING in a session`);
  }

  #request(opening: Promise<ChunkSource> | null, idleTimeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (!this.usable) return Promise.reject(new EngineError('engine_unavailable', `the session with clamd at ${this.#where} is over`));
    if (signal?.aborted) return Promise.reject(new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason }));
    const socket = this.#socket;
    const first = this.#nextId === 1;
    const id = this.#nextId++;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => this.#fail(new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal?.reason }));
      const finish = () => {
        signal?.removeEventListener('abort', onAbort);
        socket.setTimeout(0);
        socket.unref();
      };
      const exchange: Exchange = {
        id,
        messages: [],
        ending: false,
        progress: { bytesSent: 0 },
        stopUpload: new AbortController(),
        resolve: (reply) => {
          finish();
          resolve(reply);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      };
      this.#exchange = exchange;
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.ref();
      this.#idleTimeoutMs = idleTimeoutMs;
      socket.setTimeout(idleTimeoutMs);
      if (opening === null) {
        socket.write(first ? SESSION_COMMANDS.startAndPing : COMMANDS.ping);
        return;
      }
      const firstChunk = opening.then((body) => body.next());
      firstChunk.catch(() => undefined); // awaited (and reported) by upload()
      const command = first ? SESSION_COMMANDS.startAndInstream : SESSION_COMMANDS.instream;
      void upload(socket, command, opening, firstChunk, exchange.stopUpload.signal, exchange.progress).catch((error: unknown) =>
        this.#fail(error instanceof EngineError ? error : new EngineError('engine_error', String(error), { cause: error })),
      );
    });
  }

  /** Ends the session (zEND) and closes the connection. */
  close(): void {
    if (!this.#alive) return;
    this.#alive = false;
    if (this.#exchange === null && this.#nextId > 1 && this.#socket.writable) this.#socket.end(SESSION_COMMANDS.end);
    this.#socket.destroy();
  }

  #onData(data: Buffer): void {
    const exchange = this.#exchange;
    if (exchange === null) {
      // Nothing was asked (e.g. clamd's "COMMAND READ TIMED OUT" on an idle session): this session is over.
      this.#alive = false;
      this.#socket.destroy();
      return;
    }
    // clamd answers only after the end-of-stream chunk, unless it gave up: either way it reads no more.
    exchange.stopUpload.abort(EXCHANGE_OVER);
    this.#pending += data.toString('latin1');
    if (this.#pending.length > MAX_PENDING_BYTES) {
      this.#fail(new EngineError('engine_error', `the reply from ${this.#where} is too long to be clamd's`));
      return;
    }
    for (let end = this.#pending.indexOf('\0'); end >= 0 && this.#exchange === exchange; end = this.#pending.indexOf('\0')) {
      const raw = this.#pending.slice(0, end);
      this.#pending = this.#pending.slice(end + 1);
      this.#onMessage(exchange, Buffer.from(raw, 'latin1').toString('utf8'));
    }
  }

  #onMessage(exchange: Exchange, raw: string): void {
    const message = sessionMessage(raw, exchange.id);
    if (message === null) {
      this.#fail(new EngineError('engine_error', `unexpected reply from clamd in a session (request ${exchange.id}): ${JSON.stringify(raw.slice(0, 120))}`));
      return;
    }
    exchange.messages.push(message);
    if (exchange.ending) return;
    if (message === 'stream: OK' || message === 'PONG') {
      this.#exchange = null;
      exchange.resolve(`${message}\0`);
    } else if (message.endsWith(' FOUND')) {
      // With AllMatchScan more findings may follow, and nothing marks the last: END, and collect until clamd closes.
      exchange.ending = true;
      this.#alive = false;
      this.#socket.end(SESSION_COMMANDS.end);
    } else {
      // An ERROR (clamd closes the session after it) or anything else: the caller reads it; the session is done.
      this.#alive = false;
      this.#exchange = null;
      exchange.resolve(`${message}\0`);
      this.#socket.destroy();
    }
  }

  #onClosed(error: NodeJS.ErrnoException | null): void {
    this.#alive = false;
    const exchange = this.#exchange;
    if (exchange === null) return;
    if (exchange.ending) {
      this.#exchange = null;
      exchange.resolve(exchange.messages.map((message) => `${message}\0`).join(''));
      this.#socket.destroy();
      return;
    }
    if (error && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) {
      // As with a connection per scan: the reply, if clamd sent one, was lost with the connection.
      const sent = exchange.progress.bytesSent;
      const text = `clamd at ${this.#where} closed the session after ${sent} bytes of the file without a reply (${error.code})`;
      this.#fail(new ClamdStreamDropped(text, sent, { cause: error }));
      return;
    }
    this.#fail(error ? socketError(error, this.#where, true) : new EngineError('engine_unavailable', `clamd at ${this.#where} closed the session without a reply`));
  }

  #fail(error: EngineError): void {
    this.#alive = false;
    const exchange = this.#exchange;
    this.#exchange = null;
    this.#socket.destroy();
    if (exchange === null) return;
    exchange.stopUpload.abort(EXCHANGE_OVER);
    exchange.reject(error);
  }
}
