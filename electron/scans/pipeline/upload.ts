// Upload: one record from its turn until it is handed off. Its service may be
// paused (it waits in the lane), it may need consent, it may already be at the
// service (followed or found by reference), its content may have a verdict to
// reuse; otherwise it is fingerprinted and sent, and the answer is adopted.
import { TERMINAL_STATUSES, type ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import { decideMode, modeForUpload } from '../mode.ts';
import type { ServicePort } from '../ports.ts';
import { holdForConsent } from './consent.ts';
import { announce, isoNow, save, saveHeld, takeFresh, type Pipeline } from './context.ts';
import { engineWaitFor } from './engine-wait.ts';
import { adopt, startFollowing } from './follow.ts';
import { holdInLane, laneFor, succeeded } from './lanes.ts';
import type { TrackedRecord } from './memory.ts';
import { PENDING_REASONS } from './options.ts';
import { pauseLane } from './pause.ts';
import { noteOpened } from './judged.ts';
import { prepare, type Prepared } from './prepare.ts';
import { engineForReuse, leadContent, reuseOrWait } from './reuse.ts';
import { reuseUnchanged } from './unchanged.ts';

export async function processRecord(p: Pipeline, id: string, signal: AbortSignal): Promise<void> {
  let record = takeFresh(p, id) ?? p.history.get(id);
  if (!record || TERMINAL_STATUSES.includes(record.status)) return;
  const route = { path: record.path, origin: record.origin };
  const availability = p.options.service(route);
  if (!availability.ok) {
    const lane = laneFor(p, route);
    pauseLane(p, lane, availability.reason, availability.message);
    holdInLane(p, id, lane, availability.reason, true);
    return;
  }
  const service = availability.service;
  const tracked = p.memory.records.get(id);
  if (tracked) tracked.workingAt = service.label;
  if (holdForConsent(p, record, service.label)) return;

  if (record.serviceScanId) {
    if (record.backend === service.label) {
      startFollowing(p, save(p, id, { status: 'processing', pendingReason: engineWaitFor(p, service.label) }) ?? record, service);
      return;
    }
    // Followed at another backend (the settings changed meanwhile): submit here under the same reference.
    record = save(p, id, { serviceScanId: null, submittedAt: null, status: 'queued' }) ?? record;
  }

  if (tracked?.lookupFirst || (record.submittedAt !== null && record.serviceScanId === null)) {
    const found = await service.lookup(record.externalReferenceId, signal);
    if (tracked) tracked.lookupFirst = false;
    succeeded(p, service.label);
    if (found) {
      adopt(p, id, found, service);
      return;
    }
  }

  // Scan again (--force, "Scan again") reads every file and reuses nothing.
  const reuse = !tracked?.forced && record.origin !== 'rescan';
  const engineNow = reuse ? await engineForReuse(p, service.label) : null;
  // Stopped while the engine or the file was looked at: as when stopped while fingerprinting.
  signal.throwIfAborted();
  if (engineNow && (await reuseUnchanged(p, record, engineNow, service.label, signal))) return;
  signal.throwIfAborted();
  // Fingerprinting is shown live but not written: until the upload starts, a crash leaves a plain queued row.
  announce(p, record, { status: 'uploading', pendingReason: PENDING_REASONS.fingerprinting });
  const prepared = await prepare(p, record, signal);
  noteOpened(p, id, prepared.digests.opened);
  const { md5, sha1, sha256: sha } = prepared.digests;
  const digests: ScanRecordPatch = { size: prepared.size, sha256: sha, ...(md5 !== undefined ? { md5 } : {}), ...(sha1 !== undefined ? { sha1 } : {}) };
  const sha256 = prepared.digests.sha256;
  if (engineNow && reuseOrWait(p, record, sha256, service.label, digests, engineNow)) return;
  leadContent(p, sha256, id);
  await send(p, { record, tracked, prepared, digests, service, signal });
}

interface Sending {
  record: ScanRecord;
  tracked: TrackedRecord | undefined;
  prepared: Prepared;
  digests: ScanRecordPatch;
  service: ServicePort;
  signal: AbortSignal;
}

/** Sends the fingerprinted content under the record's reference and adopts the service's answer. */
async function send(p: Pipeline, { record, tracked, prepared, digests, service, signal }: Sending): Promise<void> {
  const id = record.id;
  const fallbackMode = decideMode({ origin: record.origin, size: prepared.size, choice: p.options.settings().mode });
  const mode = modeForUpload(record.mode, prepared.size, fallbackMode);
  const patch: ScanRecordPatch = { ...digests, status: 'uploading', pendingReason: engineWaitFor(p, service.label), error: null, backend: service.label, mode, submittedAt: isoNow(p) };
  // The engine on this machine: nothing is written before the file goes (a crash leaves it queued, to be
  // scanned again); the patch is written with its verdict, in one grouped write. Only a file that will wait
  // there (ClamAV loading or gone) has its reason written now, grouped, so the history says why it waits.
  const carried = service.rescanAfterCrash === true ? patch : undefined;
  let current = record;
  if (carried) {
    if (patch.pendingReason !== null) current = saveHeld(p, record, patch, 'soon') ?? record;
  } else {
    // Committed before the POST (one write with the digests; uploads starting in the same turn
    // share the commit): from here on a crash is recovered by looking the reference up.
    current = saveHeld(p, record, patch, 'soon') ?? record;
    await p.history.committed();
    if (tracked) tracked.lookupFirst = true;
  }
  let sentAll = false;
  const scan = await service.submit(
    { path: current.path, name: current.fileName, size: prepared.size, content: prepared.digests.content, hashed: prepared.digests.opened },
    {
      mode,
      externalReferenceId: current.externalReferenceId,
      ...(tracked?.basicOnly ? { basicChecksOnly: true } : {}),
      // Counts only for the file whose pre-read identity the fingerprint's fstat confirmed (judged.ts).
      onUnchangedSinceHashed: () => {
        if (tracked) tracked.judgedUntilVerdict = true;
      },
      signal,
      onProgress: (sent, total) => {
        if (signal.aborted) return;
        p.events.progress({ id, sent, total });
        // Every byte is out: the service is scanning now (a sync answer can take up to 90 s).
        if (!sentAll && total > 0 && sent >= total && mode === 'sync') {
          sentAll = true;
          announce(p, current, { status: 'processing' });
        }
      },
    },
  );
  if (tracked) tracked.lookupFirst = false;
  succeeded(p, service.label);
  adopt(p, id, scan, service, current, carried);
}
