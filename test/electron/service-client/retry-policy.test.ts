import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, sleep } from '../../../electron/service-client/retry-policy.ts';
import { DueQueue } from '../../../electron/service-client/due-queue.ts';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
  });

  it('reads an HTTP date, relative to now, never negative', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', '-5', 'soon', 'NaN', '1e3']) expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
  });
});

describe('backoff', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('full jitter: uniform in [0, base · 2^(n-1)], capped', () => {
    expect(backoffDelay(1, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.999)).toBe(399);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(50, policy, () => 0.5)).toBe(500);
    expect(backoffDelay(4, policy, () => 0)).toBe(0);
  });

  it('never waits less than Retry-After', () => {
    for (const r of [0, 0.3, 0.99]) {
      const delay = retryDelay(1, 5000, policy, () => r);
      expect(delay).toBeGreaterThanOrEqual(5000);
      expect(delay).toBeLessThan(5000 + 1000);
    }
    expect(retryDelay(9, 10, policy, () => 0.999)).toBe(999);
  });

  it('sleep is cancellable', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('DueQueue', () => {
  it('pops in due order', () => {
    const queue = new DueQueue<{ dueAt: number; name: string }>();
    const dues = [5, 1, 9, 3, 3, 7, 0, 12, 2];
    dues.forEach((dueAt, i) => queue.push({ dueAt, name: `n${i}` }));
    const out: number[] = [];
    while (queue.size > 0) out.push(queue.pop()!.dueAt);
    expect(out).toEqual([...dues].sort((a, b) => a - b));
    expect(queue.pop()).toBeUndefined();
  });
});
