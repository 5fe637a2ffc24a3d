// Schedules for scan jobs (issue 16): per job kind (quick, full) off, daily at a
// time, or weekly on a weekday at a time; and whether to skip them on battery
// power. Also the pure arithmetic of due times, in local time (a schedule means
// the wall clock: "09:00" stays 09:00 across a DST change), shared by the core's
// scheduler, the tray and the settings view.
import { z } from 'zod';

export const SCHEDULED_KINDS = ['quick', 'full'] as const;
export type ScheduledKind = (typeof SCHEDULED_KINDS)[number];

/** 0 Sunday … 6 Saturday, as Date.getDay(). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;

/** "HH:MM", 24-hour local time. */
export const scheduleTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM (00:00 to 23:59)');

export const scheduleSchema = z.discriminatedUnion('repeat', [
  z.object({ repeat: z.literal('off') }).strict(),
  z.object({ repeat: z.literal('daily'), time: scheduleTimeSchema }).strict(),
  z.object({ repeat: z.literal('weekly'), weekday: z.number().int().min(0).max(6), time: scheduleTimeSchema }).strict(),
]);
export type Schedule = z.infer<typeof scheduleSchema>;

const off: Schedule = { repeat: 'off' };

/** Replaced whole by a settings patch. Every field has a default: older settings files parse unchanged. */
export const scanSchedulesSchema = z
  .object({
    quick: scheduleSchema.default(off),
    full: scheduleSchema.default(off),
    /** A due time found on battery power is skipped (not postponed): the next one runs at its time. */
    skipOnBattery: z.boolean().default(true),
  })
  .strict();
export type ScanSchedules = z.infer<typeof scanSchedulesSchema>;

/** Most days between two due times of a schedule (weekly), plus one for a DST-shifted day. */
const SEARCH_DAYS = 8;

function hoursAndMinutes(time: string): [number, number] {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return [hours, minutes];
}

/**
 * The schedule's due time on the calendar day `offset` days from `from`'s day, or null
 * when the schedule has none that day. Built from local fields, so DST moves the instant,
 * not the wall time; a time that does not exist that day (skipped by the spring change)
 * becomes the same wall time an hour later, as Date does.
 */
function dueOnDay(schedule: Exclude<Schedule, { repeat: 'off' }>, from: Date, offset: number): number | null {
  const [hours, minutes] = hoursAndMinutes(schedule.time);
  const day = new Date(from.getFullYear(), from.getMonth(), from.getDate() + offset, 12);
  if (schedule.repeat === 'weekly' && day.getDay() !== schedule.weekday) return null;
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes).getTime();
}

/** The first due time strictly after `after` (ms), or null when the schedule is off. */
export function nextDue(schedule: Schedule, after: number): number | null {
  if (schedule.repeat === 'off') return null;
  const from = new Date(after);
  for (let offset = 0; offset <= SEARCH_DAYS; offset++) {
    const due = dueOnDay(schedule, from, offset);
    if (due !== null && due > after) return due;
  }
  return null;
}

/** The latest due time at or before `at` (ms), or null when the schedule is off. */
export function lastDue(schedule: Schedule, at: number): number | null {
  if (schedule.repeat === 'off') return null;
  const from = new Date(at);
  for (let offset = 0; offset >= -SEARCH_DAYS; offset--) {
    const due = dueOnDay(schedule, from, offset);
    if (due !== null && due <= at) return due;
  }
  return null;
}

/** The soonest due time of all kinds after `after`: what the tray and the settings show. */
export function nextScheduled(schedules: Pick<ScanSchedules, ScheduledKind>, after: number): { kind: ScheduledKind; at: number } | null {
  let best: { kind: ScheduledKind; at: number } | null = null;
  for (const kind of SCHEDULED_KINDS) {
    const at = nextDue(schedules[kind], after);
    if (at !== null && (best === null || at < best.at)) best = { kind, at };
  }
  return best;
}

/** Two schedules are the same plan (a change re-arms the scheduler). */
export const sameSchedule = (a: Schedule, b: Schedule): boolean => JSON.stringify(a) === JSON.stringify(b);
