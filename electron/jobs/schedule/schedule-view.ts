// What the scheduler tells the tray (and tests): per kind its schedule, next due
// time, what it is doing and how its last due time ended; and the soonest next run.
import { SCHEDULED_KINDS, nextDue, nextScheduled, type Schedule, type ScheduledKind } from '../../../shared/settings/schedules.ts';
import type { ScheduleOutcome } from './schedule-records.ts';
import type { KindActivity, SchedulerState } from './scheduler-state.ts';

export interface ScheduleKindView {
  kind: ScheduledKind;
  schedule: Schedule;
  /** ISO; null when the schedule is off. */
  nextDue: string | null;
  activity: KindActivity;
  lastRunAt: string | null;
  lastOutcome: ScheduleOutcome | null;
  /** With `skipped_consent`: the remote service (its origin) the run would have sent files to. */
  skippedFor: string | null;
}

export interface SchedulesView {
  skipOnBattery: boolean;
  kinds: ScheduleKindView[];
  /** The soonest scheduled run; null when every schedule is off. */
  next: { kind: ScheduledKind; at: string } | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function scheduleView(state: SchedulerState, now: number): SchedulesView {
  const next = nextScheduled(state.schedules, now);
  return {
    skipOnBattery: state.schedules.skipOnBattery,
    kinds: SCHEDULED_KINDS.map((kind) => ({
      kind,
      schedule: state.schedules[kind],
      nextDue: iso(nextDue(state.schedules[kind], now)),
      activity: state.activity[kind],
      lastRunAt: state.records[kind]?.lastRunAt ?? null,
      lastOutcome: state.records[kind]?.lastOutcome ?? null,
      skippedFor: state.records[kind]?.lastOutcome === 'skipped_consent' ? (state.records[kind]?.skippedFor ?? null) : null,
    })),
    next: next && { kind: next.kind, at: new Date(next.at).toISOString() },
  };
}
