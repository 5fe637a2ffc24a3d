// The ClamAV engine: asks a running clamd to scan each file. Once clamd has answered in a
// session (with `sessions`), files go through the session client (electron/engine/clamd:
// one IDSESSION, several commands in flight, a file by its open descriptor where clamd can
// take one, else streamed from it). Until then, and with a clamd that keeps no sessions,
// INSTREAM on a connection per scan.
import { openClamdClient, type ClamdClient, type ClamdTransport } from './clamd/clamd-client.ts';
import { scanBytesInSession, scanFileByDescriptor } from './clamd-file-scan.ts';
import { EngineError, type EngineVerdict, type ScanEngine, type ScanOptions } from './engine.ts';
import { ClamdStreamDropped, clamdRequest } from './instream/clamd-connection.ts';
import { BufferChunks, FileChunks, type ChunkSource } from './instream/file-chunks.ts';
import { COMMANDS, endpointLabel, parseInstreamReply, quoteReply, replyMessages, type ClamdEndpoint } from './instream/clamd-protocol.ts';
import { ClamdSessionPool } from './instream/clamd-session-pool.ts';
import { ClamdIdentity, IDENTITY_MAX_AGE_MS } from './databases/clamd-identity.ts';
import type { DatabaseFolder } from './databases/database-digest.ts';
import { expectedTransport } from './clamd/expected-transport.ts';

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
  /**
   * clamd sessions kept open between scans, at most (match it to the scans run at
   * once). Default 0: a new connection for every scan. PING and VERSION always
   * use a connection of their own.
   */
  sessions?: number;
  /**
   * How long clamd's VERSION answer stands for the verdicts that follow (default 60 s).
   * It is asked again after that and after any failed scan. 0: asked for every scan.
   */
  identityMaxAgeMs?: number;
  /** The folder this clamd loads its signatures from and when it loaded it, when known: verdicts then carry a digest of it (database-digest.ts). */
  databaseFolder?: () => DatabaseFolder | null;
  /**
   * With `sessions`: once clamd has answered in a session, files go through the session client (one session, several
   * commands in flight, by descriptor where it can) instead of INSTREAM on kept sessions one at a time. Default false.
   */
  sessionClient?: boolean;
  /** For the session client. 'off': files are streamed even where clamd could take their descriptors (FILDES); default 'auto'. */
  fdPassing?: 'auto' | 'off';
  /** Told when the session client stops passing descriptors and streams instead (the engine line says how files go). */
  onTransportChange?: (transport: ClamdTransport) => void;
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
  readonly #sessions: ClamdSessionPool | null;
  readonly #identity: ClamdIdentity;
  readonly #fdPassing: 'auto' | 'off';
  readonly #useClient: boolean;
  readonly #onTransportChange: ((transport: ClamdTransport) => void) | undefined;
  #client: ClamdClient | null = null;

  constructor(options: ClamdEngineOptions) {
    this.endpoint = options.endpoint;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CLAMD_DEFAULTS.connectTimeoutMs;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? CLAMD_DEFAULTS.idleTimeoutMs;
    this.#chunkSize = options.chunkSize ?? CLAMD_DEFAULTS.chunkSize;
    const sessions = options.sessions ?? 0;
    this.#sessions = sessions > 0 ? new ClamdSessionPool(this.endpoint, sessions, Math.min(this.#connectTimeoutMs, 2_000)) : null;
    this.#fdPassing = options.fdPassing ?? 'auto';
    this.#useClient = options.sessionClient === true;
    this.#onTransportChange = options.onTransportChange;
    this.#identity = new ClamdIdentity(() => this.version({ timeoutMs: Math.min(this.#connectTimeoutMs, 2_000) }), options.identityMaxAgeMs ?? IDENTITY_MAX_AGE_MS, options.databaseFolder);
  }

  /**
   * With `sessions`: resolves once it is known whether clamd keeps sessions (true) or
   * scans go on using a connection each (false). Scans never wait for it.
   */
  sessionsReady(): Promise<boolean> {
    return this.#sessions?.whenReady() ?? Promise.resolve(false);
  }

  /** Ends the kept sessions (a scan still running ends its own when done; the session client's ends after its last). */
  async close(): Promise<void> {
    this.#sessions?.close();
    void this.#client?.close();
  }

  /** Scans worth running at once: the session client's commands in flight, once clamd keeps sessions. */
  get concurrency(): number | undefined {
    return this.#sessionClient()?.inFlight;
  }

  /** How files reach clamd now: by descriptor (FILDES) or streamed (INSTREAM); null until clamd kept a session. */
  get transport(): ClamdTransport | null {
    return this.#client?.transport ?? null;
  }

  /** How files reach clamd: as the session client found, else as they will go (TCP or no addon: streamed; no session client: streamed). */
  get transfer(): ClamdTransport {
    return this.#client?.transport ?? (this.#useClient ? expectedTransport(this.where, this.#fdPassing) : 'instream');
  }

  /** The session client, once clamd has answered in a session; null before (and with a clamd that keeps none). */
  #sessionClient(): ClamdClient | null {
    if (this.#client === null && this.#useClient && this.#sessions?.ready === true) {
      const address = 'socketPath' in this.endpoint ? { kind: 'unix' as const, path: this.endpoint.socketPath } : { kind: 'tcp' as const, ...this.endpoint };
      // A clamd gone for more than a moment is the live engine's to notice (it pings, then waits for ClamAV).
      this.#client = openClamdClient({ address, fdPassing: this.#fdPassing, connectTimeoutMs: this.#connectTimeoutMs, replyTimeoutMs: this.#idleTimeoutMs, chunkSize: this.#chunkSize, reconnectWindowMs: 1_000, ...(this.#onTransportChange ? { onTransportChange: this.#onTransportChange } : {}) });
    }
    return this.#client;
  }

  /** `unix:/path` or `tcp:host:port`. */
  get where(): string {
    return endpointLabel(this.endpoint);
  }

  async scan(filePath: string, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    const client = await this.#sessionClientChecked();
    if (client) return this.#identified(scanFileByDescriptor(client, filePath, options?.hashed, signal));
    // Opening the file overlaps with connecting; an unreadable file still
    // fails the scan with file_unreadable once clamd has been reached.
    return this.#instream(() => FileChunks.open(filePath, this.#chunkSize), signal);
  }

  async scanBytes(content: Buffer, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    const client = await this.#sessionClientChecked();
    if (client) return this.#identified(scanBytesInSession(client, content, options?.hashed, signal));
    return this.#instream(async () => new BufferChunks(content, this.#chunkSize), signal);
  }

  /** The session client; the first scans wait for clamd's first session answer (one PING), so every file goes one way. */
  async #sessionClientChecked(): Promise<ClamdClient | null> {
    if (this.#client === null && this.#useClient) await this.#sessions?.whenReady();
    return this.#sessionClient();
  }

  /** A session client's verdict with who made it, as #instream gives it. */
  async #identified(scanning: Promise<EngineVerdict>): Promise<EngineVerdict> {
    void this.#identity.current();
    try {
      const verdict = await scanning;
      return { ...verdict, engine: await this.#identity.current() };
    } catch (error) {
      this.#identity.forget();
      throw error;
    }
  }

  /** Each verdict carries who made it; VERSION is asked alongside the scan, when it is due. */
  async #instream(openBody: () => Promise<ChunkSource>, signal?: AbortSignal): Promise<EngineVerdict> {
    if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
    void this.#identity.current();
    try {
      const verdict = this.#sessions?.ready ? await this.#instreamInSession(this.#sessions, openBody, signal) : await this.#instreamAlone(openBody, signal);
      // Asked again here only if a lost session made it forget meanwhile (clamd may have restarted).
      return { ...verdict, engine: await this.#identity.current() };
    } catch (error) {
      // clamd may have restarted, or reloaded other signatures: the next verdict asks again.
      this.#identity.forget();
      throw error;
    }
  }

  /** INSTREAM on a connection of its own. */
  async #instreamAlone(openBody: () => Promise<ChunkSource>, signal?: AbortSignal): Promise<EngineVerdict> {
    const opening = openBody();
    opening.catch(() => undefined); // reported through the request
    let reply: string;
    try {
      reply = await this.#request(COMMANDS.instream, signal, opening);
    } catch (error) {
      if (error instanceof ClamdStreamDropped) throw await this.#explainDroppedStream(error, signal);
      throw error;
    } finally {
      closeWhenOpened(opening);
    }
    return parseInstreamReply(reply);
  }

  /**
   * INSTREAM on a kept session. A reused session that breaks before clamd says a
   * word was most likely closed by clamd while idle (ReadTimeout, a restart): the
   * scan is repeated on a connection of its own, which also tells a size-limit
   * refusal or a clamd that is gone from a stale session.
   */
  async #instreamInSession(pool: ClamdSessionPool, openBody: () => Promise<ChunkSource>, signal?: AbortSignal): Promise<EngineVerdict> {
    const opening = openBody();
    opening.catch(() => undefined); // reported through the session
    let reply: string;
    try {
      // Opening the file overlaps with connecting, as in #request.
      const { session, reused } = await pool.acquire(this.#connectTimeoutMs, signal);
      try {
        reply = await session.instream(opening, this.#idleTimeoutMs, signal);
      } catch (error) {
        if (reused && isLostSession(error, signal)) {
          this.#identity.forget();
          closeWhenOpened(opening);
          return await this.#instreamAlone(openBody, signal);
        }
        throw error;
      } finally {
        pool.release(session);
      }
    } catch (error) {
      if (error instanceof ClamdStreamDropped) throw await this.#explainDroppedStream(error, signal);
      throw error;
    } finally {
      closeWhenOpened(opening);
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

/**
 * The session broke without an answer to this scan (clamd's own answers, ERROR
 * included, resolve), and not because of the caller, the file or a timeout.
 */
function isLostSession(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted || !(error instanceof EngineError)) return false;
  return error.code === 'engine_unavailable' || error.code === 'engine_error';
}

/** Closes a file body once it is open (closing is idempotent). Not awaited: a verdict does not wait for a descriptor to close. */
function closeWhenOpened(opening: Promise<ChunkSource>): void {
  void opening.then((body) => body.close(), () => undefined);
}
