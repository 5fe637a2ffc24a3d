// Settings for threat response and privacy: what happens to a threat found by a
// manual scan, global exclusions and the automatic size limit, what is sent to a
// remote service (and what never is) with the hosts not asked about again,
// history retention with "clear history", and the files the user allowed.
import { useEffect, useId, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import type { AllowedContent } from '../../shared/quarantine/entry.ts';
import { MAX_ASYNC_FILE_SIZE, MB } from '../../shared/service-contract/limits.ts';
import { consentHostLabel, type ExclusionRules, type ThreatAction } from '../../shared/settings/protection.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { api, call } from '../bridge/api.ts';
import { confirmAction } from '../dialogs/ask.ts';
import { formatDateTime } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { FolderIcon } from '../icons/icons.tsx';
import { stopAllowing } from '../quarantine/quarantine-actions.ts';
import { remoteOrigin } from '../privacy/upload-consent.ts';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { LinesField, NumberField } from './rule-fields.tsx';
import { updateSettings } from './settings-actions.ts';

/** A global excluded path must be absolute (or start with ~): a relative one would match nothing. */
const isAbsoluteish = (path: string): boolean => path.startsWith('/') || path.startsWith('~') || /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('\\\\');

export function ThreatSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const id = useId();
  return (
    <section className="card" aria-labelledby="threat-title" data-testid="threat-settings">
      <h2 id="threat-title">{t('protect.title')}</h2>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {t('protect.manualAction')}
        </label>
        <select id={id} value={settings.threatAction} onChange={(event) => void updateSettings({ threatAction: event.target.value as ThreatAction })}>
          <option value="notify">{t('protect.action.notify')}</option>
          <option value="quarantine">{t('protect.action.quarantine')}</option>
        </select>
      </div>
      <p className="muted small">{t('protect.hint')}</p>
    </section>
  );
}

/** Paths, patterns and extensions, one per line; shared by the global rules and each watched folder. */
export function ExclusionFields({ rules, onCommit, scope }: { rules: ExclusionRules; onCommit(rules: ExclusionRules): void; scope: 'global' | 'folder' }): ReactElement {
  const { t } = useTranslator();
  const change = (patch: Partial<ExclusionRules>): void => onCommit({ ...rules, ...patch });
  const addFolder = async (): Promise<void> => {
    const picked = await call(api.files.pick('folder'));
    if (picked && picked.length > 0) change({ paths: [...new Set([...rules.paths, ...picked])] });
  };
  return (
    <div className="exclusions">
      <LinesField
        label={t('exclude.paths')}
        values={rules.paths}
        onCommit={(paths) => change({ paths })}
        placeholder={scope === 'global' ? '~/Private' : 'cache'}
        hint={scope === 'global' ? t('exclude.pathsHint') : t('exclude.pathsFolderHint')}
        problem={scope === 'global' ? (paths) => (paths.some((path) => !isAbsoluteish(path)) ? t('exclude.pathRelative') : null) : undefined}
        testId={`exclude-paths-${scope}`}
      >
        <span className="field-row">
          <button type="button" className="button button--small" onClick={() => void addFolder()}>
            <FolderIcon />
            {t('exclude.addFolder')}
          </button>
        </span>
      </LinesField>
      <LinesField label={t('exclude.globs')} values={rules.globs} onCommit={(globs) => change({ globs })} placeholder={"node_modules\n*.iso"} hint={t('exclude.globsHint')} testId={`exclude-globs-${scope}`} />
      <LinesField
        label={t('exclude.extensions')}
        values={rules.extensions}
        onCommit={(extensions) => change({ extensions })}
        placeholder="vmdk"
        hint={t('exclude.extensionsHint')}
        problem={(values) => (values.some((value) => !/^\.?[^./\\\s][^/\\\s]*$/.test(value)) ? t('exclude.extensionInvalid') : null)}
        testId={`exclude-extensions-${scope}`}
      />
    </div>
  );
}

export function ExclusionSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  return (
    <section className="card" aria-labelledby="exclude-title" data-testid="exclusion-settings">
      <h2 id="exclude-title">{t('exclude.title')}</h2>
      <p className="muted">{t('exclude.hint')}</p>
      <ExclusionFields rules={settings.exclusions} scope="global" onCommit={(exclusions) => void updateSettings({ exclusions })} />
      <NumberField
        label={t('exclude.maxSize')}
        value={settings.maxAutoScanSize}
        scale={MB}
        unit="MB"
        max={MAX_ASYNC_FILE_SIZE}
        onCommit={(maxAutoScanSize) => void updateSettings({ maxAutoScanSize })}
        testId="max-auto-size"
      />
      <p className="muted small">{t('exclude.maxSizeHint')}</p>
    </section>
  );
}

export function PrivacySettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const origin = remoteOrigin(settings);
  const hosts = settings.remoteUploadConsentHosts;
  return (
    <section className="card" aria-labelledby="privacy-title" data-testid="privacy-settings" data-focus-scope>
      <h2 id="privacy-title">{t('privacy.title')}</h2>
      <p className="callout callout--neutral privacy__now">{origin ? t('privacy.remoteNow', { host: consentHostLabel(origin) }) : t('privacy.local')}</p>
      <h3 className="privacy__subtitle">{t('privacy.sentTitle')}</h3>
      <ul className="privacy__list" data-testid="privacy-sent">
        <li>{t('privacy.sentFile')}</li>
        <li>{t('privacy.sentName')}</li>
        <li>{t('privacy.sentReference')}</li>
        <li>{t('privacy.sentRequest')}</li>
      </ul>
      <h3 className="privacy__subtitle">{t('privacy.notSentTitle')}</h3>
      <ul className="privacy__list" data-testid="privacy-not-sent">
        <li>{t('privacy.notSentPath')}</li>
        <li>{t('privacy.notSentOthers')}</li>
      </ul>
      <p className="muted small">{t('privacy.watchedNote')}</p>
      <fieldset className="choices">
        <legend className="field__label">{t('privacy.askTitle')}</legend>
        <label className="choice">
          <input type="checkbox" checked={settings.confirmRemoteUploads} onChange={(event) => void updateSettings({ confirmRemoteUploads: event.target.checked })} />
          {t('privacy.ask')}
        </label>
      </fieldset>
      {hosts.length > 0 ? (
        <>
          <p className="field__label privacy__hosts-title">{t('privacy.hosts')}</p>
          <ul className="hosts" data-testid="consent-hosts">
            {hosts.map((host) => (
              <li key={host} className="hosts__item">
                <span className="mono">{consentHostLabel(host)}</span>
                <button
                  type="button"
                  className="button button--small button--quiet"
                  onClick={() => void updateSettings({ remoteUploadConsentHosts: hosts.filter((other) => other !== host) })}
                  aria-label={t('privacy.hostRemoveLabel', { host: consentHostLabel(host) })}
                >
                  {t('privacy.hostRemove')}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export function HistorySettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const retention = settings.historyRetention;
  const set = (patch: Partial<typeof retention>): void => {
    const next = { ...retention, ...patch };
    // "No limit" is an absent field.
    for (const key of ['keepDays', 'keepScans'] as const) if (next[key] === null || next[key] === undefined) delete next[key];
    void updateSettings({ historyRetention: next });
  };
  const clear = async (): Promise<void> => {
    if (!(await confirmAction({ title: 'history.clearTitle', body: 'history.clearBody', confirm: 'history.clearConfirm', danger: true }))) return;
    const result = await call(api.history.clear());
    if (result) verdictStore.getState().notify('info', 'history.cleared', { count: result.removed });
  };
  return (
    <section className="card" aria-labelledby="history-title" data-testid="history-settings">
      <h2 id="history-title">{t('history.title')}</h2>
      <div className="field-row field-row--fields">
        <NumberField label={t('history.keepDays')} value={retention.keepDays} max={36_500} onCommit={(keepDays) => set({ keepDays: keepDays ?? undefined })} testId="keep-days" />
        <NumberField label={t('history.keepScans')} value={retention.keepScans} max={10_000_000} onCommit={(keepScans) => set({ keepScans: keepScans ?? undefined })} testId="keep-scans" />
      </div>
      <p className="muted small">{t('history.hint')}</p>
      <div className="field-row">
        <button type="button" className="button button--danger" onClick={() => void clear()}>
          {t('history.clear')}
        </button>
      </div>
    </section>
  );
}

export function AllowedFiles(): ReactElement {
  const { t, locale } = useTranslator();
  const recordsVersion = useVerdict((state) => state.recordsVersion);
  const [allowed, setAllowed] = useState<AllowedContent[] | null>(null);
  const [refresh, setRefresh] = useState(0);
  // Allowing happens elsewhere (the detail panel); a record change may mean the list changed.
  useEffect(() => {
    let stale = false;
    void api.quarantine.allowed().then((result) => {
      if (!stale && result.ok) setAllowed(result.value);
    });
    return () => {
      stale = true;
    };
  }, [refresh, recordsVersion]);
  return (
    <section className="card" aria-labelledby="allowed-title" data-testid="allowed-files" data-focus-scope>
      <h2 id="allowed-title">{t('allowed.title')}</h2>
      <p className="muted">{t('allowed.hint')}</p>
      {allowed === null ? null : allowed.length === 0 ? (
        <p className="empty">{t('allowed.empty')}</p>
      ) : (
        <ul className="allowed">
          {allowed.map((item) => (
            <li key={item.sha256} className="allowed__item">
              <div className="allowed__text">
                {/* Shown through displayName() inside <bdi> like every name; the list is keyed and revoked by the content's SHA-256. */}
                <strong className="break">
                  <bdi>{displayName(item.fileName)}</bdi>
                </strong>
                <span className="muted small">{t('allowed.since', { date: formatDateTime(locale, item.allowedAt) })}</span>
                <span className="mono small break">{item.sha256}</span>
              </div>
              <button
                type="button"
                className="button button--small"
                onClick={() => void stopAllowing(item.sha256).then((done) => done && setRefresh((n) => n + 1))}
                aria-label={t('allowed.removeLabel', { name: displayName(item.fileName) })}
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
