// What a settings change sets in motion in the running core: routing, the
// queue, exclusion rules, held uploads, retention and the watched folders.
import type { Settings } from '../../shared/settings/settings.ts';
import type { BackendManager } from '../backend/backend.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import { routingOf } from './routing.ts';
import type { Scanning } from './setup-scanning.ts';
import type { HistoryRetention } from './setup-history.ts';
import type { Watching } from './setup-watching.ts';

export function reactToSettings(input: {
  backend: BackendManager;
  scans: ScanPipeline;
  scanning: Pick<Scanning, 'exclusionsChanged'>;
  retention: HistoryRetention;
  watch: Watching;
}): (next: Settings, previous: Settings) => void {
  const { backend, scans, scanning, retention, watch } = input;
  return (next, previous) => {
    if (routingOf(next) !== routingOf(previous)) {
      // Files waiting or in flight for a service that is no longer theirs move to the right one.
      void backend.refresh().then(() => scans.backendChanged());
    }
    if (next.mode !== previous.mode || next.reuseVerdictDays !== previous.reuseVerdictDays) scans.resume();
    const changed = (key: keyof Settings) => JSON.stringify(next[key]) !== JSON.stringify(previous[key]);
    if (changed('exclusions') || changed('maxAutoScanSize') || changed('watchedFolders')) scanning.exclusionsChanged();
    if (changed('confirmRemoteUploads') || changed('remoteUploadConsentHosts')) scans.recheckHeld();
    if (changed('historyRetention')) retention.apply();
    watch.apply(next, previous);
  };
}
