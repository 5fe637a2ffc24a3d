// How long to wait before trying again: exponential backoff with full jitter,
// never shorter than the service's Retry-After, bounded by attempts and a
// deadline so a dead service hands the file back to the pipeline's queue.

export interface RetryPolicy {
  /** Total attempts per step, the first included. */
  maxAttempts: number;
  /** Backoff base: attempt n waits up to baseDelayMs · 2^(n-1). */
  baseDelayMs: number;
  /** Ceiling of one backoff wait. */
  maxDelayMs: number;
  /** Give up (throw the last retryable error) once this much time has passed. */
  deadlineMs: number;
  /** A Retry-After longer than this ends the retries at once (the pipeline requeues). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  deadlineMs: 120_000,
  maxRetryAfterMs: 120_000,
};

/**
 * Parses a Retry-After header: delta-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Returns a delay in ms (0 for a date in
 * the past) or undefined when the value is missing or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only date-like values: Date.parse would accept plain numbers like "-5" too.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Full jitter: a uniform wait in [0, min(maxDelay, base · 2^(attempt-1))]. `attempt` starts at 1. */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt: the backoff, but at least Retry-After
 * (plus a little jitter so callers told the same instant do not return together).
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number = Math.random): number {
  const backoff = backoffDelay(attempt, policy, random);
  if (retryAfterMs === undefined) return backoff;
  return Math.max(backoff, retryAfterMs + Math.floor(random() * Math.min(1000, policy.baseDelayMs)));
}

/** Resolves after ms; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
