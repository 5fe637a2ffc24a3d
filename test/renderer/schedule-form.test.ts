// The schedule form's steps: switching "Runs" keeps the time and day chosen, a
// half-typed time changes nothing, and the weekday and next-run texts in both languages.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME, DEFAULT_WEEKDAY, formatNextRun, weekdayName, withRepeat, withTime, withWeekday } from '../../renderer/settings/schedule-form.ts';
import { scheduleSchema, WEEKDAYS } from '../../shared/settings/schedules.ts';

const plain = (text: string): string => text.replace(/\s/g, ' ');

describe('the schedule form', () => {
  it('switching on starts at the default time and day; switching between daily and weekly keeps the time', () => {
    expect(withRepeat({ repeat: 'off' }, 'daily')).toEqual({ repeat: 'daily', time: DEFAULT_TIME });
    expect(withRepeat({ repeat: 'off' }, 'weekly')).toEqual({ repeat: 'weekly', weekday: DEFAULT_WEEKDAY, time: DEFAULT_TIME });
    expect(withRepeat({ repeat: 'daily', time: '18:45' }, 'weekly')).toEqual({ repeat: 'weekly', weekday: DEFAULT_WEEKDAY, time: '18:45' });
    expect(withRepeat({ repeat: 'weekly', weekday: 5, time: '07:00' }, 'daily')).toEqual({ repeat: 'daily', time: '07:00' });
    expect(withRepeat({ repeat: 'weekly', weekday: 5, time: '07:00' }, 'off')).toEqual({ repeat: 'off' });
    // Every result is a valid setting.
    for (const repeat of ['off', 'daily', 'weekly'] as const) expect(scheduleSchema.safeParse(withRepeat({ repeat: 'off' }, repeat)).success).toBe(true);
  });

  it('takes a whole time only, and a day only for a weekly schedule', () => {
    expect(withTime({ repeat: 'daily', time: '09:00' }, '23:05')).toEqual({ repeat: 'daily', time: '23:05' });
    expect(withTime({ repeat: 'daily', time: '09:00' }, '')).toBeNull();
    expect(withTime({ repeat: 'daily', time: '09:00' }, '7:5')).toBeNull();
    expect(withTime({ repeat: 'off' }, '10:00')).toBeNull();
    expect(withWeekday({ repeat: 'weekly', weekday: 1, time: '09:00' }, 0)).toEqual({ repeat: 'weekly', weekday: 0, time: '09:00' });
    expect(withWeekday({ repeat: 'daily', time: '09:00' }, 0)).toEqual({ repeat: 'daily', time: '09:00' });
  });

  it('names the weekdays from Monday, in English and German', () => {
    expect(WEEKDAYS.map((day) => weekdayName('en', day))).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(weekdayName('de', 0)).toBe('Sonntag');
  });

  it('words the next run in local time on the 24-hour clock', () => {
    const at = new Date(2026, 10, 26, 21, 5).getTime();
    expect(plain(formatNextRun('en', at))).toBe('Thursday 26 November at 21:05');
    expect(plain(formatNextRun('de', at))).toBe('Donnerstag, 26. November um 21:05');
  });
});
