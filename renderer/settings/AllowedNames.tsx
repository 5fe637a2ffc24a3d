// Settings › the detection names the user allows (issue 28 §1), each with Remove: the files it
// allowed read as threats again. Names are allowed from a threat's detail.
import { useEffect, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { TOOL_LANGUAGE } from '../app/tool-said.ts';
import { api } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { stopAllowingName } from '../quarantine/allow-name-actions.ts';
import { useVerdict } from '../store/use-verdict.ts';

export function AllowedNames(): ReactElement {
  const { t } = useTranslator();
  const recordsVersion = useVerdict((state) => state.recordsVersion);
  const [names, setNames] = useState<string[] | null>(null);
  const [refresh, setRefresh] = useState(0);
  // Names are allowed elsewhere (the detail panel), which changes records: read the list again then.
  useEffect(() => {
    let stale = false;
    void api.quarantine.allowedNames().then((result) => {
      if (!stale && result.ok) setNames(result.value);
    });
    return () => {
      stale = true;
    };
  }, [refresh, recordsVersion]);
  return (
    <section className="card" aria-labelledby="allowed-names-title" data-testid="allowed-names" data-focus-scope>
      <h2 id="allowed-names-title">{t('allowedNames.title')}</h2>
      <p className="muted">{t('allowedNames.hint')}</p>
      {names === null ? null : names.length === 0 ? (
        <p className="empty">{t('allowedNames.empty')}</p>
      ) : (
        <ul className="allowed">
          {names.map((name) => (
            <li key={name} className="allowed__item">
              <div className="allowed__text">
                <strong className="mono break">
                  <bdi lang={TOOL_LANGUAGE}>{displayName(name)}</bdi>
                </strong>
              </div>
              <button
                type="button"
                className="button button--small"
                onClick={() => void stopAllowingName(name).then((done) => done && setRefresh((n) => n + 1))}
                aria-label={t('allowedNames.removeLabel', { name: displayName(name) })}
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
