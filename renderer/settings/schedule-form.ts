// The schedule form's pure steps: what a change of "Runs", day or time makes of a
// schedule (keeping the other choices), and the texts of weekdays and of the next run.
import { scheduleTimeSchema, type Schedule } from '../../shared/settings/schedules.ts';
import type { Locale } from '../i18n/messages.ts';

export type Repeat = Schedule['repeat'];

/** The time and day a schedule starts with when it is switched on. */
export const DEFAULT_TIME = '09:00';
export const DEFAULT_WEEKDAY = 1;

const timeOf = (schedule: Schedule): string => (schedule.repeat === 'off' ? DEFAULT_TIME : schedule.time);
const weekdayOf = (schedule: Schedule): number => (schedule.repeat === 'weekly' ? schedule.weekday : DEFAULT_WEEKDAY);

export function withRepeat(schedule: Schedule, repeat: Repeat): Schedule {
  if (repeat === 'off') return { repeat };
  if (repeat === 'daily') return { repeat, time: timeOf(schedule) };
  return { repeat, weekday: weekdayOf(schedule), time: timeOf(schedule) };
}

/** null when `time` is not a whole HH:MM (a half-typed time changes nothing). */
export function withTime(schedule: Schedule, time: string): Schedule | null {
  if (schedule.repeat === 'off' || !scheduleTimeSchema.safeParse(time).success) return null;
  return { ...schedule, time };
}

export function withWeekday(schedule: Schedule, weekday: number): Schedule {
  return schedule.repeat === 'weekly' ? { ...schedule, weekday } : schedule;
}

/** The weekday's name in the locale (0 Sunday … 6 Saturday). */
export function weekdayName(locale: Locale, weekday: number): string {
  // 22 November 2026 is a Sunday; noon keeps any time zone on that day.
  return new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(new Date(2026, 10, 22 + weekday, 12));
}

/** "Thursday 26 November at 09:00": the next run, in local time on the 24-hour clock the schedules use. */
export function formatNextRun(locale: Locale, at: number): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
}
