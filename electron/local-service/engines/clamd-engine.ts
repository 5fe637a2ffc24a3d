// The ClamAV engine: asks a running clamd to scan each file over its INSTREAM
// protocol, one connection per scan, so clamd need not see the service's files.
import { EngineError, type EngineVerdict, type ScanEngine } from './engine.ts';
import { ClamdStreamDropped, clamdRequest } from './clamd-connection.ts';
import { BufferChunks, FileChunks, type ChunkSource } from './file-chunks.ts';
import { COMMANDS, endpointLabel, parseInstreamReply, quoteReply, replyMessages, type ClamdEndpoint } from './clamd-protocol.ts';

export interface ClamdEngineOptions {
  endpoint: ClamdEndpoint;
  /** Default 5 s: connecting to a local socket is instant or it fails. */
  connectTimeoutMs?: number;
  /**
   * Longest silence from clamd before the scan fails with `engine_timeout`.
   * Default 150 s: above clamd's own MaxScanTime (120 s by default), so clamd
   * gives up and says so before we do.
   */
  idleTimeoutMs?: number;
  /** Bytes per INSTREAM chunk (default 256 KiB; clamd accepts any size up to StreamMaxLength). */
  chunkSize?: number;
}

export const CLAMD_DEFAULTS = {
  connectTimeoutMs: 5_000,
  idleTimeoutMs: 150_000,
  chunkSize: 256 * 1024,
} as const;

export class ClamdEngine implements ScanEngine {
  readonly name = 'clamd';
  readonly endpoint: ClamdEndpoint;
  readonly #connectTimeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #chunkSize: number;

  constructor(options: ClamdEngineOptions) {
    this.endpoint = options.endpoint;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CLAMD_DEFAULTS.connectTimeoutMs;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? CLAMD_DEFAULTS.idleTimeoutMs;
    this.#chunkSize = options.chunkSize ?? CLAMD_DEFAULTS.chunkSize;
  }

  /** `unix:/path` or `tcp:host:port`. */
  get where(): string {
    return endpointLabel(this.endpoint);
  }

  async scan(filePath: string, signal?: AbortSignal): Promise<EngineVerdict> {
    // Opening the file overlaps with connecting; an unreadable file still
    // fails the scan with file_unreadable once clamd has been reached.
    return this.#instream(() => FileChunks.open(filePath, this.#chunkSize), signal);
  }

  async scanBytes(content: Buffer, signal?: AbortSignal): Promise<EngineVerdict> {
    return this.#instream(async () => new BufferChunks(content, this.#chunkSize), signal);
  }

  async #instream(openBody: () => Promise<ChunkSource>, signal?: AbortSignal): Promise<EngineVerdict> {
    if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
    const opening = openBody();
    opening.catch(() => undefined); // reported through the request
    let reply: string;
    try {
      reply = await this.#request(COMMANDS.instream, signal, opening);
    } catch (error) {
      if (error instanceof ClamdStreamDropped) throw await this.#explainDroppedStream(error, signal);
      throw error;
    } finally {
      // Not awaited: the verdict does not wait for the descriptor to close.
      void opening.then((body) => body.close(), () => undefined);
    }
    return parseInstreamReply(reply);
  }

  /**
   * clamd hung up mid-upload and its reply was lost. If it still answers PING
   * it refused the stream on purpose; with our framing the only such refusal
   * is StreamMaxLength. If it does not answer, it is gone.
   */
  async #explainDroppedStream(dropped: ClamdStreamDropped, signal?: AbortSignal): Promise<EngineError> {
    try {
      await this.ping({ timeoutMs: Math.min(this.#connectTimeoutMs, 2_000), signal });
    } catch (error) {
      return error instanceof EngineError && error.code === 'engine_aborted' ? error : dropped;
    }
    return new EngineError(
      'engine_size_limit',
      `clamd closed the connection after ${dropped.bytesSent} bytes of the file were sent, and still answers PING: ` +
        'it refused the file, most likely for exceeding its StreamMaxLength (raise StreamMaxLength in clamd.conf)',
      { cause: dropped },
    );
  }

  /** Resolves when clamd answers PONG; otherwise rejects with an EngineError. */
  async ping(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    const reply = await this.#request(COMMANDS.ping, options.signal, undefined, options.timeoutMs);
    const message = this.#firstMessage(reply);
    if (message !== 'PONG') {
      throw new EngineError('engine_error', `${this.where} did not answer PING with PONG: ${quoteReply(reply)}`);
    }
  }

  /** clamd's version line, e.g. `ClamAV 1.4.6/27467/Mon Nov 24 09:00:00 2025`. */
  async version(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string> {
    const reply = await this.#request(COMMANDS.version, options.signal, undefined, options.timeoutMs);
    const message = this.#firstMessage(reply);
    if (!message.startsWith('ClamAV ')) {
      throw new EngineError('engine_error', `${this.where} did not answer VERSION: ${quoteReply(reply)}`);
    }
    return message;
  }

  #firstMessage(reply: string): string {
    const [message] = replyMessages(reply);
    if (message === undefined) {
      throw new EngineError('engine_unavailable', `clamd at ${this.where} closed the connection without a reply`);
    }
    return message;
  }

  #request(command: Buffer, signal: AbortSignal | undefined, body?: Promise<ChunkSource>, timeoutMs?: number): Promise<string> {
    return clamdRequest({
      endpoint: this.endpoint,
      command,
      body,
      connectTimeoutMs: Math.min(timeoutMs ?? this.#connectTimeoutMs, this.#connectTimeoutMs),
      idleTimeoutMs: timeoutMs ?? this.#idleTimeoutMs,
      signal,
    });
  }
}
