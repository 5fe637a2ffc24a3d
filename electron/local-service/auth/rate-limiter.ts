// Token-bucket rate limiting per integration (and one shared bucket for
// requests without a valid key), so one client cannot starve the others.

export interface RateLimitOptions {
  /** Tokens added per second. */
  requestsPerSecond: number;
  /** Bucket size: how many requests may arrive at once. */
  burst: number;
}

/** Generous: a local user (or the app's own watcher bursts) never meets it. */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { requestsPerSecond: 200, burst: 1000 };

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(bucket: string): RateDecision;
}

const MAX_BUCKETS = 10_000;

export function createRateLimiter(options: RateLimitOptions, now: () => number = () => performance.now()): RateLimiter {
  if (!(options.requestsPerSecond > 0) || !(options.burst >= 1)) throw new Error('Rate limit needs requestsPerSecond > 0 and burst >= 1.');
  const buckets = new Map<string, { tokens: number; at: number }>();

  return {
    take(name) {
      const t = now();
      let bucket = buckets.get(name);
      if (!bucket) {
        if (buckets.size >= MAX_BUCKETS) buckets.clear();
        bucket = { tokens: options.burst, at: t };
        buckets.set(name, bucket);
      }
      bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.requestsPerSecond);
      bucket.at = t;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / options.requestsPerSecond));
      return { ok: false, retryAfterSeconds };
    },
  };
}
