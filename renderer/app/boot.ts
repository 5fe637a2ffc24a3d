// Starts the renderer: loads settings, language and watched folders, subscribes
// to the preload's events and starts the scan feed. In three tasks (see main.tsx):
// each request costs a little to send, and together they made one long task at
// start (benchmark case 12 while loading). The list's first page goes first.
import { api, call } from '../bridge/api.ts';
import { showScan } from '../detail/show-scan.ts';
import { localeFromTag } from '../i18n/messages.ts';
import { startJobFeed } from '../jobs/job-feed.ts';
import { followProtection } from '../protection/protection-actions.ts';
import { startScanFeed, type ScanFeed } from '../scans/scan-feed.ts';
import { refreshKeyStatus, refreshSettings } from '../settings/settings-actions.ts';
import { verdictStore } from '../store/store.ts';
import { nextTask } from './next-task.ts';

export async function boot(): Promise<ScanFeed> {
  const store = verdictStore.getState();
  // Until the core answers, guess from the browser's own language.
  store.setSystemLanguage(localeFromTag(navigator.language));
  // A file dropped outside the drop zone must not make the window navigate to it.
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());
  api.app.onShowScan((id) => void showScan(id));
  const feed = startScanFeed(api.scans, verdictStore);
  await nextTask();

  void call(api.settings.systemLanguage()).then((language) => language && verdictStore.getState().setSystemLanguage(language));
  void refreshSettings();
  void refreshKeyStatus();
  const revision = verdictStore.getState().watchedRevision;
  void call(api.watch.list()).then((folders) => {
    if (folders && verdictStore.getState().watchedRevision === revision) verdictStore.getState().setWatched(folders);
  });
  api.watch.onChange((folders) => verdictStore.getState().receiveWatchChange(folders));
  await nextTask();

  followProtection();
  startJobFeed(api.scanJobs, verdictStore);
  return feed;
}
