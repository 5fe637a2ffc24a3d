// One global request rate budget (a token bucket) shared by every request the
// app makes to the File Scanning Service: submissions, retries and polls.
// Waiters queue in FIFO order behind a single timer, so a thousand scans in
// flight cost one pending timeout, not a thousand, and never a busy loop.

export interface RequestBudgetOptions {
  /** Sustained rate: tokens added per second. */
  ratePerSecond: number;
  /** Bucket size: how many requests may go at once after a quiet period (default: ratePerSecond, at least 1). */
  burst?: number;
  /** Monotonic clock in ms (tests). */
  now?: () => number;
}

export interface RequestBudgetStats {
  /** Tokens handed out since creation. */
  granted: number;
  /** Callers currently waiting for a token. */
  waiting: number;
}

export interface RequestBudget {
  readonly ratePerSecond: number;
  readonly burst: number;
  /**
   * Resolves when the caller may send one request. Rejects with the signal's
   * reason when the signal aborts first (the token is not consumed), or with
   * an error after close().
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Takes a token only if one is available right now. */
  tryAcquire(): boolean;
  stats(): RequestBudgetStats;
  /** Rejects every waiter and stops the timer. */
  close(): void;
}

/** For a remote service: enough for interactive use, gentle on a shared service whose rate limits the spec does not state. */
export const DEFAULT_REQUEST_BUDGET: Required<Pick<RequestBudgetOptions, 'ratePerSecond' | 'burst'>> = {
  ratePerSecond: 10,
  burst: 20,
};

/**
 * For the embedded local service: ours, on loopback, answering only this process's
 * key. One sync scan of a small file is one request, so this budget is a ceiling on
 * files per second; at 100/s it was the whole limit of a batch of small files
 * (notes/throughput.md). It is a guard against a runaway loop, not a politeness rule,
 * so it sits above what the service can scan (clamdscan alone: ~1,300 small files/s here).
 * The embedded service's own rate limit is set above it (backend/local-backend.ts).
 */
export const LOCAL_SERVICE_REQUEST_BUDGET: Required<Pick<RequestBudgetOptions, 'ratePerSecond' | 'burst'>> = {
  ratePerSecond: 5000,
  burst: 5000,
};

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  settled: boolean;
}

export class RequestBudgetClosedError extends Error {
  constructor() {
    super('The request budget was closed.');
    this.name = 'RequestBudgetClosedError';
  }
}

export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const rate = options.ratePerSecond;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('ratePerSecond must be a positive number');
  const burst = Math.max(1, options.burst ?? Math.ceil(rate));
  const now = options.now ?? (() => performance.now());

  let tokens = burst;
  let refilledAt = now();
  let granted = 0;
  let closed = false;
  // A FIFO with a moving head; cancelled waiters are skipped lazily and the
  // array is compacted once the dead prefix dominates.
  let queue: Waiter[] = [];
  let head = 0;
  let live = 0;
  let timer: NodeJS.Timeout | undefined;

  const refill = () => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - refilledAt) * rate) / 1000);
    refilledAt = t;
  };

  const skipSettled = () => {
    while (head < queue.length && queue[head]!.settled) head++;
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  const settle = (waiter: Waiter) => {
    waiter.settled = true;
    live--;
    if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
  };

  const drain = () => {
    timer = undefined;
    refill();
    skipSettled();
    while (head < queue.length && tokens >= 1) {
      const waiter = queue[head++]!;
      tokens -= 1;
      granted++;
      settle(waiter);
      waiter.resolve();
      skipSettled();
    }
    schedule();
  };

  const schedule = () => {
    if (timer || closed || live === 0) return;
    const waitMs = Math.max(1, Math.ceil(((1 - tokens) * 1000) / rate));
    timer = setTimeout(drain, waitMs);
  };

  return {
    ratePerSecond: rate,
    burst,
    acquire(signal) {
      if (closed) return Promise.reject(new RequestBudgetClosedError());
      if (signal?.aborted) return Promise.reject(signal.reason);
      refill();
      if (live === 0 && tokens >= 1) {
        tokens -= 1;
        granted++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined, settled: false };
        if (signal) {
          waiter.onAbort = () => {
            if (waiter.settled) return;
            settle(waiter);
            reject(signal.reason);
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        queue.push(waiter);
        live++;
        schedule();
      });
    },
    tryAcquire() {
      if (closed) return false;
      refill();
      if (live > 0 || tokens < 1) return false;
      tokens -= 1;
      granted++;
      return true;
    },
    stats: () => ({ granted, waiting: live }),
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (let i = head; i < queue.length; i++) {
        const waiter = queue[i]!;
        if (waiter.settled) continue;
        settle(waiter);
        waiter.reject(new RequestBudgetClosedError());
      }
      queue = [];
      head = 0;
    },
  };
}
