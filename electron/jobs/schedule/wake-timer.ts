// The one timer: set for the next due time, but never longer than an hour, so a
// changed system clock is noticed. A timer that fires late (the computer slept
// through the due time) needs nothing special: the check serves any due time at or
// before now, once.
import { nextScheduled } from '../../../shared/settings/schedules.ts';
import type { SchedulerDeps, SchedulerState } from './scheduler-state.ts';

export const MAX_NAP_MS = 60 * 60 * 1000;

export function setWakeTimer(state: SchedulerState, deps: SchedulerDeps, check: () => void): void {
  if (state.timer !== null) deps.clock.clearTimer(state.timer);
  state.timer = null;
  if (state.closed) return;
  const now = deps.clock.now();
  const next = nextScheduled(state.schedules, now);
  if (next === null) return;
  state.timer = deps.clock.setTimer(
    () => {
      state.timer = null;
      check();
    },
    Math.max(0, Math.min(next.at - now, MAX_NAP_MS)),
  );
}
