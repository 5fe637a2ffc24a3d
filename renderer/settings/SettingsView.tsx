// The settings section: language, scanning service, submission, notifications,
// watched folders and scheduled scans. Choices apply at once; text fields apply on Enter or blur.
import { useId, useState, type ReactElement } from 'react';
import type { ModeChoice } from '../../shared/scans/record.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { EngineSettings } from './EngineSettings.tsx';
import { SignatureFeeds } from './SignatureFeeds.tsx';
import { FileManagerMenus } from './FileManagerMenus.tsx';
import { AllowedNames } from './AllowedNames.tsx';
import { AllowedFiles, ExclusionSettings, HistorySettings, PrivacySettings, ThreatSettings } from './ProtectionSettings.tsx';
import { ScheduleSettings } from './ScheduleSettings.tsx';
import { RecheckSettings } from './RecheckSettings.tsx';
import { ServiceSettings } from './ServiceSettings.tsx';
import { updateSettings } from './settings-actions.ts';
import { StartupSettings } from './StartupSettings.tsx';
import { DriveSettings } from './DriveSettings.tsx';
import { WatchedFolders } from './WatchedFolders.tsx';
import { VirusTotalKey } from './VirusTotalKey.tsx';
import { SavedScans } from './SavedScans.tsx';
import { useSavedScans } from './use-saved-scans.ts';

const MODES: readonly ModeChoice[] = ['auto', 'sync', 'async'];

export function SettingsView(): ReactElement {
  const { t } = useTranslator();
  const settings = useVerdict((state) => state.settings);
  const [savedScans, setSavedScans] = useSavedScans();
  if (!settings) return <p className="muted">{t('settings.loading')}</p>;
  return (
    <div className="settings" data-testid="settings-view">
      <h1 className="visually-hidden">{t('settings.title')}</h1>
      <GeneralSettings settings={settings} />
      {/* Not keyed on the backend: rebuilding the section after Apply would drop what is being typed (the API key). */}
      <ServiceSettings settings={settings} />
      <EngineSettings />
      <SignatureFeeds />
      <PrivacySettings settings={settings} />
      <ThreatSettings settings={settings} />
      <WatchedFolders />
      <StartupSettings settings={settings} />
      <DriveSettings settings={settings} />
      <FileManagerMenus />
      <VirusTotalKey />
      <ScheduleSettings settings={settings} savedScans={savedScans} />
      <SavedScans scans={savedScans} onScans={setSavedScans} />
      <RecheckSettings settings={settings} />
      <ExclusionSettings settings={settings} />
      <HistorySettings settings={settings} />
      <AllowedFiles />
      <AllowedNames />
    </div>
  );
}

function GeneralSettings({ settings }: { settings: Settings }): ReactElement {
  const { t } = useTranslator();
  const systemLanguage = useVerdict((state) => state.systemLanguage);
  const languageId = useId();
  const modeId = useId();
  return (
    <section className="card" aria-labelledby="general-title">
      <h2 id="general-title">{t('settings.general')}</h2>
      <div className="field">
        <label className="field__label" htmlFor={languageId}>
          {t('settings.language')}
        </label>
        <select id={languageId} value={settings.language} onChange={(event) => void updateSettings({ language: event.target.value as Settings['language'] })} data-testid="language-select">
          <option value="system">{t('settings.language.system', { language: t(`settings.language.${systemLanguage}`) })}</option>
          <option value="en" lang="en">
            English
          </option>
          <option value="de" lang="de">
            Deutsch
          </option>
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={modeId}>
          {t('settings.mode')}
        </label>
        <select id={modeId} value={settings.mode} onChange={(event) => void updateSettings({ mode: event.target.value as ModeChoice })}>
          {MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`settings.mode.${mode}`)}
            </option>
          ))}
        </select>
      </div>
      <ReuseDays key={settings.reuseVerdictDays} days={settings.reuseVerdictDays} />
      <fieldset className="choices">
        <legend className="field__label">{t('settings.notifications')}</legend>
        <label className="choice">
          <input type="checkbox" checked={settings.notifyClean} onChange={(event) => void updateSettings({ notifyClean: event.target.checked })} />
          {t('settings.notifyClean')}
        </label>
      </fieldset>
    </section>
  );
}

function ReuseDays({ days }: { days: number }): ReactElement {
  const { t } = useTranslator();
  const [draft, setDraft] = useState(String(days));
  const id = useId();
  const commit = (): void => {
    const value = Number(draft);
    if (Number.isInteger(value) && value >= 0 && value <= 3650) {
      if (value !== days) void updateSettings({ reuseVerdictDays: value });
    } else setDraft(String(days));
  };
  return (
    <form
      className="field"
      onSubmit={(event) => {
        event.preventDefault();
        commit();
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('settings.reuseDays')}
      </label>
      <input id={id} className="input--narrow" type="number" min={0} max={3650} step={1} value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={commit} />
    </form>
  );
}
