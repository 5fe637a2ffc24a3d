// The core's overview namespace (issue 29 §5): the history's counts over the user's last
// days, the last full scan, and the scheduler's next run.
import { OVERVIEW_DAYS, TOP_DETECTIONS, type OverviewApi } from '../../shared/overview/overview.ts';
import { ok } from '../../shared/result.ts';
import type { History } from '../history/history.ts';
import type { Scheduler } from '../jobs/schedule/scheduler.ts';
import type { Guard } from './core-context.ts';

export function overviewApi(guard: Guard, history: History, schedules: Pick<Scheduler, 'view'>, now: () => number = Date.now): OverviewApi {
  return {
    get: (request) =>
      guard('Reading the protection overview', () => {
        const counts = history.overview({ nowMs: now(), utcOffsetMinutes: request.utcOffsetMinutes, days: OVERVIEW_DAYS, topDetections: TOP_DETECTIONS });
        return ok({ ...counts, nextScheduled: schedules.view().next });
      }),
  };
}
