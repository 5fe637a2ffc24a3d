// Starts the renderer: loads settings, language and watched folders, subscribes
// to the preload's events and starts the scan feed.
import { api, call } from '../bridge/api.ts';
import { showScan } from '../detail/show-scan.ts';
import { localeFromTag } from '../i18n/messages.ts';
import { startJobFeed } from '../jobs/job-feed.ts';
import { followProtection } from '../protection/protection-actions.ts';
import { startScanFeed, type ScanFeed } from '../scans/scan-feed.ts';
import { refreshKeyStatus, refreshSettings } from '../settings/settings-actions.ts';
import { verdictStore } from '../store/store.ts';

export function boot(): ScanFeed {
  const store = verdictStore.getState();
  // Until the core answers, guess from the browser's own language.
  store.setSystemLanguage(localeFromTag(navigator.language));
  void call(api.settings.systemLanguage()).then((language) => language && verdictStore.getState().setSystemLanguage(language));
  void refreshSettings();
  void refreshKeyStatus();
  const revision = store.watchedRevision;
  void call(api.watch.list()).then((folders) => {
    if (folders && verdictStore.getState().watchedRevision === revision) verdictStore.getState().setWatched(folders);
  });
  api.watch.onChange((folders) => verdictStore.getState().receiveWatchChange(folders));
  api.app.onShowScan((id) => void showScan(id));
  followProtection();
  startJobFeed(api.scanJobs, verdictStore);

  // A file dropped outside the drop zone must not make the window navigate to it.
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());

  return startScanFeed(api.scans, verdictStore);
}
