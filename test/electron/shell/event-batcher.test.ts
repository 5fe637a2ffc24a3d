import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from '../../../electron/shell/event-batcher.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

interface Item {
  key: string | null;
  n: number;
}

describe('createBatcher', () => {
  it('sends one batch per window, keeping the latest item per key in order', () => {
    const batches: Item[][] = [];
    const batcher = createBatcher<Item>({ flush: (batch) => batches.push(batch), keyOf: (item) => item.key, delayMs: 50 });
    batcher.push({ key: 'a', n: 1 });
    batcher.push({ key: 'b', n: 2 });
    batcher.push({ key: 'a', n: 3 });
    batcher.push({ key: null, n: 4 });
    batcher.push({ key: null, n: 5 });
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(50);
    expect(batches).toEqual([[{ key: 'b', n: 2 }, { key: 'a', n: 3 }, { key: null, n: 4 }, { key: null, n: 5 }]]);
    vi.advanceTimersByTime(500);
    expect(batches).toHaveLength(1);
  });

  it('flushes at once when a batch is full', () => {
    const batches: Item[][] = [];
    const batcher = createBatcher<Item>({ flush: (batch) => batches.push(batch), keyOf: () => null, delayMs: 50, maxBatch: 3 });
    for (let n = 0; n < 7; n++) batcher.push({ key: null, n });
    expect(batches.map((batch) => batch.length)).toEqual([3, 3]);
    vi.advanceTimersByTime(50);
    expect(batches.map((batch) => batch.length)).toEqual([3, 3, 1]);
  });

  it('drops pending items on dispose and ignores later pushes', () => {
    const flush = vi.fn();
    const batcher = createBatcher<Item>({ flush, keyOf: () => null, delayMs: 50 });
    batcher.push({ key: null, n: 1 });
    batcher.dispose();
    batcher.push({ key: null, n: 2 });
    vi.advanceTimersByTime(1000);
    expect(flush).not.toHaveBeenCalled();
  });
});
