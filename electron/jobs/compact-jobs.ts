// After a job finishes (and at start, for finished jobs not yet compacted), its clean rows
// move into the history's compact store a chunk at a time, each chunk its own short
// transaction with a turn of the event loop between, so the window and the pipeline never
// wait long; then the freed pages go back to the file system, also a step at a time.
import type { History } from '../history/history.ts';

/**
 * Rows per transaction to start with: 1,000 took about 50 ms here unloaded on a 20,000-file history, but a
 * row costs more as the history grows (about 0.5 ms on a 200,000-file one: deleting the wide rows from their
 * ten indexes). So the chunk follows the time it took, to keep each turn of the main thread near STEP_MS,
 * and starts small: a first chunk of 500 took about 100 ms on a 100,000-scan history (issue 26 §5).
 */
export const COMPACT_CHUNK_ROWS = 100;
const STEP_MS = 25;
const MIN_CHUNK_ROWS = 50;
const MAX_CHUNK_ROWS = 4000;

/** The next chunk's rows after one of `rows` took `ms`: halved when it took over twice STEP_MS, doubled under half. */
export function nextChunkRows(rows: number, ms: number): number {
  if (ms > STEP_MS * 2) return Math.max(MIN_CHUNK_ROWS, Math.floor(rows / 2));
  if (ms < STEP_MS / 2) return Math.min(MAX_CHUNK_ROWS, rows * 2);
  return rows;
}
/** Pages merged or given back per step (a few MB). */
const RECLAIM_PAGES = 512;

export interface Compactor {
  /** Queues a finished job (again: nothing happens twice). */
  add(jobId: number): void;
  /** Resolves once the job's clean rows have moved and the space is given back (or the compactor stopped). */
  done(jobId: number): Promise<void>;
  /** Stops after the current chunk; what is left moves at the next start. */
  close(): Promise<void>;
}

export function createCompactor(input: {
  history: Pick<History, 'jobs'>;
  /** A fixed chunk (tests); by default it follows the time each chunk took (nextChunkRows). */
  chunkRows?: number;
  onError?: (error: unknown, jobId: number) => void;
  /** Awaited before a job's rows move: what still names them by their scans id (the recheck's memory) is written first. */
  beforeCompact?: () => Promise<void>;
}): Compactor {
  let chunk = input.chunkRows ?? COMPACT_CHUNK_ROWS;
  const step = (jobId: number): boolean => {
    const started = performance.now();
    const { done } = input.history.jobs.compactStep(jobId, chunk);
    if (input.chunkRows === undefined) chunk = nextChunkRows(chunk, performance.now() - started);
    return done;
  };
  const queue: number[] = [];
  const waiters = new Map<number, Array<() => void>>();
  let running: Promise<void> | null = null;
  let current: number | null = null;
  let closed = false;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const tell = (jobId: number) => {
    for (const resolve of waiters.get(jobId) ?? []) resolve();
    waiters.delete(jobId);
  };

  const compactOne = async (jobId: number) => {
    try {
      if (input.beforeCompact) await input.beforeCompact();
      while (!closed && !step(jobId)) await turn();
      while (!closed && input.history.jobs.reclaimSpace(RECLAIM_PAGES) > 0) await turn();
    } catch (error) {
      // Left for the next start: each chunk moved whole or not at all.
      input.onError?.(error, jobId);
    }
  };

  const drain = async () => {
    while (!closed && queue.length > 0) {
      const jobId = queue.shift()!;
      current = jobId;
      await compactOne(jobId);
      current = null;
      tell(jobId);
      await turn();
    }
    running = null;
    for (const jobId of [...waiters.keys()]) tell(jobId);
  };

  return {
    add(jobId) {
      if (closed || queue.includes(jobId)) return;
      queue.push(jobId);
      running ??= drain();
    },
    done(jobId) {
      if (closed || (!queue.includes(jobId) && current !== jobId)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(jobId, [...(waiters.get(jobId) ?? []), resolve]));
    },
    async close() {
      closed = true;
      await running;
      for (const jobId of [...waiters.keys()]) tell(jobId);
    },
  };
}
