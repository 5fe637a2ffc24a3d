// Settings › Removable drives (issue 29 §2): when a drive is mounted, ask (a notice with
// Scan and Not now), scan it, or do nothing; drives over the size cap are only offered; the
// drives kept by *Always for this drive* (by filesystem UUID), each removable here.
import { useEffect, useId, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { DRIVE_SCAN_WHEN, type DriveScanWhen, type DriveSettings as Drives } from '../../shared/settings/drives.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { refreshSettings, updateSettings } from './settings-actions.ts';

const WHEN_KEYS: Record<DriveScanWhen, MessageKey> = { ask: 'drives.when.ask', auto: 'drives.when.auto', never: 'drives.when.never' };

export function DriveSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const drives = settings.drives;
  // *Always for this drive* is chosen in a notice, outside the window: read the settings again when shown.
  useEffect(() => void refreshSettings(), []);
  const save = (change: Partial<Drives>) => void updateSettings({ drives: { ...drives, ...change } });
  return (
    <section className="card" aria-labelledby="drives-title" data-testid="drive-settings" data-focus-scope>
      <h2 id="drives-title">{t('drives.title')}</h2>
      <fieldset className="choices">
        <legend>{t('drives.when')}</legend>
        {DRIVE_SCAN_WHEN.map((when) => (
          <label key={when} className="choice">
            <input type="radio" name="drives-when" value={when} checked={drives.when === when} onChange={() => save({ when })} data-testid={`drives-when-${when}`} />
            {t(WHEN_KEYS[when])}
          </label>
        ))}
      </fieldset>
      <SizeCap gb={drives.autoScanMaxGb} onSave={(autoScanMaxGb) => save({ autoScanMaxGb })} />
      <h3>{t('drives.always')}</h3>
      {drives.alwaysScan.length === 0 ? (
        <p className="empty">{t('drives.always.empty')}</p>
      ) : (
        <ul className="allowed">
          {drives.alwaysScan.map((entry) => (
            <li key={entry.uuid} className="allowed__item">
              <div className="allowed__text">
                <strong className="break">{displayName(entry.label)}</strong> <span className="mono muted small">{entry.uuid}</span>
              </div>
              <button
                type="button"
                className="button button--small"
                onClick={() => save({ alwaysScan: drives.alwaysScan.filter((other) => other.uuid !== entry.uuid) })}
                aria-label={t('drives.always.removeLabel', { label: displayName(entry.label) })}
              >
                {t('allowed.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SizeCap({ gb, onSave }: { gb: number; onSave: (gb: number) => void }): ReactElement {
  const { t } = useTranslator();
  const [draft, setDraft] = useState(String(gb));
  const id = useId();
  const hintId = useId();
  const commit = (): void => {
    const value = Number(draft);
    if (Number.isInteger(value) && value >= 1 && value <= 100_000) {
      if (value !== gb) onSave(value);
    } else setDraft(String(gb));
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
        {t('drives.sizeCap')}
      </label>
      <input id={id} className="input--narrow" type="number" min={1} max={100000} step={1} value={draft} aria-describedby={hintId} onChange={(event) => setDraft(event.target.value)} onBlur={commit} data-testid="drives-size-cap" />
      <p id={hintId} className="muted small">
        {t('drives.sizeCapHint')}
      </p>
    </form>
  );
}
