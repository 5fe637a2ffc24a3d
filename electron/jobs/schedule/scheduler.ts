// Scheduled scan jobs (issue 16): quick and full scans daily or weekly at a time,
// caught up once at the next start when the computer was off or asleep (anacron's
// rule), skipped on battery when set, and never a second job of a kind while one
// runs. This coordinator holds the state and wires the steps: arm.ts (records per
// schedule), serve-kind.ts (one due time), wake-timer.ts (the next check).
import { SCHEDULED_KINDS, type ScanSchedules } from '../../../shared/settings/schedules.ts';
import { armRecords } from './arm.ts';
import { unservedDue } from './due-now.ts';
import { serialStore, type RecordStore } from './schedule-records.ts';
import { scheduleView, type SchedulesView } from './schedule-view.ts';
import { idleActivity, type SchedulerDeps, type SchedulerState } from './scheduler-state.ts';
import { serveKind } from './serve-kind.ts';
import { setWakeTimer } from './wake-timer.ts';

export type { SchedulesView } from './schedule-view.ts';

export interface Scheduler {
  /** Loads what was served, arms the schedules and catches up a missed due time (once per kind). */
  start(): Promise<void>;
  /** Looks for due times now (the wake timer, the computer woke up). */
  check(): void;
  /** The settings' schedules changed. */
  update(schedules: ScanSchedules): void;
  view(): SchedulesView;
  onChange(listener: (view: SchedulesView) => void): () => void;
  /** Resolves when no kind is being served and the state is saved (tests, close). */
  settled(): Promise<void>;
  close(): void;
}

export type SchedulerInput = Omit<SchedulerDeps, 'changed' | 'store'> & { store: RecordStore; schedules: ScanSchedules };

export function createScheduler(input: SchedulerInput): Scheduler {
  const listeners = new Set<(view: SchedulesView) => void>();
  const store = serialStore(input.store);
  const state: SchedulerState = { schedules: input.schedules, records: {}, activity: idleActivity(), serving: { quick: null, full: null }, timer: null, closed: false };
  const view = () => scheduleView(state, input.clock.now());
  const changed = () => {
    const current = view();
    for (const listener of [...listeners]) listener(current);
  };
  const deps: SchedulerDeps = { ...input, store, changed };

  const check = (): void => {
    if (state.closed) return;
    for (const kind of SCHEDULED_KINDS) {
      if (state.serving[kind] || unservedDue(state, kind, input.clock.now()) === null) continue;
      state.serving[kind] = serveKind(state, deps, kind)
        .catch((error: unknown) => input.log.error({ err: error, kind }, 'a scheduled scan failed'))
        .finally(() => {
          state.serving[kind] = null;
          setWakeTimer(state, deps, check);
        });
    }
    setWakeTimer(state, deps, check);
  };

  // Synchronous, so a check right after a settings change sees the new records; the save is queued in order.
  const arm = () => {
    const hadRecords = Object.keys(state.records).length > 0;
    const armed = armRecords(state.records, state.schedules, input.clock.now());
    state.records = armed.records;
    // Nothing is written until a schedule is first set (a data directory without schedules stays as it was).
    const allOff = SCHEDULED_KINDS.every((kind) => state.schedules[kind].repeat === 'off');
    if (!armed.changed || (allOff && !hadRecords)) return;
    store.save(state.records).catch((error: unknown) => input.log.error({ err: error }, 'could not save the schedule state'));
  };

  const stopResume = input.power.onResume(() => {
    input.log.info({}, 'the computer woke up: looking for scheduled scans that are due');
    check();
  });

  return {
    async start() {
      state.records = await store.load();
      arm();
      check();
      changed();
    },
    check,
    update(schedules) {
      state.schedules = schedules;
      arm();
      check();
      changed();
    },
    view,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async settled() {
      for (;;) {
        const serving = SCHEDULED_KINDS.map((kind) => state.serving[kind]).filter((promise) => promise !== null);
        if (serving.length === 0) break;
        await Promise.all(serving);
      }
      await store.flushed();
    },
    close() {
      state.closed = true;
      stopResume();
      if (state.timer !== null) input.clock.clearTimer(state.timer);
      state.timer = null;
      listeners.clear();
    },
  };
}
