// "Start ClamAV when Verdict starts": on by default; the core reads the setting when
// the built-in service starts, so a change takes effect at the next start.
import { useId, type ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { updateSettings } from './settings-actions.ts';

export function StartOwnClamdChoice(): ReactElement | null {
  const { t } = useTranslator();
  const hintId = useId();
  const enabled = useVerdict((state) => state.settings?.startOwnClamd ?? null);
  if (enabled === null) return null;
  return (
    <>
      <label className="choice">
        <input
          type="checkbox"
          checked={enabled}
          aria-describedby={hintId}
          onChange={(event) => void updateSettings({ startOwnClamd: event.target.checked })}
          data-testid="engine-start-own-clamd"
        />
        {t('engine.startOwnClamd')}
      </label>
      <p id={hintId} className="muted small">
        {t('engine.startOwnClamdHint')}
      </p>
    </>
  );
}
