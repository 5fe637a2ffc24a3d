// Whether a kind has a due time not yet served: the latest due time at or before
// now, when it is after the record's watermark. Earlier missed ones are the same
// catch-up: however many passed while the computer was off, they make one run.
import { lastDue, type ScheduledKind } from '../../../shared/settings/schedules.ts';
import type { SchedulerState } from './scheduler-state.ts';

export function unservedDue(state: SchedulerState, kind: ScheduledKind, now: number): number | null {
  const record = state.records[kind];
  if (!record) return null;
  const due = lastDue(state.schedules[kind], now);
  return due !== null && due > Date.parse(record.servedUntil) ? due : null;
}
