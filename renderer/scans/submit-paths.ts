// Queues paths with the core (after asking, for a remote service, whether they
// may be sent) and says how many files that was.
import type { ScanRecord } from '../../shared/scans/record.ts';
import { api, call } from '../bridge/api.ts';
import { uploadConsent } from '../privacy/upload-consent.ts';
import { verdictStore } from '../store/store.ts';
import { submitNotice } from './submit-notice.ts';

export async function submitPaths(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const { notify } = verdictStore.getState();
  const consent = await uploadConsent(paths);
  if (!consent.go) {
    notify('info', 'upload.cancelled');
    return;
  }
  const result = await call(api.scans.submit(paths, consent.consent ? { consent: consent.consent } : undefined));
  if (!result) return;
  const notice = submitNotice(result);
  notify(notice.kind, notice.key, notice.params);
}

export async function pickAndSubmit(kind: 'files' | 'folder'): Promise<void> {
  const paths = await call(api.files.pick(kind));
  if (paths) await submitPaths(paths);
}

/** "Scan again" (also "scan anyway" for a skipped file): for a remote service that asks first, after the user agreed. */
export async function rescan(record: Pick<ScanRecord, 'id' | 'path'>): Promise<void> {
  const consent = await uploadConsent([record.path]);
  if (!consent.go) {
    verdictStore.getState().notify('info', 'upload.cancelled');
    return;
  }
  const result = await call(api.scans.rescan(record.id, consent.consent ? { consent: consent.consent } : undefined));
  // Nothing queued: the new row was skipped (a link out of its folder, checked again) or refused at intake.
  if (result) verdictStore.getState().notify('info', result.queued > 0 ? 'detail.rescanned' : 'detail.rescanNotQueued');
}
