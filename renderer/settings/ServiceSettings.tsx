// Which service scans: the built-in local one, or a remote one with its address,
// API key and a connection test. The key lives only in the password field until
// it is saved; the UI only ever shows the masked form the core reports. The
// section stays mounted when a change is saved: what the user types meanwhile is
// kept, and the key and the test wait for the address being saved.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { ConnectionReport } from '../../shared/bridge/api.ts';
import { apiKeyProblem, baseUrlProblem } from '../../shared/settings/input-problems.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { api, call } from '../bridge/api.ts';
import { formatDuration } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { apiKeyMessage, baseUrlMessage, type FieldMessage } from './input-messages.ts';
import { settingsSettled, updateSettings } from './settings-actions.ts';
import { ToolWords } from '../app/ToolWords.tsx';

/** Which service the settings name: a connection report is about one. */
const serviceKey = (settings: Pick<Settings, 'backend'> | null): string => JSON.stringify(settings?.backend ?? null);

export function ServiceSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const backend = settings.backend;
  const [kind, setKind] = useState(backend.kind);
  // The remote kept for folders set to `remote` is offered again when the user switches back.
  const [url, setUrl] = useState(backend.kind === 'remote' ? backend.baseUrl : (settings.remoteBaseUrl ?? ''));
  const [urlError, setUrlError] = useState<FieldMessage | null>(null);
  const urlId = useId();
  const urlErrorId = useId();

  const chooseKind = (next: 'local' | 'remote'): void => {
    setKind(next);
    if (next === 'local' && backend.kind !== 'local') void updateSettings({ backend: { kind: 'local' } });
  };
  const applyUrl = (event: FormEvent): void => {
    event.preventDefault();
    const baseUrl = url.trim();
    const problem = baseUrlProblem(baseUrl);
    setUrlError(problem ? baseUrlMessage(problem) : null);
    if (!problem) void updateSettings({ backend: { kind: 'remote', baseUrl } });
  };

  return (
    <section className="card" aria-labelledby="service-title">
      <h2 id="service-title">{t('settings.backend')}</h2>
      <fieldset className="choices">
        <legend className="visually-hidden">{t('settings.backend')}</legend>
        <label className="choice">
          <input type="radio" name="backend" value="local" checked={kind === 'local'} onChange={() => chooseKind('local')} />
          {t('settings.backend.local')}
        </label>
        <label className="choice">
          <input type="radio" name="backend" value="remote" checked={kind === 'remote'} onChange={() => chooseKind('remote')} />
          {t('settings.backend.remote')}
        </label>
      </fieldset>
      {kind === 'remote' ? (
        <>
          {/* noValidate: our own message (specific, in the UI language) instead of the browser bubble. */}
          <form className="field-row" onSubmit={applyUrl} noValidate>
            <label className="field field--grow" htmlFor={urlId}>
              <span className="field__label">{t('settings.baseUrl')}</span>
              <input
                id={urlId}
                type="url"
                inputMode="url"
                value={url}
                placeholder="https://scan.example.com"
                onChange={(event) => setUrl(event.target.value)}
                aria-invalid={urlError !== null}
                aria-describedby={urlError ? urlErrorId : undefined}
                spellCheck={false}
              />
            </label>
            <button type="submit" className="button">
              {t('settings.apply')}
            </button>
          </form>
          {urlError ? (
            <p id={urlErrorId} className="field-error" role="alert">
              {t(urlError.key, urlError.params)}
            </p>
          ) : null}
          <ApiKeyField />
        </>
      ) : null}
      <ConnectionTest service={serviceKey(settings)} />
    </section>
  );
}

function ApiKeyField(): ReactElement {
  const { t } = useTranslator();
  const keyStatus = useVerdict((state) => state.keyStatus);
  // The key exists only here, and only until it is saved.
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<FieldMessage | null>(null);
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!draft) return;
    // Said next to the field, in the UI's language, before the key goes anywhere (the core checks again).
    const found = apiKeyProblem(draft);
    setProblem(found ? apiKeyMessage(found) : null);
    if (found) return;
    const key = draft;
    setDraft('');
    // An address applied just before is saved first: the key belongs to that service.
    await settingsSettled();
    const status = await call(api.settings.setApiKey(key));
    if (status) {
      verdictStore.getState().setKeyStatus(status);
      if (!status.keychainError) verdictStore.getState().notify('info', 'settings.apiKeySaved');
    }
  };
  const clear = async (): Promise<void> => {
    const status = await call(api.settings.clearApiKey());
    if (status) {
      verdictStore.getState().setKeyStatus(status);
      verdictStore.getState().notify('info', 'settings.apiKeyCleared');
    }
  };

  return (
    <form className="api-key" onSubmit={(event) => void save(event)} autoComplete="off">
      <label className="field field--grow" htmlFor={fieldId}>
        <span className="field__label">{t('settings.apiKey')}</span>
        <input
          id={fieldId}
          type="password"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="new-password"
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${errorId} ${hintId}` : hintId}
          data-testid="api-key-input"
        />
      </label>
      {problem ? (
        <p id={errorId} className="field-error" role="alert" data-testid="api-key-error">
          {t(problem.key, problem.params)}
        </p>
      ) : null}
      <div className="field-row">
        <button type="submit" className="button" disabled={!draft}>
          {keyStatus?.isSet ? t('settings.apiKeyReplace') : t('settings.apiKeySave')}
        </button>
        {keyStatus?.isSet ? (
          <button type="button" className="button button--quiet" onClick={() => void clear()}>
            {t('settings.apiKeyClear')}
          </button>
        ) : null}
      </div>
      <p id={hintId} className="muted small" data-testid="api-key-status">
        {keyStatus?.isSet && keyStatus.masked ? t('settings.apiKeyStored', { masked: keyStatus.masked }) : t('settings.apiKeyNone')} · {t('settings.apiKeyHint')}
      </p>
      {keyStatus?.keychainError ? (
        <p className="field-error" role="alert" data-testid="keychain-error">
          {t('settings.keychainError')}
          <ToolWords said={{ tool: 'keychain', words: keyStatus.keychainError }} />
        </p>
      ) : null}
    </form>
  );
}

function ConnectionTest({ service }: { service: string }): ReactElement {
  const { t, locale } = useTranslator();
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ service: string; report: ConnectionReport } | null>(null);
  // A report is about the service it tested; after another address is applied it no longer applies.
  const report = tested?.service === service ? tested.report : null;
  const run = async (): Promise<void> => {
    setTesting(true);
    setTested(null);
    // Tests the address just applied, not the one before.
    await settingsSettled();
    const target = serviceKey(verdictStore.getState().settings);
    const result = await call(api.settings.testConnection());
    setTesting(false);
    if (result) setTested({ service: target, report: result });
  };
  // The headline names what went wrong; the core's message under it has the detail.
  const summary = (value: ConnectionReport): string => {
    switch (value.problem) {
      case null:
        return t('settings.testOk', { latency: value.latencyMs === null ? t('detail.unknown') : formatDuration(locale, value.latencyMs) });
      case 'no_key':
        return t('settings.testNoKey');
      case 'unauthorized':
        return t('settings.testUnauthorized');
      case 'not_a_service':
        return t('settings.testNotService');
      case 'service_error':
        return t('settings.testServiceError');
      case 'unreachable':
        return t('settings.testUnreachable');
    }
  };
  return (
    <div className="connection-test">
      <button type="button" className="button" onClick={() => void run()} disabled={testing}>
        {testing ? t('settings.testing') : t('settings.test')}
      </button>
      <div role="status" aria-live="polite" className="connection-test__report" data-testid="connection-report">
        {report ? (
          <p className={report.problem === null ? 'ok' : 'field-error'}>
            <strong>{summary(report)}</strong> <ToolWords said={{ tool: 'core', words: report.message }} />
          </p>
        ) : null}
      </div>
    </div>
  );
}
