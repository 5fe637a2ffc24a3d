// The clamd session client: files reach one clamd the way clamdscan --multiscan --fdpass
// sends them, over one long-lived IDSESSION with several commands in flight. A file goes
// by FILDES (its open descriptor, so clamd scans exactly the bytes Verdict opened, and a
// clamd running as another user can read it) or, over TCP, without the addon, or from a
// clamd that receives no descriptors, by INSTREAM. Every call ends in one typed verdict;
// none is ever "clean" without clamd having said OK for that file.
import type { Readable } from 'node:stream';
import { formatClamdAddress, type ClamdAddress } from '../../../shared/engine/clamd-address.ts';
import { inFlightLimit, withDefaults, type ClamdLimits } from './clamd-limits.ts';
import { ClamdSession, EXPLAINED_ENDS, type SessionEnd, type SessionOwner, type SessionTimings } from './clamd-session.ts';
import { loadFdPassing, type FdPassing } from './fd-passing.ts';
import { contentMayHaveChanged, identityOf, type FileIdentity } from './file-identity.ts';
import { closeProbeFile, openProbeFile } from './probe-file.ts';
import { mayResend, newScanCommand, type ScanCommand } from './scan-command.ts';
import { errorVerdict, type ClamdTransport, type ClamdVerdict } from './session-reply.ts';
import type { StreamSource } from './stream-sources.ts';

export type { ClamdTransport, ClamdVerdict } from './session-reply.ts';

export interface ClamdClientOptions {
  address: ClamdAddress;
  /** Commands in flight on the session; default from the limits, never above MaxQueue/2. */
  inFlight?: number;
  /** clamd.conf's settings when Verdict knows them (readClamdLimits); clamd's defaults otherwise. */
  limits?: Partial<ClamdLimits>;
  /** 'off': never pass descriptors, as where the addon is missing (INSTREAM only). */
  fdPassing?: 'auto' | 'off';
  /** Default 5 s. */
  connectTimeoutMs?: number;
  /** How long scans wait for an unreachable clamd (a restart) before they fail; default 60 s. */
  reconnectWindowMs?: number;
  /** A scan clamd leaves unanswered this long fails; default 150 s, above clamd's MaxScanTime (120 s). */
  replyTimeoutMs?: number;
  /** INSTREAM chunk size; default 256 KiB. */
  chunkSize?: number;
  /** Told when files stop going by FILDES, and why (for the engine line and the status CLI). */
  onTransportChange?: (transport: ClamdTransport, reason: string) => void;
}

export interface ScanFdOptions {
  /** The file's identity when the caller hashed it: a verdict for content that moved on is `file_changed`. */
  expect?: FileIdentity;
  /** The identity of `fd` the caller took just now (one fstat spared); absent: the client takes it. */
  now?: FileIdentity;
  signal?: AbortSignal;
}

export interface ClamdClientStats {
  sessions: number;
  /** Commands sent again on a new session after theirs ended unanswered. */
  resent: number;
  verdicts: number;
}

export interface ClamdClient {
  readonly address: ClamdAddress;
  /** Commands kept in flight on the session. */
  readonly inFlight: number;
  /** How files reach clamd now. */
  readonly transport: ClamdTransport;
  /** Why files go by INSTREAM; null while they go by FILDES. */
  readonly transportReason: string | null;
  /** Scans an open regular file; the caller keeps `fd` open until the verdict. */
  scan(fd: number, options?: ScanFdOptions): Promise<ClamdVerdict>;
  /** Scans bytes or a stream by INSTREAM, whatever the transport (a stream cannot be sent twice). */
  scanStream(source: Readable | Buffer, options?: { signal?: AbortSignal }): Promise<ClamdVerdict>;
  stats(): ClamdClientStats;
  /** Waits for every scan asked for, then ends the session; later scans fail with engine_aborted. */
  close(): Promise<void>;
}

const DEFAULTS = { connectTimeoutMs: 5_000, reconnectWindowMs: 60_000, replyTimeoutMs: 150_000, chunkSize: 256 * 1024 } as const;
type ResolvedOptions = ClamdClientOptions & Required<Pick<ClamdClientOptions, keyof typeof DEFAULTS>>;
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 1_000;
/** Sessions lost at their probe in a row before descriptors are taken as dropped. */
const PROBE_LOSSES_TO_SWITCH = 2;

export function openClamdClient(options: ClamdClientOptions): ClamdClient {
  return new SessionClient(options);
}

class SessionClient implements ClamdClient, SessionOwner {
  readonly address: ClamdAddress;
  readonly inFlight: number;
  #transport: ClamdTransport = 'fildes';
  #reason: string | null = null;
  readonly #where: string;
  readonly #limits: ClamdLimits;
  readonly #addon: FdPassing | null;
  readonly #timings: SessionTimings;
  readonly #options: ResolvedOptions;
  readonly #queue: ScanCommand[] = [];
  #session: ClamdSession | null = null;
  #opening = false;
  #unreachableSince: number | null = null;
  #probeFd: number | null | undefined;
  #probeLosses = 0;
  #outstanding = 0;
  #closing: Promise<void> | null = null;
  #drained: (() => void) | null = null;
  readonly #stats: ClamdClientStats = { sessions: 0, resent: 0, verdicts: 0 };

  constructor(options: ClamdClientOptions) {
    this.#options = { ...options, ...DEFAULTS, ...withoutUndefined(options) } as ResolvedOptions;
    this.address = options.address;
    this.#where = formatClamdAddress(options.address);
    this.#limits = withDefaults(options.limits);
    this.inFlight = inFlightLimit(this.#limits, options.inFlight);
    // clamd ends a connection ReadTimeout after its last command, with its scans: ping well before.
    const keepAliveMs = Math.min(20_000, Math.max(250, (this.#limits.readTimeoutS * 1000) / 2));
    this.#timings = { keepAliveMs, idleEndMs: Math.min(keepAliveMs, 10_000), replyTimeoutMs: this.#options.replyTimeoutMs, chunkSize: this.#options.chunkSize };
    const load = options.fdPassing === 'off' ? { ok: false as const, reason: 'passing file descriptors is turned off' } : loadFdPassing();
    this.#addon = load.ok ? load.addon : null;
    if (options.address.kind === 'tcp') this.#setInstream('clamd is reached over TCP, which cannot carry file descriptors', false);
    else if (!load.ok) this.#setInstream(load.reason, false);
  }

  get transport(): ClamdTransport {
    return this.#transport;
  }

  get transportReason(): string | null {
    return this.#reason;
  }

  stats(): ClamdClientStats {
    return { ...this.#stats };
  }

  scan(fd: number, options: ScanFdOptions = {}): Promise<ClamdVerdict> {
    if (!Number.isInteger(fd) || fd < 0) return Promise.reject(new TypeError(`scan(fd): not a file descriptor: ${String(fd)}`));
    let now: FileIdentity;
    try {
      now = options.now ?? identityOf(fd);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      return Promise.resolve(errorVerdict('file_unreadable', `the file to scan could not be read (${code})`));
    }
    const expected = options.expect ?? now;
    if (contentMayHaveChanged(expected, now)) return Promise.resolve(changedVerdict('before it was scanned'));
    if (this.#transport === 'instream' && now.size > this.#limits.streamMaxLength) return Promise.resolve(this.#tooLargeToStream());
    return this.#submit({ kind: 'fd', fd, size: Number(now.size) }, expected, options.signal);
  }

  scanStream(source: Readable | Buffer, options: { signal?: AbortSignal } = {}): Promise<ClamdVerdict> {
    return this.#submit(Buffer.isBuffer(source) ? { kind: 'bytes', bytes: source } : { kind: 'readable', readable: source }, null, options.signal);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#outstanding > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      this.#session?.end();
      this.#session = null;
      closeProbeFile(this.#probeFd ?? null);
      this.#probeFd = null;
    })();
    return this.#closing;
  }

  #submit(source: StreamSource, expected: FileIdentity | null, signal: AbortSignal | undefined): Promise<ClamdVerdict> {
    if (this.#closing !== null) return Promise.resolve(errorVerdict('engine_aborted', 'the clamd client is closed'));
    return new Promise((resolve) => {
      this.#outstanding += 1;
      const onAbort = () => command.finish(errorVerdict('engine_aborted', 'the scan was cancelled'));
      const command = newScanCommand(source, expected, signal, (verdict) => {
        signal?.removeEventListener('abort', onAbort);
        this.#stats.verdicts += 1;
        this.#outstanding -= 1;
        if (this.#outstanding === 0) this.#drained?.();
        resolve(verdict);
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(command);
      this.#pump();
    });
  }

  /** Sends what is queued while the session has room; opens a session when there is none. */
  #pump(): void {
    const session = this.#session;
    if (session === null || !session.usable) {
      if (this.#queue.some((command) => !command.settled)) this.#open();
      return;
    }
    while (this.#queue.length > 0 && session.inFlight < this.inFlight && session.usable) {
      const command = this.#queue.shift()!;
      if (command.settled) continue;
      const via: ClamdTransport = this.#transport === 'fildes' && session.passesFds && command.source.kind === 'fd' ? 'fildes' : 'instream';
      if (via === 'instream' && command.source.kind === 'fd' && command.source.size > this.#limits.streamMaxLength) {
        command.finish(this.#tooLargeToStream());
        continue;
      }
      session.send(command, via);
    }
  }

  #open(): void {
    if (this.#opening) return;
    this.#opening = true;
    void this.#connect().finally(() => {
      this.#opening = false;
      this.#pump();
    });
  }

  /** Connects until a session opens, or fails what waits once clamd was unreachable for the window. */
  async #connect(): Promise<void> {
    for (let delayMs = RETRY_FIRST_MS; ; delayMs = Math.min(RETRY_MAX_MS, delayMs * 2)) {
      if (!this.#queue.some((command) => !command.settled)) return;
      const fildes = this.#transport === 'fildes';
      try {
        this.#session = await ClamdSession.open(this.address, fildes ? this.#addon : null, this.#options.connectTimeoutMs, this, this.#timings, fildes ? this.#probe() : null);
        this.#unreachableSince = null;
        this.#stats.sessions += 1;
        return;
      } catch (error) {
        const now = Date.now();
        this.#unreachableSince ??= now;
        if (now - this.#unreachableSince >= this.#options.reconnectWindowMs) {
          this.#failQueue(`clamd at ${this.#where} is not reachable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }

  #tooLargeToStream(): ClamdVerdict {
    return errorVerdict('engine_size_limit', `the file is larger than clamd's StreamMaxLength (${this.#limits.streamMaxLength} bytes), the most it takes as a stream`);
  }

  #probe(): number | null {
    if (this.#probeFd === undefined) this.#probeFd = openProbeFile();
    return this.#probeFd;
  }

  #failQueue(message: string): void {
    for (const command of this.#queue.splice(0)) command.finish(errorVerdict('engine_unavailable', message));
  }

  #setInstream(reason: string, tell: boolean): void {
    if (this.#transport === 'instream') return;
    this.#transport = 'instream';
    this.#reason = reason;
    if (tell) this.#options.onTransportChange?.('instream', reason);
  }

  // SessionOwner

  answered(command: ScanCommand, verdict: ClamdVerdict): void {
    if (command.settled) return;
    command.finish(verdict.kind === 'error' ? verdict : this.#stillSame(command, verdict));
    this.#pump();
  }

  fildesConfirmed(): void {
    this.#probeLosses = 0;
  }

  ended(session: ClamdSession, unanswered: ScanCommand[], why: SessionEnd, detail: string, unsent: ScanCommand[]): void {
    if (this.#session === session) this.#session = null;
    if (why === 'fildes-refused') this.#setInstream(`clamd at ${this.#where} received no file descriptor ("${detail}"); files are streamed to it instead`, true);
    if (why === 'probe-lost' && ++this.#probeLosses >= PROBE_LOSSES_TO_SWITCH) {
      this.#setInstream(`clamd at ${this.#where} closed the connection each time it was passed a file descriptor (AppArmor or SELinux may drop them: see clamd's log); files are streamed to it instead`, true);
    }
    const again: ScanCommand[] = [];
    for (const command of unanswered) {
      if (mayResend(command, EXPLAINED_ENDS.has(why))) again.push(command);
      else command.finish(errorVerdict('engine_unavailable', `clamd at ${this.#where} ended the session before it answered for this file (${detail})`));
    }
    this.#stats.resent += again.length;
    this.#queue.unshift(...again, ...unsent);
    this.#pump();
  }

  /** A verdict for an open file stands only if its content cannot have moved on meanwhile. */
  #stillSame(command: ScanCommand, verdict: ClamdVerdict): ClamdVerdict {
    if (command.source.kind !== 'fd' || command.expected === null) return verdict;
    let now: FileIdentity | null;
    try {
      now = identityOf(command.source.fd);
    } catch {
      now = null;
    }
    if (now !== null && !contentMayHaveChanged(command.expected, now)) return verdict;
    return changedVerdict(`while it was scanned (clamd said ${verdict.kind === 'found' ? `${verdict.signatures.join(', ')} FOUND` : 'OK'})`);
  }
}

function changedVerdict(when: string): ClamdVerdict {
  return errorVerdict('file_changed', `the file changed ${when}; its verdict would not be for the bytes read`);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
