// The core's overview namespace (issue 29 §5): the history's counts over the user's last
// days, the last full scan, the signature updates, and the soonest scheduled run (quick, full or saved).
import { OVERVIEW_DAYS, TOP_DETECTIONS, type NextScheduled, type OverviewApi } from '../../shared/overview/overview.ts';
import { nextSavedScan } from '../../shared/saved-scans/saved-scan.ts';
import { ok } from '../../shared/result.ts';
import type { History } from '../history/history.ts';
import type { Scheduler } from '../jobs/schedule/scheduler.ts';
import type { SavedScanSchedules } from '../saved-scans/saved-scan-schedules.ts';
import type { SavedScans } from '../saved-scans/saved-scans.ts';
import type { Guard } from './core-context.ts';

export interface OverviewSchedules {
  schedules: Pick<Scheduler, 'view'>;
  /** The saved scans' schedules; null when this core serves none (a CLI run): then their next time comes from the list. */
  savedSchedules: Pick<SavedScanSchedules, 'next'> | null;
  savedScans: Pick<SavedScans, 'list'>;
}

/** The soonest of the quick/full schedules' next run and the saved scans' (the earlier wins; a tie: the quick or full one). */
export function soonestScheduled(input: OverviewSchedules, nowMs: number): NextScheduled | null {
  const builtIn = input.schedules.view().next;
  const saved = input.savedSchedules ? input.savedSchedules.next() : toIso(nextSavedScan(input.savedScans.list(), nowMs));
  if (saved === null) return builtIn;
  if (builtIn !== null && Date.parse(builtIn.at) <= Date.parse(saved.at)) return builtIn;
  return { kind: 'saved', name: saved.name, at: saved.at };
}

const toIso = (next: { name: string; at: number } | null) => next && { name: next.name, at: new Date(next.at).toISOString() };

export function overviewApi(guard: Guard, history: History, schedules: OverviewSchedules, now: () => number = Date.now): OverviewApi {
  return {
    get: (request) =>
      guard('Reading the protection overview', () => {
        const nowMs = now();
        const counts = history.overview({ nowMs, utcOffsetMinutes: request.utcOffsetMinutes, days: OVERVIEW_DAYS, topDetections: TOP_DETECTIONS });
        return ok({ ...counts, nextScheduled: soonestScheduled(schedules, nowMs) });
      }),
  };
}
