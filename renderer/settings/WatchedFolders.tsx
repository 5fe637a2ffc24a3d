// Watched folders: their state and errors, per-folder options, add, remove,
// and pause or resume all of them.
import { useId, useState, type ReactElement } from 'react';
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import { displayName } from '../../shared/display-name.ts';
import { MAX_ASYNC_FILE_SIZE, MB } from '../../shared/service-contract/limits.ts';
import { consentHostLabel, type FolderBackend, type ThreatAction } from '../../shared/settings/protection.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { useTranslator } from '../i18n/use-translator.ts';
import { FolderIcon, WarningIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { ExclusionFields } from './ProtectionSettings.tsx';
import { NumberField } from './rule-fields.tsx';
import { addWatchedFolder, removeWatchedFolder, setAllWatchingPaused, updateWatchedFolder } from './settings-actions.ts';

export function WatchedFolders(): ReactElement {
  const { t } = useTranslator();
  const watched = useVerdict((state) => state.watched);
  const allPaused = useVerdict((state) => state.settings?.watchingPaused ?? false);
  return (
    <section className="card" aria-labelledby="watch-title" data-testid="watched-folders" data-focus-scope>
      <div className="card__head">
        <h2 id="watch-title">{t('watch.title')}</h2>
        <div className="field-row">
          <button type="button" className="button button--primary" onClick={() => void addWatchedFolder()}>
            <FolderIcon />
            {t('watch.add')}
          </button>
          {watched.length > 0 ? (
            <button type="button" className="button" onClick={() => void setAllWatchingPaused(!allPaused)}>
              {allPaused ? t('watch.resumeAll') : t('watch.pauseAll')}
            </button>
          ) : null}
        </div>
      </div>
      <p className="muted">{t('watch.hint')}</p>
      {watched.length === 0 ? (
        <p className="empty">{t('watch.empty')}</p>
      ) : (
        <ul className="watched">
          {watched.map((status) => (
            <WatchedFolderItem key={status.folder.id} status={status} />
          ))}
        </ul>
      )}
    </section>
  );
}

function WatchedFolderItem({ status }: { status: WatchedFolderStatus }): ReactElement {
  const { t } = useTranslator();
  const { folder } = status;
  const patterns = folder.ignore.join('\n');
  const [ignore, setIgnore] = useState(patterns);
  const [seen, setSeen] = useState(patterns);
  if (patterns !== seen) {
    setSeen(patterns);
    setIgnore(patterns);
  }
  const commitIgnore = (): void => {
    const lines = ignore.split('\n').map((line) => line.trim()).filter(Boolean);
    if (lines.join('\n') !== patterns) void updateWatchedFolder(folder.id, { ignore: lines });
  };
  const ignoreId = `ignore-${folder.id}`;
  const actionId = useId();
  const backendId = useId();
  const backendHintId = useId();
  const settings = useVerdict((state) => state.settings);
  const remoteUrl = settings ? (settings.backend.kind === 'remote' ? settings.backend.baseUrl : settings.remoteBaseUrl) : null;
  const remoteHost = remoteUrl ? consentHostLabel(new URL(remoteUrl).origin) : null;
  const defaultService = settings?.backend.kind === 'remote' ? consentHostLabel(new URL(settings.backend.baseUrl).origin) : t('watch.backend.localShort');

  return (
    <li className="watched__item" data-watch-state={status.state}>
      <div className="watched__head">
        <FolderIcon />
        {/* Shown through displayName() inside <bdi> like every path; what is sent back to the core is the folder's id. */}
        <bdi className="mono break watched__path">
          {displayName(folder.path)}
        </bdi>
        <span className={`pill pill--${status.state}`}>{t(`watch.state.${status.state}`)}</span>
        <button type="button" className="button button--quiet button--small" onClick={() => void removeWatchedFolder(folder.id)} aria-label={t('watch.removeLabel', { path: displayName(folder.path) })}>
          {t('watch.remove')}
        </button>
      </div>
      {status.error ? (
        <p className="field-error" role="alert" data-testid="watch-problem">
          {/* What it means in the UI's language; the core's English sentence (it may quote the path) under it. */}
          <WarningIcon /> {t(status.state === 'missing' ? 'watch.problem.missing' : status.state === 'error' ? 'watch.problem.error' : 'watch.problem.warning')}{' '}
          <ToolWords said={{ tool: 'core', words: status.error }} />
        </p>
      ) : null}
      <div className="watched__options">
        <label className="choice">
          <input type="checkbox" checked={folder.recursive} onChange={(event) => void updateWatchedFolder(folder.id, { recursive: event.target.checked })} />
          {t('watch.recursive')}
        </label>
        <label className="choice">
          <input type="checkbox" checked={folder.paused} onChange={(event) => void updateWatchedFolder(folder.id, { paused: event.target.checked })} />
          {t('watch.paused')}
        </label>
        <label className="choice">
          <input type="checkbox" checked={folder.scanExisting} onChange={(event) => void updateWatchedFolder(folder.id, { scanExisting: event.target.checked })} />
          {t('watch.scanExisting')}
        </label>
      </div>
      <label className="field" htmlFor={ignoreId}>
        <span className="field__label">{t('watch.ignore')}</span>
        <textarea id={ignoreId} rows={2} value={ignore} onChange={(event) => setIgnore(event.target.value)} onBlur={commitIgnore} spellCheck={false} placeholder="*.tmp" />
        <span className="muted small">{t('watch.ignoreHint')}</span>
      </label>
      <div className="field">
        <label className="field__label" htmlFor={actionId}>
          {t('watch.threatAction')}
        </label>
        <select id={actionId} value={folder.threatAction} onChange={(event) => void updateWatchedFolder(folder.id, { threatAction: event.target.value as ThreatAction })}>
          <option value="notify">{t('protect.action.notify')}</option>
          <option value="quarantine">{t('protect.action.quarantine')}</option>
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={backendId}>
          {t('watch.backend')}
        </label>
        <select
          id={backendId}
          value={folder.backend}
          aria-describedby={backendHintId}
          onChange={(event) => void updateWatchedFolder(folder.id, { backend: event.target.value as FolderBackend })}
          data-testid="folder-backend"
        >
          <option value="default">{t('watch.backend.default', { service: defaultService })}</option>
          <option value="local">{t('watch.backend.local')}</option>
          <option value="remote" disabled={remoteHost === null && folder.backend !== 'remote'}>
            {remoteHost ? t('watch.backend.remote', { host: remoteHost }) : t('watch.backend.remoteMissing')}
          </option>
        </select>
        <span id={backendHintId} className="muted small">
          {t('watch.backend.hint')}
        </span>
      </div>
      <details className="watched__more">
        <summary>{t('watch.exclusions')}</summary>
        <ExclusionFields rules={folder.exclusions} scope="folder" onCommit={(exclusions) => void updateWatchedFolder(folder.id, { exclusions })} />
        <NumberField
          label={t('watch.maxSize')}
          value={folder.maxAutoScanSize}
          scale={MB}
          unit="MB"
          max={MAX_ASYNC_FILE_SIZE}
          onCommit={(maxAutoScanSize) => void updateWatchedFolder(folder.id, { maxAutoScanSize })}
        />
      </details>
    </li>
  );
}
