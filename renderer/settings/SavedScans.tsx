// Settings › Saved scans (issue 29 §3): custom scans kept under a name, with their folders,
// the folders they leave out and their options; each runs as a custom job (its row shows on
// the Scans page), is removed here, and the lot is exported to or imported from a JSON file
// through the main process's dialogs. The CLI runs them too: `verdict scan --saved NAME`.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import type { Result } from '../../shared/result.ts';
import type { SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import type { ModeChoice } from '../../shared/scans/record.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import type { Schedule } from '../../shared/settings/schedules.ts';
import { SavedScanSchedule, scheduleText } from './SavedScanSchedule.tsx';

const MODES: readonly ModeChoice[] = ['auto', 'sync', 'async'];
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** `scans`: the list Settings holds (use-saved-scans.ts), which every change here replaces. */
export function SavedScans({ scans, onScans: setScans }: { scans: SavedScan[]; onScans(scans: SavedScan[]): void }): ReactElement {
  const { t, locale } = useTranslator();
  const change = async (pending: Promise<Result<SavedScan[]>>): Promise<boolean> => {
    const next = await call(pending);
    if (next) setScans(next);
    return next !== undefined;
  };
  const run = async (name: string): Promise<void> => {
    if (await call(api.savedScans.run(name))) verdictStore.getState().notify('info', 'savedScans.started', { name: displayName(name) });
  };
  const exportAll = async (): Promise<void> => {
    const done = await call(api.savedScans.export());
    if (done) verdictStore.getState().notify('info', 'savedScans.exported', { count: done.count });
  };
  const importFile = async (): Promise<void> => {
    const done = await call(api.savedScans.import());
    if (!done) return;
    verdictStore.getState().notify('info', 'savedScans.imported', { added: done.added, replaced: done.replaced });
    await change(api.savedScans.list());
  };

  return (
    <section className="card" aria-labelledby="saved-scans-title" data-testid="saved-scans">
      <div className="card__head">
        <h2 id="saved-scans-title">{t('savedScans.title')}</h2>
        <div className="field-row">
          <button type="button" className="button" onClick={() => void exportAll()} disabled={scans.length === 0}>
            {t('savedScans.export')}
          </button>
          <button type="button" className="button" onClick={() => void importFile()}>
            {t('savedScans.import')}
          </button>
        </div>
      </div>
      <p className="muted">{t('savedScans.hint')}</p>
      {scans.length === 0 ? (
        <p className="empty">{t('savedScans.none')}</p>
      ) : (
        <ul className="privacy__list" data-testid="saved-scans-list">
          {scans.map((scan) => (
            <li key={scan.name} data-testid="saved-scan">
              <strong>
                <bdi>{displayName(scan.name)}</bdi>
              </strong>{' '}
              <span className="muted small">
                {[scan.folders.map(displayName).join(', '), scheduleText(t, locale, scan.schedule)].filter(Boolean).join(' · ')}
              </span>{' '}
              <button type="button" className="button button--small button--primary" onClick={() => void run(scan.name)} aria-label={t('savedScans.runLabel', { name: displayName(scan.name) })}>
                {t('savedScans.run')}
              </button>{' '}
              <button type="button" className="button button--small button--quiet" onClick={() => void change(api.savedScans.remove(scan.name))} aria-label={t('savedScans.removeLabel', { name: displayName(scan.name) })}>
                {t('savedScans.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <SaveForm onSave={(scan) => change(api.savedScans.save(scan))} />
    </section>
  );
}

function SaveForm({ onSave }: { onSave(scan: Parameters<typeof api.savedScans.save>[0]): Promise<boolean> }): ReactElement {
  const { t } = useTranslator();
  const [name, setName] = useState('');
  const [folders, setFolders] = useState('');
  const [excluded, setExcluded] = useState('');
  const [basicOnly, setBasicOnly] = useState(false);
  const [force, setForce] = useState(false);
  const [mode, setMode] = useState<ModeChoice>('auto');
  const [schedule, setSchedule] = useState<Schedule>({ repeat: 'off' });
  const ids = { name: useId(), folders: useId(), excluded: useId(), mode: useId() };
  const addFolder = async (): Promise<void> => {
    const picked = await call(api.files.pick('folder'));
    if (picked && picked.length > 0) setFolders((text) => [...lines(text), ...picked].join('\n'));
  };
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (await onSave({ name, folders: lines(folders), excluded: lines(excluded), basicOnly, force, mode, schedule })) {
      verdictStore.getState().notify('info', 'savedScans.saved', { name: displayName(name.trim()) });
      setName('');
      setFolders('');
      setExcluded('');
      setBasicOnly(false);
      setForce(false);
      setMode('auto');
      setSchedule({ repeat: 'off' });
    }
  };
  return (
    <form className="saved-scan-form" onSubmit={(event) => void submit(event)}>
      <h3 className="privacy__subtitle">{t('savedScans.new')}</h3>
      <label className="field" htmlFor={ids.name}>
        <span className="field__label">{t('savedScans.name')}</span>
        <input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} maxLength={80} />
      </label>
      <label className="field" htmlFor={ids.folders}>
        <span className="field__label">{t('savedScans.folders')}</span>
        <textarea id={ids.folders} rows={3} value={folders} onChange={(event) => setFolders(event.target.value)} spellCheck={false} />
      </label>
      <button type="button" className="button button--small" onClick={() => void addFolder()}>
        {t('savedScans.addFolder')}
      </button>
      <label className="field" htmlFor={ids.excluded}>
        <span className="field__label">{t('savedScans.excluded')}</span>
        <textarea id={ids.excluded} rows={2} value={excluded} onChange={(event) => setExcluded(event.target.value)} spellCheck={false} />
      </label>
      <fieldset className="choices">
        <legend className="field__label">{t('savedScans.options')}</legend>
        <label className="choice">
          <input type="checkbox" checked={basicOnly} onChange={(event) => setBasicOnly(event.target.checked)} />
          {t('savedScans.basicOnly')}
        </label>
        <label className="choice">
          <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
          {t('savedScans.force')}
        </label>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={ids.mode}>
          {t('settings.mode')}
        </label>
        <select id={ids.mode} value={mode} onChange={(event) => setMode(event.target.value as ModeChoice)}>
          {MODES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`settings.mode.${choice}`)}
            </option>
          ))}
        </select>
      </div>
      <SavedScanSchedule schedule={schedule} onChange={setSchedule} />
      <button type="submit" className="button button--primary" disabled={!name.trim() || lines(folders).length === 0}>
        {t('savedScans.save')}
      </button>
    </form>
  );
}
