// The core's scan schedules (electron/jobs/schedule/): quick and full jobs started at
// their times while Verdict runs, a missed one caught up at start. Set up after the
// unfinished jobs resumed, so a scheduled job a restart interrupted is found running
// (and waited for), never started again.
import { SCHEDULED_KINDS, type ScanSchedules } from '../../shared/settings/schedules.ts';
import type { History } from '../history/history.ts';
import type { Jobs } from '../jobs/jobs.ts';
import { systemClock } from '../jobs/schedule/clock.ts';
import { mainsPower } from '../jobs/schedule/power.ts';
import { fileRecordStore } from '../jobs/schedule/schedule-records.ts';
import { createScheduler, type Scheduler } from '../jobs/schedule/scheduler.ts';
import type { CoreContext } from './core-context.ts';

const sameSchedules = (a: ScanSchedules, b: ScanSchedules): boolean =>
  a.skipOnBattery === b.skipOnBattery && SCHEDULED_KINDS.every((kind) => JSON.stringify(a[kind]) === JSON.stringify(b[kind]));

export async function setupSchedules(ctx: CoreContext, input: { jobs: Jobs; history: History; uploadWaitsForConsent: () => string | null }): Promise<Scheduler> {
  const scheduler = createScheduler({
    clock: ctx.tuning.scheduleClock ?? systemClock,
    power: ctx.options.power ?? mainsPower,
    jobs: {
      start: (kind) => input.jobs.start({ kind, origin: 'schedule' }),
      finished: (id) => input.jobs.finished(id),
      // From the history: every job of the kind not yet ended, whoever started it (and in whichever run of the app).
      active: (kind) => input.history.jobs.unfinished().filter((job) => job.kind === kind),
    },
    store: fileRecordStore(ctx.dataDir, (error) => ctx.log.warn({ err: error }, 'the schedule state file is damaged; the schedules start afresh')),
    log: ctx.log,
    uploadWaitsForConsent: input.uploadWaitsForConsent,
    schedules: ctx.settings.get().scanSchedules,
  });
  // Registered after the jobs: closes first, so no scheduled job starts while they stop.
  ctx.onClose(() => scheduler.close());
  if (ctx.tuning.schedules === false) return scheduler;
  await scheduler.start();
  ctx.settings.onChange((settings, previous) => {
    if (!sameSchedules(settings.scanSchedules, previous.scanSchedules)) scheduler.update(settings.scanSchedules);
  });
  return scheduler;
}
