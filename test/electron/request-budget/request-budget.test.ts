import { describe, expect, it } from 'vitest';
import { createRequestBudget, RequestBudgetClosedError } from '../../../electron/request-budget/request-budget.ts';

describe('request budget', () => {
  it('grants the burst at once, then no faster than the rate', async () => {
    const rate = 100;
    const burst = 10;
    const budget = createRequestBudget({ ratePerSecond: rate, burst });
    const start = performance.now();
    const grantedAt: number[] = [];
    await Promise.all(Array.from({ length: 60 }, () => budget.acquire().then(() => grantedAt.push(performance.now() - start))));
    // By any moment t, at most burst + rate·t grants (+1 for rounding).
    grantedAt.forEach((t, i) => expect(i + 1).toBeLessThanOrEqual(burst + (rate * t) / 1000 + 1));
    expect(budget.stats()).toEqual({ granted: 60, waiting: 0 });
    budget.close();
  });

  it('serves waiters in order', async () => {
    const budget = createRequestBudget({ ratePerSecond: 200, burst: 1 });
    const order: number[] = [];
    await Promise.all(Array.from({ length: 10 }, (_, i) => budget.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    budget.close();
  });

  it('a cancelled waiter leaves the queue and takes no token', async () => {
    const budget = createRequestBudget({ ratePerSecond: 20, burst: 1 });
    await budget.acquire();
    const controller = new AbortController();
    const cancelled = budget.acquire(controller.signal);
    const next = budget.acquire();
    expect(budget.stats().waiting).toBe(2);
    controller.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(budget.stats().waiting).toBe(1);
    await next;
    expect(budget.stats()).toEqual({ granted: 2, waiting: 0 });
    await expect(budget.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    budget.close();
  });

  it('tryAcquire never jumps the queue', async () => {
    const budget = createRequestBudget({ ratePerSecond: 50, burst: 1 });
    expect(budget.tryAcquire()).toBe(true);
    expect(budget.tryAcquire()).toBe(false);
    const waiting = budget.acquire();
    expect(budget.tryAcquire()).toBe(false);
    await waiting;
    budget.close();
  });

  it('close rejects every waiter', async () => {
    const budget = createRequestBudget({ ratePerSecond: 1, burst: 1 });
    await budget.acquire();
    const waiters = Array.from({ length: 5 }, () => budget.acquire());
    budget.close();
    for (const waiter of waiters) await expect(waiter).rejects.toBeInstanceOf(RequestBudgetClosedError);
    await expect(budget.acquire()).rejects.toBeInstanceOf(RequestBudgetClosedError);
  });

  it('holds thousands of waiters with one timer and cancels them cheaply', async () => {
    const budget = createRequestBudget({ ratePerSecond: 1, burst: 1 });
    await budget.acquire();
    const controller = new AbortController();
    const waiters = Array.from({ length: 5000 }, () => budget.acquire(controller.signal).catch(() => 'cancelled'));
    expect(budget.stats().waiting).toBe(5000);
    controller.abort();
    expect(await Promise.all(waiters)).toEqual(Array(5000).fill('cancelled'));
    expect(budget.stats().waiting).toBe(0);
    budget.close();
  });

  it('rejects a nonsensical rate', () => {
    expect(() => createRequestBudget({ ratePerSecond: 0 })).toThrow(RangeError);
    expect(() => createRequestBudget({ ratePerSecond: Number.NaN })).toThrow(RangeError);
  });
});
