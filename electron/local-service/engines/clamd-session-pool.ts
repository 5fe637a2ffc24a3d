// The clamd sessions an engine keeps between scans: a scan takes an idle one
// (the most recently used, the least likely to have been closed by clamd) or
// opens a new one; afterwards the session goes back, up to `size` kept idle.
import type { ClamdEndpoint } from './clamd-protocol.ts';
import { ClamdSession } from './clamd-session.ts';

export interface PooledSession {
  session: ClamdSession;
  /** It has served a scan before: clamd may have closed it meanwhile, unseen. */
  reused: boolean;
}

export class ClamdSessionPool {
  readonly #endpoint: ClamdEndpoint;
  readonly #size: number;
  readonly #idle: ClamdSession[] = [];
  #closed = false;

  constructor(endpoint: ClamdEndpoint, size: number) {
    this.#endpoint = endpoint;
    this.#size = size;
  }

  /** Idle sessions kept now (for tests and logs). */
  get idleCount(): number {
    return this.#idle.length;
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
