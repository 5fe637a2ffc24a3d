// Serving one kind's due time: wait for a job of the kind that is already running
// (started by hand, or resumed after a restart) and count it when it completes; else
// skip on battery when the settings say so; else start the scheduled job and wait for
// its end; skip it when its files would wait for the user's consent to upload to a remote
// service (nobody is there to give it: it would wait silently). The record is saved right after the job starts: a restart then finds the job
// running (it resumes) and the due time served, never a second run for it.
import { lastDue, type ScheduledKind } from '../../../shared/settings/schedules.ts';
import { unservedDue } from './due-now.ts';
import type { ScheduleOutcome, ScheduleRecord } from './schedule-records.ts';
import type { KindActivity, SchedulerDeps, SchedulerState } from './scheduler-state.ts';

function setActivity(state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind, activity: KindActivity): void {
  if (state.activity[kind] === activity) return;
  state.activity[kind] = activity;
  deps.changed();
}

/** Moves the kind's watermark up to `until` (never back) with the outcome, and saves. */
async function markServed(state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind, until: number, change: Partial<ScheduleRecord> & { lastOutcome: ScheduleOutcome }): Promise<void> {
  const record = state.records[kind];
  if (!record) return;
  const servedUntil = new Date(Math.max(until, Date.parse(record.servedUntil))).toISOString();
  state.records = { ...state.records, [kind]: { ...record, ...change, servedUntil } };
  deps.changed();
  try {
    await deps.store.save(state.records);
  } catch (error) {
    deps.log.error({ err: error, kind }, 'could not save the schedule state; a due time may run again after a restart');
  }
}

/** Due times that passed while a job ran are served by it: one run, never a queue of them. */
const servedByNow = (state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind, due: number): number =>
  Math.max(due, lastDue(state.schedules[kind], deps.clock.now()) ?? due);

/** Waits for the kind's jobs already running; true when one of them completed (it served the due time). */
async function waitForOthers(state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind, waited: Set<number>): Promise<boolean | null> {
  const others = deps.jobs.active(kind).filter((job) => !waited.has(job.id));
  if (others.length === 0) return null;
  setActivity(state, deps, kind, 'waiting');
  deps.log.info({ kind, jobs: others.map((job) => job.id) }, 'a scheduled scan waits for the same kind of scan to end');
  let completed = false;
  for (const job of others) {
    // Each job once: one that nothing runs (its end is already known) is not waited for again.
    waited.add(job.id);
    const end = await deps.jobs.finished(job.id);
    if (end?.status === 'completed') completed = true;
  }
  return completed;
}

async function runScheduled(state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind, due: number): Promise<void> {
  setActivity(state, deps, kind, 'running');
  const startedAt = deps.clock.now();
  let jobId: number;
  try {
    jobId = (await deps.jobs.start(kind)).id;
  } catch (error) {
    deps.log.error({ err: error, kind }, 'a scheduled scan could not start');
    await markServed(state, deps, kind, due, { lastOutcome: 'failed', lastRunAt: new Date(startedAt).toISOString() });
    return;
  }
  deps.log.info({ kind, jobId, due: new Date(due).toISOString() }, 'scheduled scan started');
  await markServed(state, deps, kind, due, { lastOutcome: 'ran', lastRunAt: new Date(startedAt).toISOString(), lastJobId: jobId });
  const end = await deps.jobs.finished(jobId);
  // null: the core closed mid-job; it resumes at the next start, and this due time stays served.
  if (end && !state.closed) await markServed(state, deps, kind, servedByNow(state, deps, kind, due), { lastOutcome: 'ran' });
}

/** Serves the kind's unserved due time, if any; returns when it is served (or the scheduler closed). */
export async function serveKind(state: SchedulerState, deps: SchedulerDeps, kind: ScheduledKind): Promise<void> {
  const waited = new Set<number>();
  try {
    for (;;) {
      if (state.closed) return;
      const due = unservedDue(state, kind, deps.clock.now());
      if (due === null) return;
      const completed = await waitForOthers(state, deps, kind, waited);
      if (state.closed) return;
      if (completed === true) {
        await markServed(state, deps, kind, servedByNow(state, deps, kind, due), { lastOutcome: 'covered' });
        return;
      }
      // The other jobs were cancelled or stopped: look again (another may have started meanwhile).
      if (completed === false) continue;
      if (state.schedules.skipOnBattery && deps.power.onBattery()) {
        deps.log.info({ kind, due: new Date(due).toISOString() }, 'scheduled scan skipped on battery power');
        await markServed(state, deps, kind, due, { lastOutcome: 'skipped_battery' });
        return;
      }
      const asksFor = deps.uploadWaitsForConsent?.() ?? null;
      if (asksFor !== null) {
        deps.log.warn({ kind, due: new Date(due).toISOString(), service: asksFor }, 'scheduled scan skipped: its files would wait for consent to upload to the remote service');
        await markServed(state, deps, kind, due, { lastOutcome: 'skipped_consent', lastRunAt: new Date(deps.clock.now()).toISOString(), skippedFor: asksFor });
        return;
      }
      await runScheduled(state, deps, kind, due);
      return;
    }
  } finally {
    setActivity(state, deps, kind, 'idle');
  }
}
