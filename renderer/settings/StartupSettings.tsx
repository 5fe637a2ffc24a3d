// Starting with the desktop session: watched folders protect only while Verdict runs.
// The main process writes the login entry (electron/shell/start-at-login.ts) and offers
// this once, when the first folder is watched.
import { useId, type ReactElement } from 'react';
import type { Settings } from '../../shared/settings/settings.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { updateSettings } from './settings-actions.ts';

export function StartupSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const hintId = useId();
  return (
    <section className="card" aria-labelledby="startup-title">
      <h2 id="startup-title">{t('settings.startup')}</h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={settings.startAtLogin}
          aria-describedby={hintId}
          // Choosing here answers the offer too.
          onChange={(event) => void updateSettings({ startAtLogin: event.target.checked, startAtLoginOffered: true })}
          data-testid="start-at-login"
        />
        {t('settings.startAtLogin')}
      </label>
      <p id={hintId} className="muted small">
        {t('settings.startAtLoginHint')}
      </p>
    </section>
  );
}
