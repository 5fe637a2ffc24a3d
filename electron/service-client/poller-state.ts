// The poller's state, named once: its settings, the scans it follows, the
// due queue and its single timer, and the polls in flight.
import type { RequestBudget } from '../request-budget/request-budget.ts';
import { DueQueue } from './due-queue.ts';
import type { PollerOptions } from './poller.ts';

export interface Entry {
  scanId: string;
  externalReferenceId: string | undefined;
  /** Backoff step: the next delay is initial · 2^step. */
  step: number;
  polls: number;
  errors: number;
  inFlight: boolean;
  /** The service said the scan finished while a poll was in flight: the next poll is at once. */
  woken: boolean;
  /** Bumped on every reschedule so stale heap items can be recognised. */
  generation: number;
}

export interface Slot {
  dueAt: number;
  entry: Entry;
  generation: number;
}

export interface PollerState {
  readonly client: PollerOptions['client'];
  /** The global budget, when it is not the client's own. */
  readonly budget: RequestBudget | undefined;
  readonly onUpdate: PollerOptions['onUpdate'];
  readonly onError: PollerOptions['onError'];
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: number;
  readonly maxInFlight: number;
  readonly maxErrors: number;
  readonly random: () => number;
  readonly entries: Map<string, Entry>;
  readonly queue: DueQueue<Slot>;
  readonly running: Set<Promise<void>>;
  /** Aborts the polls in flight at stop(). */
  readonly controller: AbortController;
  timer: NodeJS.Timeout | undefined;
  timerDueAt: number;
  inFlight: number;
  polls: number;
  paused: boolean;
  stopped: boolean;
}

export function createPollerState(options: PollerOptions): PollerState {
  const { client } = options;
  return {
    client,
    budget: options.budget && options.budget !== client.budget ? options.budget : undefined,
    onUpdate: options.onUpdate,
    onError: options.onError,
    initialDelayMs: options.initialDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    jitter: Math.min(Math.max(options.jitter ?? 0.2, 0), 1),
    maxInFlight: Math.max(1, options.maxInFlight ?? 16),
    maxErrors: options.maxConsecutiveErrors ?? 20,
    random: options.random ?? Math.random,
    entries: new Map(),
    queue: new DueQueue<Slot>(),
    running: new Set(),
    controller: new AbortController(),
    timer: undefined,
    timerDueAt: Infinity,
    inFlight: 0,
    polls: 0,
    paused: false,
    stopped: false,
  };
}
