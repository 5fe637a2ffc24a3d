// Running the polls: the pump starts every due poll the in-flight cap allows,
// each poll's answer reschedules its scan or ends it, and failures back off
// (401s keep the scan but ask rarely; persistent or final errors give it up).
import { ServiceError, wordedServiceError } from './service-error.ts';
import { clearTimer, delayFor, isLive, now, schedule } from './poll-schedule.ts';
import type { Entry, PollerState } from './poller-state.ts';

/** Sets the timer for the earliest live slot (stale slots at the top are dropped), unless it is set for earlier already. */
export function arm(state: PollerState): void {
  if (state.stopped || state.paused || state.inFlight >= state.maxInFlight) return;
  const { queue } = state;
  while (queue.size > 0 && !isLive(state, queue.peek()!)) queue.pop();
  const next = queue.peek();
  if (!next) return;
  if (state.timer && state.timerDueAt <= next.dueAt) return;
  if (state.timer) clearTimeout(state.timer);
  state.timerDueAt = next.dueAt;
  state.timer = setTimeout(() => pump(state), Math.max(0, next.dueAt - now()));
}

export function pump(state: PollerState): void {
  clearTimer(state);
  if (state.stopped || state.paused) return;
  const { queue } = state;
  const t = now();
  while (state.inFlight < state.maxInFlight && queue.size > 0) {
    const slot = queue.peek()!;
    if (!isLive(state, slot)) {
      queue.pop();
      continue;
    }
    if (slot.dueAt > t) break;
    queue.pop();
    start(state, slot.entry);
  }
  arm(state);
}

function start(state: PollerState, entry: Entry): void {
  entry.inFlight = true;
  state.inFlight++;
  const task = poll(state, entry).finally(() => {
    state.inFlight--;
    state.running.delete(task);
    pump(state);
  });
  state.running.add(task);
}

async function poll(state: PollerState, entry: Entry): Promise<void> {
  const { signal } = state.controller;
  try {
    if (state.budget) await state.budget.acquire(signal);
    state.polls++;
    entry.polls++;
    const scan = await state.client.getScan(entry.scanId, { signal });
    entry.inFlight = false;
    if (state.entries.get(entry.scanId) !== entry) return;
    entry.errors = 0;
    const terminal = scan.status !== 'processing';
    if (terminal) {
      state.entries.delete(entry.scanId);
    } else {
      entry.step++;
      schedule(state, entry, entry.woken ? 0 : delayFor(state, entry.step));
    }
    entry.woken = false;
    safely(() => state.onUpdate({ scanId: entry.scanId, externalReferenceId: entry.externalReferenceId, scan, terminal, polls: entry.polls }));
  } catch (error) {
    entry.inFlight = false;
    if (state.stopped || state.entries.get(entry.scanId) !== entry) return;
    if (error instanceof ServiceError && error.kind === 'aborted') return;
    const serviceError =
      error instanceof ServiceError ? error : wordedServiceError('malformed_response', { cause: 'polling_failed' }, { scanId: entry.scanId });
    fail(state, entry, serviceError);
  }
}

function fail(state: PollerState, entry: Entry, error: ServiceError): void {
  entry.errors++;
  const auth = error.kind === 'unauthorized';
  const transient = error.retryable || error.kind === 'malformed_response';
  const final = !auth && (!transient || entry.errors >= state.maxErrors);
  if (final) {
    state.entries.delete(entry.scanId);
  } else if (auth) {
    // Keep the scan, but ask rarely until a key is accepted (the pipeline may pause us meanwhile).
    schedule(state, entry, state.maxDelayMs);
  } else {
    entry.step++;
    schedule(state, entry, Math.max(delayFor(state, entry.step), error.retryAfterMs ?? 0));
  }
  safely(() => state.onError?.({ scanId: entry.scanId, externalReferenceId: entry.externalReferenceId, error, final, consecutiveErrors: entry.errors }));
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A throwing listener must not stop the polling of every other scan.
  }
}
