// Scheduled scans: per job kind (quick, full) off, every day or every week at a time,
// with the next run shown, and the soonest of all (saved scans' included); and whether
// to skip them on battery power. The core runs them (electron/jobs/schedule/); a choice
// applies at once, a time on Enter or blur.
import { useId, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { nextSavedScan, type SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import { nextDue, nextScheduled, SCHEDULED_KINDS, WEEKDAYS, type Schedule, type ScheduledKind } from '../../shared/settings/schedules.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { formatNextRun, weekdayName, withRepeat, withTime, withWeekday, type Repeat } from './schedule-form.ts';
import { updateSettings } from './settings-actions.ts';

const REPEATS: readonly Repeat[] = ['off', 'daily', 'weekly'];

export function ScheduleSettings({ settings, savedScans }: { settings: Settings; savedScans: ReadonlyArray<Pick<SavedScan, 'name' | 'schedule'>> }): ReactElement {
  const { t } = useTranslator();
  const schedules = settings.scanSchedules;
  const save = (kind: ScheduledKind, schedule: Schedule) => void updateSettings({ scanSchedules: { ...schedules, [kind]: schedule } });
  return (
    <section className="card" aria-labelledby="schedules-title" data-testid="schedule-settings">
      <h2 id="schedules-title">{t('settings.schedules')}</h2>
      <p className="muted small">{t('settings.schedules.hint')}</p>
      {SCHEDULED_KINDS.map((kind) => (
        <KindSchedule key={`${kind}:${JSON.stringify(schedules[kind])}`} kind={kind} schedule={schedules[kind]} onChange={(schedule) => save(kind, schedule)} />
      ))}
      <NextScan schedules={schedules} savedScans={savedScans} />
      <div className="choices">
        <label className="choice">
          <input
            type="checkbox"
            checked={schedules.skipOnBattery}
            onChange={(event) => void updateSettings({ scanSchedules: { ...schedules, skipOnBattery: event.target.checked } })}
            data-testid="schedule-skip-on-battery"
          />
          {t('settings.schedules.skipOnBattery')}
        </label>
      </div>
    </section>
  );
}

/** The soonest of every schedule, the saved scans' included (as the tray says it): "Next scan: “Photos”, Thursday …". */
function NextScan({ schedules, savedScans }: { schedules: Settings['scanSchedules']; savedScans: ReadonlyArray<Pick<SavedScan, 'name' | 'schedule'>> }): ReactElement | null {
  const { t, locale } = useTranslator();
  const [now] = useState(() => Date.now());
  const kind = nextScheduled(schedules, now);
  const saved = nextSavedScan(savedScans, now);
  if (kind === null && saved === null) return null;
  const text =
    saved !== null && (kind === null || saved.at < kind.at)
      ? t('settings.schedules.nextScan', { what: t('settings.schedules.nextSaved', { name: displayName(saved.name) }), when: formatNextRun(locale, saved.at) })
      : t('settings.schedules.nextScan', { what: t(`settings.schedules.next.${kind!.kind}`), when: formatNextRun(locale, kind!.at) });
  return (
    <p className="small" data-testid="schedule-next">
      {text}
    </p>
  );
}

function KindSchedule({ kind, schedule, onChange }: { kind: ScheduledKind; schedule: Schedule; onChange: (schedule: Schedule) => void }): ReactElement {
  const { t, locale } = useTranslator();
  const repeatId = useId();
  const dayId = useId();
  const timeId = useId();
  const nextId = useId();
  const [time, setTime] = useState(schedule.repeat === 'off' ? '' : schedule.time);
  // Read once per schedule shown (the section is keyed on it): a new choice shows its own next run.
  const [now] = useState(() => Date.now());
  const next = nextDue(schedule, now);
  const commitTime = () => {
    if (schedule.repeat === 'off' || time === schedule.time) return;
    const changed = withTime(schedule, time);
    // A half-typed or cleared time goes back to the saved one.
    if (changed) onChange(changed);
    else setTime(schedule.time);
  };
  return (
    <fieldset className="choices" data-testid={`schedule-${kind}`} aria-describedby={next === null ? undefined : nextId}>
      <legend className="field__label">{t(`settings.schedules.kind.${kind}`)}</legend>
      <form
        className="field-row field-row--fields"
        onSubmit={(event) => {
          event.preventDefault();
          commitTime();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor={repeatId}>
            {t('settings.schedules.repeat')}
          </label>
          <select id={repeatId} value={schedule.repeat} onChange={(event) => onChange(withRepeat(schedule, event.target.value as Repeat))}>
            {REPEATS.map((repeat) => (
              <option key={repeat} value={repeat}>
                {t(`settings.schedules.repeat.${repeat}`)}
              </option>
            ))}
          </select>
        </div>
        {schedule.repeat === 'weekly' ? (
          <div className="field">
            <label className="field__label" htmlFor={dayId}>
              {t('settings.schedules.weekday')}
            </label>
            <select id={dayId} value={schedule.weekday} onChange={(event) => onChange(withWeekday(schedule, Number(event.target.value)))}>
              {WEEKDAYS.map((weekday) => (
                <option key={weekday} value={weekday}>
                  {weekdayName(locale, weekday)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {schedule.repeat === 'off' ? null : (
          <div className="field">
            <label className="field__label" htmlFor={timeId}>
              {t('settings.schedules.time')}
            </label>
            <input
              id={timeId}
              type="time"
              value={time}
              required
              onChange={(event) => setTime(event.target.value)}
              onBlur={commitTime}
              // Chromium does not submit a form from a time field on Enter.
              onKeyDown={(event) => event.key === 'Enter' && commitTime()}
            />
          </div>
        )}
      </form>
      {next === null ? null : (
        <p id={nextId} className="muted small" data-testid={`schedule-${kind}-next`}>
          {t('settings.schedules.next', { when: formatNextRun(locale, next) })}
        </p>
      )}
    </fieldset>
  );
}
