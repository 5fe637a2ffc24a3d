// Follows processing scans (async submissions, 408 continuations, adopted
// scans) by polling GET /file-scans/{id} with backoff — 1 s doubling to 30 s,
// with jitter — until each is terminal. One timer and one priority queue for
// all scans, a cap on concurrent polls, and every poll drawn from the global
// request budget. Nothing is persisted here: after a restart the pipeline
// calls track() again for the scans its history says are still processing.
// State: PollerState (poller-state.ts); timing: poll-schedule.ts; polls: poll-run.ts.
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { RequestBudget } from '../request-budget/request-budget.ts';
import { arm, pump } from './poll-run.ts';
import { clearTimer, delayFor, schedule } from './poll-schedule.ts';
import { createPollerState, type Entry } from './poller-state.ts';
import type { ServiceCalls } from './service-client.ts';
import type { ServiceError } from './service-error.ts';

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
  /**
   * The service says this scan has finished: it is polled now, not at its next backoff step
   * (a poll in flight is followed by another at once). False: the scan is not tracked.
   */
  wake(scanId: string): boolean;
  isTracking(scanId: string): boolean;
  readonly size: number;
  /** Holds all polls (e.g. while the API key is rejected); resume() catches up on overdue ones. */
  pause(): void;
  resume(): void;
  stats(): PollerStats;
  /** Cancels in-flight polls and the timer; resolves once they have settled. */
  stop(): Promise<void>;
}

export function createPoller(options: PollerOptions): Poller {
  const state = createPollerState(options);
  const { entries } = state;
  return {
    track(scanId, externalReferenceId, trackOptions = {}) {
      if (state.stopped) throw new Error('The poller is stopped.');
      const existing = entries.get(scanId);
      if (existing) {
        existing.externalReferenceId = externalReferenceId ?? existing.externalReferenceId;
        return;
      }
      const entry: Entry = { scanId, externalReferenceId, step: 0, polls: 0, errors: 0, inFlight: false, woken: false, generation: 0 };
      entries.set(scanId, entry);
      schedule(state, entry, trackOptions.delayMs ?? delayFor(state, 0));
      arm(state);
    },
    untrack(scanId) {
      // Stale queue slots are skipped when they surface; an in-flight poll's answer is dropped.
      return entries.delete(scanId);
    },
    wake(scanId) {
      const entry = entries.get(scanId);
      if (!entry || state.stopped) return false;
      if (entry.inFlight) entry.woken = true;
      else {
        schedule(state, entry, 0);
        arm(state);
      }
      return true;
    },
    isTracking: (scanId) => entries.has(scanId),
    get size() {
      return entries.size;
    },
    pause() {
      state.paused = true;
      clearTimer(state);
    },
    resume() {
      if (!state.paused) return;
      state.paused = false;
      pump(state);
    },
    stats: () => ({ tracked: entries.size, inFlight: state.inFlight, polls: state.polls }),
    async stop() {
      if (state.stopped) return;
      state.stopped = true;
      clearTimer(state);
      state.controller.abort();
      await Promise.allSettled([...state.running]);
      entries.clear();
      state.queue.clear();
    },
  };
}
