// A saved scan's schedule in its form (off, every day or every week at a time), with the
// schedule settings' own steps and words; and the short text of a schedule in the list.
import { useId, useState, type ReactElement } from 'react';
import { WEEKDAYS, type Schedule } from '../../shared/settings/schedules.ts';
import type { Locale } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { weekdayName, withRepeat, withTime, withWeekday, type Repeat } from './schedule-form.ts';

const REPEATS: readonly Repeat[] = ['off', 'daily', 'weekly'];

export function SavedScanSchedule({ schedule, onChange }: { schedule: Schedule; onChange(next: Schedule): void }): ReactElement {
  const { t, locale } = useTranslator();
  const ids = { repeat: useId(), day: useId(), time: useId() };
  const [time, setTime] = useState(schedule.repeat === 'off' ? '' : schedule.time);
  return (
    <div className="field-row">
      <div className="field">
        <label className="field__label" htmlFor={ids.repeat}>
          {t('settings.schedules.repeat')}
        </label>
        <select id={ids.repeat} value={schedule.repeat} onChange={(event) => {
          const next = withRepeat(schedule, event.target.value as Repeat);
          setTime(next.repeat === 'off' ? '' : next.time);
          onChange(next);
        }}>
          {REPEATS.map((repeat) => (
            <option key={repeat} value={repeat}>
              {t(`settings.schedules.repeat.${repeat}`)}
            </option>
          ))}
        </select>
      </div>
      {schedule.repeat === 'weekly' ? (
        <div className="field">
          <label className="field__label" htmlFor={ids.day}>
            {t('settings.schedules.weekday')}
          </label>
          <select id={ids.day} value={schedule.weekday} onChange={(event) => onChange(withWeekday(schedule, Number(event.target.value)))}>
            {WEEKDAYS.map((weekday) => (
              <option key={weekday} value={weekday}>
                {weekdayName(locale, weekday)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {schedule.repeat !== 'off' ? (
        <div className="field">
          <label className="field__label" htmlFor={ids.time}>
            {t('settings.schedules.time')}
          </label>
          <input id={ids.time} type="time" value={time} onChange={(event) => {
            setTime(event.target.value);
            const next = withTime(schedule, event.target.value);
            if (next) onChange(next);
          }} />
        </div>
      ) : null}
    </div>
  );
}

/** "Every day, 09:00" / "Every week, Monday, 09:00"; null when off. */
export function scheduleText(t: ReturnType<typeof useTranslator>['t'], locale: Locale, schedule: Schedule): string | null {
  if (schedule.repeat === 'off') return null;
  const parts = [t(`settings.schedules.repeat.${schedule.repeat}`), ...(schedule.repeat === 'weekly' ? [weekdayName(locale, schedule.weekday)] : []), schedule.time];
  return parts.join(', ');
}
