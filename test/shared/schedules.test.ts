// Due times of scan schedules in local time, across both of Berlin's 2026 DST changes
// (29 March: 02:00 → 03:00; 25 October: 03:00 → 02:00), and the settings' validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastDue, nextDue, nextScheduled, scanSchedulesSchema, type Schedule } from '../../shared/settings/schedules.ts';
import { settingsPatchSchema, settingsSchema } from '../../shared/settings/settings.ts';

const originalTz = process.env.TZ;
beforeAll(() => {
  // Node re-reads TZ when it is assigned: local time in this file is Berlin's.
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();
const wall = (ms: number | null) => {
  if (ms === null) return null;
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())} ${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][date.getDay()]}`;
};
const HOUR = 3_600_000;

const daily = (time: string): Schedule => ({ repeat: 'daily', time });
const weekly = (weekday: number, time: string): Schedule => ({ repeat: 'weekly', weekday, time });

describe('due times', () => {
  it('runs in Berlin time (the DST cases below would prove nothing in UTC)', () => {
    expect(new Date(local(2026, 1, 15)).getTimezoneOffset()).toBe(-60);
    expect(new Date(local(2026, 7, 15)).getTimezoneOffset()).toBe(-120);
  });

  it('daily: later today, else tomorrow; strictly after, so a due time is never its own next', () => {
    expect(wall(nextDue(daily('09:00'), local(2026, 11, 25, 8, 59)))).toBe('2026-11-25 09:00 Wed');
    expect(wall(nextDue(daily('09:00'), local(2026, 11, 25, 9, 0)))).toBe('2026-11-26 09:00 Thu');
    expect(wall(nextDue(daily('23:59'), local(2026, 12, 31, 23, 59)))).toBe('2027-01-01 23:59 Fri');
    expect(wall(lastDue(daily('09:00'), local(2026, 11, 25, 9, 0)))).toBe('2026-11-25 09:00 Wed');
    expect(wall(lastDue(daily('09:00'), local(2026, 11, 25, 8, 59)))).toBe('2026-11-24 09:00 Tue');
    expect(wall(lastDue(daily('00:00'), local(2026, 3, 1, 0, 30)))).toBe('2026-03-01 00:00 Sun');
  });

  it('weekly: the next and the last of the weekday, a week apart at most', () => {
    const mondays = weekly(1, '18:30');
    expect(wall(nextDue(mondays, local(2026, 11, 25, 12)))).toBe('2026-11-30 18:30 Mon');
    expect(wall(nextDue(mondays, local(2026, 11, 30, 18, 29)))).toBe('2026-11-30 18:30 Mon');
    expect(wall(nextDue(mondays, local(2026, 11, 30, 18, 30)))).toBe('2026-12-07 18:30 Mon');
    expect(wall(lastDue(mondays, local(2026, 11, 30, 18, 29)))).toBe('2026-11-23 18:30 Mon');
    expect(wall(lastDue(weekly(0, '10:00'), local(2026, 11, 25)))).toBe('2026-11-22 10:00 Sun');
  });

  it('off has no due time', () => {
    expect(nextDue({ repeat: 'off' }, local(2026, 11, 25))).toBeNull();
    expect(lastDue({ repeat: 'off' }, local(2026, 11, 25))).toBeNull();
    expect(nextScheduled({ quick: { repeat: 'off' }, full: { repeat: 'off' } }, local(2026, 11, 25))).toBeNull();
  });

  it('keeps the wall time across DST: 09:00 stays 09:00, though the day before was 23 or 25 hours long', () => {
    const spring = nextDue(daily('09:00'), local(2026, 3, 28, 9, 0))!;
    expect(wall(spring)).toBe('2026-03-29 09:00 Sun');
    expect(spring - local(2026, 3, 28, 9, 0)).toBe(23 * HOUR);
    const autumn = nextDue(daily('09:00'), local(2026, 10, 24, 9, 0))!;
    expect(wall(autumn)).toBe('2026-10-25 09:00 Sun');
    expect(autumn - local(2026, 10, 24, 9, 0)).toBe(25 * HOUR);
    expect(wall(nextDue(weekly(0, '09:00'), local(2026, 3, 22, 9, 0)))).toBe('2026-03-29 09:00 Sun');
  });

  it('a time the spring change skips runs an hour later that day; the twice-lived autumn hour runs once', () => {
    // 02:30 does not exist on 29 March: the due time is 03:30, once.
    const skipped = nextDue(daily('02:30'), local(2026, 3, 29, 0, 0))!;
    expect(wall(skipped)).toBe('2026-03-29 03:30 Sun');
    expect(wall(nextDue(daily('02:30'), skipped))).toBe('2026-03-30 02:30 Mon');
    // 02:30 happens twice on 25 October: one due time that day, the next is the day after.
    const first = nextDue(daily('02:30'), local(2026, 10, 25, 0, 0))!;
    expect(wall(first)).toBe('2026-10-25 02:30 Sun');
    expect(wall(nextDue(daily('02:30'), first))).toBe('2026-10-26 02:30 Mon');
    expect(wall(nextDue(daily('02:30'), first + HOUR))).toBe('2026-10-26 02:30 Mon');
    expect(lastDue(daily('02:30'), first + HOUR)).toBe(first);
  });

  it('a walk of next due times over a year: one a day, every day, at 09:00', () => {
    let at = local(2026, 1, 1);
    const seen: string[] = [];
    for (let i = 0; i < 365; i++) {
      at = nextDue(daily('09:00'), at)!;
      seen.push(wall(at)!);
    }
    expect(seen.every((text) => text.slice(11, 16) === '09:00')).toBe(true);
    expect(new Set(seen.map((text) => text.slice(0, 10))).size).toBe(365);
  });

  it('the soonest of the two kinds is the next scan', () => {
    const now = local(2026, 11, 25, 12);
    expect(nextScheduled({ quick: daily('13:00'), full: weekly(3, '12:30') }, now)).toEqual({ kind: 'full', at: local(2026, 11, 25, 12, 30) });
    expect(nextScheduled({ quick: daily('13:00'), full: { repeat: 'off' } }, now)).toEqual({ kind: 'quick', at: local(2026, 11, 25, 13) });
  });
});

describe('schedule settings', () => {
  it('default to off, skipping on battery; older settings files parse unchanged', () => {
    expect(settingsSchema.parse({}).scanSchedules).toEqual({ quick: { repeat: 'off' }, full: { repeat: 'off' }, skipOnBattery: true });
    expect(scanSchedulesSchema.parse({ quick: daily('07:05') })).toEqual({ quick: daily('07:05'), full: { repeat: 'off' }, skipOnBattery: true });
  });

  it.each([
    ['a time past midnight', { quick: daily('24:00') }],
    ['a time without its leading zero', { quick: daily('9:00') }],
    ['minutes past 59', { quick: daily('09:60') }],
    ['a weekday past Saturday', { full: weekly(7, '09:00') }],
    ['a fractional weekday', { full: { repeat: 'weekly', weekday: 1.5, time: '09:00' } }],
    ['weekly without a day', { full: { repeat: 'weekly', time: '09:00' } }],
    ['an unknown repeat', { quick: { repeat: 'hourly', time: '09:00' } }],
    ['an unknown field', { quick: { repeat: 'daily', time: '09:00', extra: 1 } }],
    ['an unknown kind', { custom: daily('09:00') }],
    ['a battery choice that is not a boolean', { skipOnBattery: 'yes' }],
  ])('refuse %s', (_, value) => {
    expect(scanSchedulesSchema.safeParse(value).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ scanSchedules: value }).success).toBe(false);
  });

  it('a patch sets them whole', () => {
    const patch = { scanSchedules: { quick: daily('12:00'), full: weekly(6, '03:15'), skipOnBattery: false } };
    expect(settingsPatchSchema.parse(patch)).toEqual(patch);
  });
});
