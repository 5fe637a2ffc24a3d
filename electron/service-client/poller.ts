// Follows processing scans (async submissions, 408 continuations, adopted
// scans) by polling GET /file-scans/{id} with backoff — 1 s doubling to 30 s,
// with jitter — until each is terminal. One timer and one priority queue for
// all scans, a cap on concurrent polls, and every poll drawn from the global
// request budget. Nothing is persisted here: after a restart the pipeline
// calls track() again for the scans its history says are still processing.
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { RequestBudget } from '../request-budget/request-budget.ts';
import { DueQueue } from './due-queue.ts';
import type { ServiceCalls } from './service-client.ts';
import { ServiceError, wordedServiceError } from './service-error.ts';

export interface PollUpdate {
  scanId: string;
  externalReferenceId: string | undefined;
  scan: Scan;
  /** completed or failed: the scan is no longer tracked. */
  terminal: boolean;
  /** GET requests made for this scan since it was tracked. */
  polls: number;
}

export interface PollError {
  scanId: string;
  externalReferenceId: string | undefined;
  error: ServiceError;
  /** true: the poller gave up on this scan and untracked it (404, persistent garbage, a refused request). */
  final: boolean;
  consecutiveErrors: number;
}

export interface PollerOptions {
  client: Pick<ServiceCalls, 'getScan'> & { readonly budget?: RequestBudget | undefined };
  /** The global budget; ignored when it is the client's own (the client already meters every request). */
  budget?: RequestBudget;
  /** Every successful poll. Listeners must not throw (exceptions are swallowed to keep polling alive). */
  onUpdate: (update: PollUpdate) => void;
  /** Failed polls; transient ones are retried with the same backoff. */
  onError?: (event: PollError) => void;
  /** First delay after track() (default 1000 ms). */
  initialDelayMs?: number;
  /** Ceiling of the doubling delay (default 30 000 ms). */
  maxDelayMs?: number;
  /** Each delay is scaled by a random factor in [1 - jitter, 1 + jitter] (default 0.2). */
  jitter?: number;
  /** Polls in flight at once (default 16); the rest wait their turn in the queue. */
  maxInFlight?: number;
  /** Consecutive failed polls after which a scan is given up (default 20; 401s never count). */
  maxConsecutiveErrors?: number;
  random?: () => number;
}

export interface PollerStats {
  tracked: number;
  inFlight: number;
  /** GET requests issued since creation. */
  polls: number;
}

export interface Poller {
  /** Starts following a scan (idempotent). `delayMs` overrides the first delay, e.g. 0 after a restart. */
  track(scanId: string, externalReferenceId?: string, options?: { delayMs?: number }): void;
  untrack(scanId: string): boolean;
  isTracking(scanId: string): boolean;
  readonly size: number;
  /** Holds all polls (e.g. while the API key is rejected); resume() catches up on overdue ones. */
  pause(): void;
  resume(): void;
  stats(): PollerStats;
  /** Cancels in-flight polls and the timer; resolves once they have settled. */
  stop(): Promise<void>;
}

interface Entry {
  scanId: string;
  externalReferenceId: string | undefined;
  /** Backoff step: the next delay is initial · 2^step. */
  step: number;
  polls: number;
  errors: number;
  inFlight: boolean;
  /** Bumped on every reschedule so stale heap items can be recognised. */
  generation: number;
}

interface Slot {
  dueAt: number;
  entry: Entry;
  generation: number;
}

export function createPoller(options: PollerOptions): Poller {
  const { client, onUpdate, onError } = options;
  const budget = options.budget && options.budget !== client.budget ? options.budget : undefined;
  const initialDelayMs = options.initialDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const jitter = Math.min(Math.max(options.jitter ?? 0.2, 0), 1);
  const maxInFlight = Math.max(1, options.maxInFlight ?? 16);
  const maxErrors = options.maxConsecutiveErrors ?? 20;
  const random = options.random ?? Math.random;

  const entries = new Map<string, Entry>();
  const queue = new DueQueue<Slot>();
  const running = new Set<Promise<void>>();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Infinity;
  let inFlight = 0;
  let polls = 0;
  let paused = false;
  let stopped = false;

  const now = () => performance.now();

  const delayFor = (step: number) => {
    const base = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(step, 30));
    return Math.min(maxDelayMs, base * (1 - jitter + 2 * jitter * random()));
  };

  const schedule = (entry: Entry, delayMs: number) => {
    entry.generation++;
    queue.push({ dueAt: now() + delayMs, entry, generation: entry.generation });
  };

  const isLive = (slot: Slot) => entries.get(slot.entry.scanId) === slot.entry && slot.generation === slot.entry.generation && !slot.entry.inFlight;

  const safely = (fn: () => void) => {
    try {
      fn();
    } catch {
      // A throwing listener must not stop the polling of every other scan.
    }
  };

  const arm = () => {
    if (stopped || paused || inFlight >= maxInFlight) return;
    while (queue.size > 0 && !isLive(queue.peek()!)) queue.pop();
    const next = queue.peek();
    if (!next) return;
    if (timer && timerDueAt <= next.dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = next.dueAt;
    timer = setTimeout(pump, Math.max(0, next.dueAt - now()));
  };

  function pump() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerDueAt = Infinity;
    if (stopped || paused) return;
    const t = now();
    while (inFlight < maxInFlight && queue.size > 0) {
      const slot = queue.peek()!;
      if (!isLive(slot)) {
        queue.pop();
        continue;
      }
      if (slot.dueAt > t) break;
      queue.pop();
      start(slot.entry);
    }
    arm();
  }

  const fail = (entry: Entry, error: ServiceError) => {
    entry.errors++;
    const auth = error.kind === 'unauthorized';
    const transient = error.retryable || error.kind === 'malformed_response';
    const final = !auth && (!transient || entry.errors >= maxErrors);
    if (final) {
      entries.delete(entry.scanId);
    } else if (auth) {
      // Keep the scan, but ask rarely until a key is accepted (the pipeline may pause us meanwhile).
      schedule(entry, maxDelayMs);
    } else {
      entry.step++;
      schedule(entry, Math.max(delayFor(entry.step), error.retryAfterMs ?? 0));
    }
    safely(() => onError?.({ scanId: entry.scanId, externalReferenceId: entry.externalReferenceId, error, final, consecutiveErrors: entry.errors }));
  };

  const poll = async (entry: Entry) => {
    const { signal } = controller;
    try {
      if (budget) await budget.acquire(signal);
      polls++;
      entry.polls++;
      const scan = await client.getScan(entry.scanId, { signal });
      entry.inFlight = false;
      if (entries.get(entry.scanId) !== entry) return;
      entry.errors = 0;
      const terminal = scan.status !== 'processing';
      if (terminal) {
        entries.delete(entry.scanId);
      } else {
        entry.step++;
        schedule(entry, delayFor(entry.step));
      }
      safely(() => onUpdate({ scanId: entry.scanId, externalReferenceId: entry.externalReferenceId, scan, terminal, polls: entry.polls }));
    } catch (error) {
      entry.inFlight = false;
      if (stopped || entries.get(entry.scanId) !== entry) return;
      if (error instanceof ServiceError && error.kind === 'aborted') return;
      const serviceError =
        error instanceof ServiceError ? error : wordedServiceError('malformed_response', { cause: 'polling_failed' }, { scanId: entry.scanId });
      fail(entry, serviceError);
    }
  };

  const start = (entry: Entry) => {
    entry.inFlight = true;
    inFlight++;
    const task = poll(entry).finally(() => {
      inFlight--;
      running.delete(task);
      pump();
    });
    running.add(task);
  };

  return {
    track(scanId, externalReferenceId, trackOptions = {}) {
      if (stopped) throw new Error('The poller is stopped.');
      const existing = entries.get(scanId);
      if (existing) {
        existing.externalReferenceId = externalReferenceId ?? existing.externalReferenceId;
        return;
      }
      const entry: Entry = { scanId, externalReferenceId, step: 0, polls: 0, errors: 0, inFlight: false, generation: 0 };
      entries.set(scanId, entry);
      schedule(entry, trackOptions.delayMs ?? delayFor(0));
      arm();
    },
    untrack(scanId) {
      // Stale queue slots are skipped when they surface; an in-flight poll's answer is dropped.
      return entries.delete(scanId);
    },
    isTracking: (scanId) => entries.has(scanId),
    get size() {
      return entries.size;
    },
    pause() {
      paused = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerDueAt = Infinity;
    },
    resume() {
      if (!paused) return;
      paused = false;
      pump();
    },
    stats: () => ({ tracked: entries.size, inFlight, polls }),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      controller.abort();
      await Promise.allSettled([...running]);
      entries.clear();
      queue.clear();
    },
  };
}
