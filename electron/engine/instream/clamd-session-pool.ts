// The clamd sessions an engine keeps between scans: a scan takes an idle one
// (the most recently used, the least likely to have been closed by clamd) or
// opens a new one; afterwards the session goes back, up to `size` kept idle.
// Sessions are used once a first one has answered PING as a session: until
// then (and for good when the other end never does, like a stand-in that only
// knows one command per connection) scans use a connection each.
import { EngineError } from '../engine.ts';
import type { ClamdEndpoint } from './clamd-protocol.ts';
import { ClamdSession } from './clamd-session.ts';

export interface PooledSession {
  session: ClamdSession;
  /** It has served a scan before: clamd may have closed it meanwhile, unseen. */
  reused: boolean;
}

type Support = 'unknown' | 'probing' | 'yes' | 'no';

export class ClamdSessionPool {
  readonly #endpoint: ClamdEndpoint;
  readonly #size: number;
  readonly #probeTimeoutMs: number;
  readonly #idle: ClamdSession[] = [];
  #support: Support = 'unknown';
  #probe: Promise<boolean> | null = null;
  #closed = false;

  constructor(endpoint: ClamdEndpoint, size: number, probeTimeoutMs: number) {
    this.#endpoint = endpoint;
    this.#size = size;
    this.#probeTimeoutMs = probeTimeoutMs;
  }

  /** Idle sessions kept now (for tests and logs). */
  get idleCount(): number {
    return this.#idle.length;
  }

  /**
   * Whether scans should use sessions now. The first call starts the check in the
   * background (no scan waits for it); one that could not reach clamd is retried later.
   */
  get ready(): boolean {
    if (this.#support === 'unknown' && !this.#closed) void this.whenReady();
    return this.#support === 'yes';
  }

  /** Resolves once the check is done: true when clamd answered a session's PING. */
  whenReady(): Promise<boolean> {
    if (this.#support === 'yes' || this.#support === 'no') return Promise.resolve(this.#support === 'yes');
    this.#probe ??= this.#check().finally(() => (this.#probe = null));
    return this.#probe;
  }

  async #check(): Promise<boolean> {
    this.#support = 'probing';
    try {
      const session = await ClamdSession.open(this.#endpoint, this.#probeTimeoutMs);
      try {
        await session.start(this.#probeTimeoutMs);
      } catch (error) {
        session.close();
        throw error;
      }
      this.#support = 'yes';
      this.release(session);
      return true;
    } catch (error) {
      // Unreachable now: ask again with a later scan. Anything else (no answer, a wrong one): no sessions there.
      this.#support = error instanceof EngineError && error.code === 'engine_unavailable' ? 'unknown' : 'no';
      return false;
    }
  }

  async acquire(connectTimeoutMs: number, signal?: AbortSignal): Promise<PooledSession> {
    for (let session = this.#idle.pop(); session !== undefined; session = this.#idle.pop()) {
      if (session.usable) return { session, reused: true };
    }
    return { session: await ClamdSession.open(this.#endpoint, connectTimeoutMs, signal), reused: false };
  }

  /** Back to the pool after a scan; a session that is over, or one too many, is closed. */
  release(session: ClamdSession): void {
    if (!this.#closed && session.usable && this.#idle.length < this.#size) this.#idle.push(session);
    else session.close();
  }

  close(): void {
    this.#closed = true;
    for (const session of this.#idle.splice(0)) session.close();
  }
}
