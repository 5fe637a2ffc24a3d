// Start-up warnings (a damaged or newer settings file, a replaced history or
// quarantine index): shown once at the top until dismissed, in the UI's language,
// with the core's own sentences under "Details" for a support request.
import { useEffect, useId, useState, type ReactElement } from 'react';
import type { StartupWarning } from '../../shared/bridge/api.ts';
import { displayName } from '../../shared/display-name.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { WarningIcon } from '../icons/icons.tsx';
import { startupWarningText } from './startup-warning-text.ts';
import { TOOL_LANGUAGE } from './tool-said.ts';

export function StartupWarnings(): ReactElement | null {
  const translator = useTranslator();
  const { t } = translator;
  const titleId = useId();
  const [warnings, setWarnings] = useState<StartupWarning[]>([]);

  useEffect(() => {
    let mounted = true;
    void call(api.settings.startupWarnings()).then((found) => {
      if (mounted && found) setWarnings(found);
    });
    return () => {
      mounted = false;
    };
  }, []);

  if (warnings.length === 0) return null;
  return (
    <section className="startup-warnings" role="alert" aria-labelledby={titleId} data-testid="startup-warnings">
      <WarningIcon className="startup-warnings__icon" />
      <div className="startup-warnings__text">
        <strong id={titleId}>{t('startup.title')}</strong>
        <ul className="startup-warnings__list">
          {warnings.map((warning, index) => (
            <li key={`${warning.code}-${index}`} data-code={warning.code}>
              {startupWarningText(translator, warning)}
            </li>
          ))}
        </ul>
        <details className="startup-warnings__details">
          <summary>{t('startup.details')}</summary>
          <ul>
            {warnings.map((warning, index) => (
              <li key={`${warning.code}-${index}`}>
                {/* The core's English sentence; it names a file's path: shown like every path. */}
                <code>{warning.code}</code>: <span lang={TOOL_LANGUAGE}>{displayName(warning.message)}</span>
              </li>
            ))}
          </ul>
        </details>
      </div>
      <button type="button" className="button" onClick={() => setWarnings([])}>
        {t('startup.dismiss')}
      </button>
    </section>
  );
}
