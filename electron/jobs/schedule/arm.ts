// Arming: a kind whose schedule is new or changed (or has no record yet) counts
// only the due times after now; a kind with the same schedule keeps its record, so
// due times missed while the computer was off are caught up (anacron's rule).
import { SCHEDULED_KINDS, sameSchedule, type ScanSchedules } from '../../../shared/settings/schedules.ts';
import { freshRecord, type ScheduleRecords } from './schedule-records.ts';

/** The records for `schedules`, and whether any changed (then they are saved). */
export function armRecords(records: ScheduleRecords, schedules: ScanSchedules, now: number): { records: ScheduleRecords; changed: boolean } {
  const next: ScheduleRecords = { ...records };
  let changed = false;
  for (const kind of SCHEDULED_KINDS) {
    const record = records[kind];
    if (record && sameSchedule(record.schedule, schedules[kind])) continue;
    next[kind] = freshRecord(schedules[kind], now);
    changed = true;
  }
  return { records: next, changed };
}
