// Collects chatty events (upload progress, queue counts) for a short moment and
// hands them on as one batch, keeping only the latest event per key, so a busy
// scan sends a few IPC messages a second instead of thousands. Pure (timers injected).

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface BatcherOptions<T> {
  flush(batch: T[]): void;
  /** Events with the same key replace each other within a batch; null: always kept. */
  keyOf(item: T): string | null;
  delayMs: number;
  /** Flush at once when a batch holds this many events. */
  maxBatch?: number;
  timers?: Timers;
}

export interface Batcher<T> {
  push(item: T): void;
  flushNow(): void;
  dispose(): void;
}

export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const timers = options.timers ?? realTimers;
  const maxBatch = options.maxBatch ?? 500;
  // Insertion-ordered: a replaced event moves to the end, after what it superseded.
  let pending = new Map<string | symbol, T>();
  let handle: unknown = null;
  let disposed = false;

  const flushNow = () => {
    if (handle !== null) timers.clear(handle);
    handle = null;
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    options.flush(batch);
  };

  return {
    push(item) {
      if (disposed) return;
      const key = options.keyOf(item);
      const slot = key ?? Symbol('event');
      pending.delete(slot);
      pending.set(slot, item);
      if (pending.size >= maxBatch) flushNow();
      else if (handle === null) handle = timers.set(flushNow, options.delayMs);
    },
    flushNow,
    dispose() {
      disposed = true;
      if (handle !== null) timers.clear(handle);
      handle = null;
      pending.clear();
    },
  };
}
