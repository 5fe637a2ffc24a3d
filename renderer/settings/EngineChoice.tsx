// A yes/no engine setting with its hint, on by default:
// - autoUpdateSignatures: at start and every 12 hours, while Verdict's own database is in use;
// - startOwnClamd: read when the built-in service starts, so a change takes effect at the next start.
import { useId, type ReactElement } from 'react';
import type { MessageKey } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { updateSettings } from './settings-actions.ts';

const CHOICES = {
  autoUpdateSignatures: { label: 'engine.autoUpdate', hint: 'engine.autoUpdateHint', testId: 'engine-auto-update' },
  startOwnClamd: { label: 'engine.startOwnClamd', hint: 'engine.startOwnClamdHint', testId: 'engine-start-own-clamd' },
} as const satisfies Record<string, { label: MessageKey; hint: MessageKey; testId: string }>;

export function EngineChoice({ setting }: { setting: keyof typeof CHOICES }): ReactElement | null {
  const { t } = useTranslator();
  const hintId = useId();
  const enabled = useVerdict((state) => state.settings?.[setting] ?? null);
  if (enabled === null) return null;
  const { label, hint, testId } = CHOICES[setting];
  return (
    <>
      <label className="choice">
        <input
          type="checkbox"
          checked={enabled}
          aria-describedby={hintId}
          onChange={(event) => void updateSettings({ [setting]: event.target.checked })}
          data-testid={testId}
        />
        {t(label)}
      </label>
      <p id={hintId} className="muted small">
        {t(hint)}
      </p>
    </>
  );
}
