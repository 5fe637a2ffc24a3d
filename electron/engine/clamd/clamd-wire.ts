// One connection to clamd and the order of what goes on it. Node's net.Socket does all
// reading and most writing; a command that carries a file descriptor (FILDES) is one
// sendmsg() through the addon, made only when the socket's own write queue is empty, so
// no byte overtakes another. Over a Unix socket with the addon the connection is made by
// the addon and handed to net.Socket({ fd }): Verdict then knows the descriptor without
// reading Node's internal `socket._handle.fd`.
import { closeSync } from 'node:fs';
import { createConnection, Socket } from 'node:net';
import type { ClamdAddress } from '../../../shared/engine/clamd-address.ts';
import { formatClamdAddress } from '../../../shared/engine/clamd-address.ts';
import { upload } from '../instream/clamd-connection.ts';
import { END_OF_STREAM } from '../instream/clamd-protocol.ts';
import type { ChunkSource, FileChunk } from '../instream/file-chunks.ts';
import type { FdPassing } from './fd-passing.ts';

export interface WireHandlers {
  data(chunk: Buffer): void;
  /** The connection is gone (clamd closed it, an error, or close()); called once. */
  closed(error: NodeJS.ErrnoException | null): void;
}

type WireOp =
  | { kind: 'bytes'; data: Buffer }
  | { kind: 'fd'; fd: number; data: Buffer }
  | { kind: 'stream'; command: Buffer; source: ChunkSource; done(error: unknown): void };

const EMPTY = Buffer.alloc(0);
/** sendmsg() found the socket's buffer full: tried again after this long, doubling. */
const RETRY_FIRST_MS = 1;
const RETRY_MAX_MS = 50;
/** After a broken pipe, how long the replies clamd sent before closing may take to be read. */
const DRAIN_MS = 2_000;

export class ClamdWire {
  readonly #socket: Socket;
  /** The socket's descriptor when file descriptors can be passed on it, else -1. */
  readonly #fd: number;
  readonly #addon: FdPassing | null;
  readonly #ops: WireOp[] = [];
  readonly #stop = new AbortController();
  #busy = false;
  #retryMs = RETRY_FIRST_MS;
  #closed = false;

  private constructor(socket: Socket, fd: number, addon: FdPassing | null, handlers: WireHandlers) {
    this.#socket = socket;
    this.#fd = fd;
    this.#addon = addon;
    socket.on('data', (chunk: Buffer) => handlers.data(chunk));
    const closed = (error: NodeJS.ErrnoException | null) => {
      if (this.#closed) return;
      this.#closed = true;
      this.#stop.abort('closed');
      socket.destroy();
      handlers.closed(error);
    };
    socket.on('error', (error: NodeJS.ErrnoException) => closed(error));
    socket.on('close', () => closed(null));
  }

  /** Connects; over a Unix socket with the addon, one on which descriptors can be passed. */
  static async connect(address: ClamdAddress, addon: FdPassing | null, timeoutMs: number, handlers: WireHandlers): Promise<ClamdWire> {
    if (address.kind === 'unix' && addon !== null) {
      const fd = addon.connectUnix(address.path);
      let socket: Socket;
      try {
        socket = new Socket({ fd, readable: true, writable: true });
      } catch (error) {
        closeSync(fd);
        throw error;
      }
      return new ClamdWire(socket, fd, addon, handlers);
    }
    const socket = address.kind === 'unix' ? createConnection({ path: address.path }) : createConnection({ host: address.host, port: address.port, noDelay: true });
    await connected(socket, timeoutMs, formatClamdAddress(address));
    return new ClamdWire(socket, -1, null, handlers);
  }

  get passesFds(): boolean {
    return this.#fd >= 0;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Plain command bytes, after everything written before. */
  write(data: Buffer): void {
    this.#enqueue({ kind: 'bytes', data });
  }

  /** `data` with `fd` attached (passesFds only), after everything written before. */
  passFd(fd: number, data: Buffer): void {
    if (!this.passesFds) throw new Error('this connection cannot pass file descriptors');
    this.#enqueue({ kind: 'fd', fd, data });
  }

  /**
   * An INSTREAM command and its data. `done` gets null once all of it is handed to the
   * socket, or the source's error: the stream is then ended early (the command and the
   * end marker still go out, so clamd's request numbers stay in step) and its reply is
   * the caller's to ignore.
   */
  stream(command: Buffer, source: ChunkSource, done: (error: unknown) => void): void {
    this.#enqueue({ kind: 'stream', command, source, done });
  }

  /** Whether the connection keeps the process alive: only while clamd has work from it. */
  holdProcess(busy: boolean): void {
    if (busy) this.#socket.ref();
    else this.#socket.unref();
  }

  close(): void {
    this.#socket.destroy();
  }

  #enqueue(op: WireOp): void {
    if (this.#closed) {
      if (op.kind === 'stream') op.done(new Error('the connection is closed'));
      return;
    }
    this.#ops.push(op);
    if (!this.#busy) this.#pump();
  }

  #pump(): void {
    while (!this.#busy && !this.#closed && this.#ops.length > 0) {
      const op = this.#ops[0]!;
      if (op.kind === 'bytes') {
        this.#socket.write(op.data);
        this.#ops.shift();
      } else if (op.kind === 'stream') {
        this.#ops.shift();
        this.#busy = true;
        void this.#writeStream(op).finally(() => this.#resume());
      } else if (this.#socket.writableLength > 0) {
        // Node still holds bytes written earlier: the descriptor's command waits until they are in the kernel.
        this.#busy = true;
        this.#socket.write(EMPTY, () => this.#resume());
      } else if (!this.#sendFd(op)) {
        this.#busy = true;
        setTimeout(() => this.#resume(), this.#retryMs).unref();
        this.#retryMs = Math.min(RETRY_MAX_MS, this.#retryMs * 2);
      } else {
        this.#ops.shift();
        this.#retryMs = RETRY_FIRST_MS;
      }
    }
  }

  #resume(): void {
    this.#busy = false;
    this.#pump();
  }

  /** True when all of the op's bytes went out; false when the socket is full (try later). */
  #sendFd(op: { fd: number; data: Buffer }): boolean {
    // A destroyed socket's descriptor number may already belong to another file.
    if (this.#socket.destroyed || this.#addon === null) return true;
    try {
      const sent = this.#addon.sendFd(this.#fd, op.fd, op.data);
      if (sent >= op.data.length) return true;
      // The descriptor left with the first byte; the rest goes without it.
      op.data = op.data.subarray(sent);
      op.fd = -1;
      return false;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return false;
      if (code === 'EPIPE' || code === 'ECONNRESET') {
        // clamd has closed: its last replies may still wait to be read, and the close follows them.
        this.#ops.length = 0;
        setTimeout(() => this.#socket.destroy(), DRAIN_MS).unref();
        return true;
      }
      this.#socket.destroy(error as Error);
      return true;
    }
  }

  async #writeStream(op: Extract<WireOp, { kind: 'stream' }>): Promise<void> {
    let commandSent = false;
    try {
      const first = op.source.next().then((chunk: FileChunk) => {
        commandSent = true;
        return chunk;
      });
      await upload(this.#socket, op.command, Promise.resolve(op.source), first, this.#stop.signal, { bytesSent: 0 });
      op.done(null);
    } catch (error) {
      if (!this.#closed) {
        if (!commandSent) this.#socket.write(op.command);
        this.#socket.write(END_OF_STREAM);
      }
      op.done(error);
    } finally {
      await op.source.close().catch(() => undefined);
    }
  }
}

function connected(socket: Socket, timeoutMs: number, where: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`could not connect to clamd at ${where} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    const onError = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      // Until the wire listens (a microtask later), an error must not be unhandled; its 'close' follows.
      socket.on('error', () => undefined);
      resolve();
    });
    socket.once('error', onError);
  });
}
