// Automatic signature updates (at start and every 12 hours, while Verdict's own
// database is in use): on by default; the core's schedule reads the setting.
import { useId, type ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { updateSettings } from './settings-actions.ts';

export function AutoUpdateChoice(): ReactElement | null {
  const { t } = useTranslator();
  const hintId = useId();
  const enabled = useVerdict((state) => state.settings?.autoUpdateSignatures ?? null);
  if (enabled === null) return null;
  return (
    <>
      <label className="choice">
        <input
          type="checkbox"
          checked={enabled}
          aria-describedby={hintId}
          onChange={(event) => void updateSettings({ autoUpdateSignatures: event.target.checked })}
          data-testid="engine-auto-update"
        />
        {t('engine.autoUpdate')}
      </label>
      <p id={hintId} className="muted small">
        {t('engine.autoUpdateHint')}
      </p>
    </>
  );
}
