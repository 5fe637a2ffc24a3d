// The retry loop of the resolving calls: exponential backoff with jitter (at
// least Retry-After), bounded by attempts and a deadline (retry-policy.ts).
import { retryDelay, sleep, type RetryPolicy } from './retry-policy.ts';
import type { BaseServiceClient } from './service-client.ts';
import { abortedError, ServiceError } from './service-error.ts';

export interface RetryOptions {
  signal?: AbortSignal;
  /** Overrides of the client's retry policy for this call. */
  retry?: Partial<RetryPolicy>;
  /** Told before each wait: what failed, which attempt it was, how long we wait. */
  onRetry?: (event: { error: ServiceError; attempt: number; delayMs: number }) => void;
}

/** When the steps of one submission started, and the policy they share (one deadline for all). */
export interface Clock {
  startedAt: number;
  policy: RetryPolicy;
}

/**
 * Runs one request, retrying retryable ServiceErrors with backoff (at least
 * Retry-After) until the attempts or the deadline run out; then rethrows the
 * last error so the caller can requeue. Other errors pass through at once.
 */
export async function withRetries<T>(
  client: Pick<BaseServiceClient, 'retryPolicy' | 'random'>,
  run: (attempt: number) => Promise<T>,
  options: RetryOptions & { clock?: Clock } = {},
): Promise<T> {
  const policy = options.clock?.policy ?? { ...client.retryPolicy, ...options.retry };
  const startedAt = options.clock?.startedAt ?? performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!(error instanceof ServiceError) || !error.retryable) throw error;
      if (attempt >= policy.maxAttempts) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) throw error;
      const delayMs = retryDelay(attempt, error.retryAfterMs, policy, client.random);
      if (performance.now() - startedAt + delayMs > policy.deadlineMs) throw error;
      options.onRetry?.({ error, attempt, delayMs });
      try {
        await sleep(delayMs, options.signal);
      } catch {
        throw abortedError();
      }
    }
  }
}

