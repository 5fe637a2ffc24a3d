// When each followed scan is polled next: the doubling delay with jitter, and
// the one timer, armed for the earliest live slot in the due queue.
import type { Entry, PollerState, Slot } from './poller-state.ts';

export const now = () => performance.now();

export function delayFor(state: PollerState, step: number): number {
  const base = Math.min(state.maxDelayMs, state.initialDelayMs * 2 ** Math.min(step, 30));
  return Math.min(state.maxDelayMs, base * (1 - state.jitter + 2 * state.jitter * state.random()));
}

export function schedule(state: PollerState, entry: Entry, delayMs: number): void {
  entry.generation++;
  state.queue.push({ dueAt: now() + delayMs, entry, generation: entry.generation });
}

/** A slot still stands for its entry: not untracked, not rescheduled since, not being polled. */
export function isLive(state: PollerState, slot: Slot): boolean {
  return state.entries.get(slot.entry.scanId) === slot.entry && slot.generation === slot.entry.generation && !slot.entry.inFlight;
}

export function clearTimer(state: PollerState): void {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  state.timerDueAt = Infinity;
}
