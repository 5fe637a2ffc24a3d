// Settings › VirusTotal: the user's VirusTotal API key, added and removed here. It goes
// to the main process, which keeps it in the OS keychain; this view only ever sees
// whether one is set, masked. With a key, a file's detail shows VirusTotal's last analysis.
import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import type { KeyStatus } from '../../shared/bridge/api.ts';
import { apiKeyProblem } from '../../shared/settings/input-problems.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import { virusTotalKeyChanged } from '../detail/virustotal-key-version.ts';
import { apiKeyMessage, type FieldMessage } from './input-messages.ts';

export function VirusTotalKey(): ReactElement {
  const { t } = useTranslator();
  const [status, setStatus] = useState<KeyStatus | null>(null);
  // The key exists only here, and only until it is saved.
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<FieldMessage | null>(null);
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  useEffect(() => {
    let live = true;
    void call(api.virusTotal.keyStatus()).then((value) => live && value && setStatus(value));
    return () => {
      live = false;
    };
  }, []);

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!draft) return;
    const found = apiKeyProblem(draft);
    setProblem(found ? apiKeyMessage(found) : null);
    if (found) return;
    const key = draft;
    setDraft('');
    const next = await call(api.virusTotal.setKey(key));
    if (next) {
      setStatus(next);
      virusTotalKeyChanged();
      if (!next.keychainError) verdictStore.getState().notify('info', 'virusTotal.keySaved');
    }
  };
  const clear = async (): Promise<void> => {
    const next = await call(api.virusTotal.clearKey());
    if (next) {
      setStatus(next);
      virusTotalKeyChanged();
      verdictStore.getState().notify('info', 'virusTotal.keyCleared');
    }
  };

  return (
    <section className="card" aria-labelledby="virustotal-settings-title" data-testid="virustotal-settings">
      <h2 id="virustotal-settings-title">{t('virusTotal.settingsTitle')}</h2>
      <p className="muted">{t('virusTotal.settingsHint')}</p>
      <form className="api-key" onSubmit={(event) => void save(event)} autoComplete="off">
        <label className="field field--grow" htmlFor={fieldId}>
          <span className="field__label">{t('virusTotal.key')}</span>
          <input
            id={fieldId}
            type="password"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${errorId} ${hintId}` : hintId}
            data-testid="virustotal-key-input"
          />
        </label>
        {problem ? (
          <p id={errorId} className="field-error" role="alert">
            {t(problem.key, problem.params)}
          </p>
        ) : null}
        <div className="field-row">
          <button type="submit" className="button" disabled={!draft}>
            {status?.isSet ? t('virusTotal.keyReplace') : t('virusTotal.keySave')}
          </button>
          {status?.isSet ? (
            <button type="button" className="button button--quiet" onClick={() => void clear()}>
              {t('virusTotal.keyClear')}
            </button>
          ) : null}
        </div>
        <p id={hintId} className="muted small" data-testid="virustotal-key-status">
          {status?.isSet && status.masked ? t('settings.apiKeyStored', { masked: status.masked }) : t('settings.apiKeyNone')} · {t('settings.apiKeyHint')}
        </p>
        {status?.keychainError ? (
          <p className="field-error" role="alert">
            {t('settings.keychainError')}
            <ToolWords said={{ tool: 'keychain', words: status.keychainError }} />
          </p>
        ) : null}
      </form>
    </section>
  );
}
