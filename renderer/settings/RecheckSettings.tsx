// Recent files judged again after each signature update (issue 27 §1): on or off, and the
// window (days since a file was first seen). The core starts the recheck; this only sets it.
import { useId, useState, type ReactElement } from 'react';
import type { Settings } from '../../shared/settings/settings.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { updateSettings } from './settings-actions.ts';

const DEFAULT_DAYS = 14;
const MAX_DAYS = 365;

export function RecheckSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const hintId = useId();
  const days = settings.recheckAfterUpdateDays;
  return (
    <section className="card" aria-labelledby="recheck-title">
      <h2 id="recheck-title">{t('settings.recheck')}</h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={days > 0}
          aria-describedby={hintId}
          onChange={(event) => void updateSettings({ recheckAfterUpdateDays: event.target.checked ? DEFAULT_DAYS : 0 })}
          data-testid="recheck-on"
        />
        {t('settings.recheckOn')}
      </label>
      {days > 0 && <RecheckDays key={days} days={days} />}
      <p id={hintId} className="muted small">
        {t('settings.recheckHint')}
      </p>
    </section>
  );
}

function RecheckDays({ days }: { days: number }): ReactElement {
  const { t } = useTranslator();
  const [draft, setDraft] = useState(String(days));
  const id = useId();
  const commit = (): void => {
    const value = Number(draft);
    // 0 would turn it off: the checkbox says that; the field keeps a window of at least a day.
    if (Number.isInteger(value) && value >= 1 && value <= MAX_DAYS) {
      if (value !== days) void updateSettings({ recheckAfterUpdateDays: value });
    } else setDraft(String(days));
  };
  return (
    <form
      className="field"
      onSubmit={(event) => {
        event.preventDefault();
        commit();
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('settings.recheckDays')}
      </label>
      <input id={id} className="input--narrow" type="number" min={1} max={MAX_DAYS} step={1} value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={commit} data-testid="recheck-days" />
    </form>
  );
}
