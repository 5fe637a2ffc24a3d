// Upload consent: a manual scan for a remote service the user has not agreed to
// send files to waits (`awaiting_upload_consent`) until they agree, or the
// settings or backend change and it is checked again.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { save, type Pipeline } from './context.ts';
import { enqueue, ownerOf, placedRecords, setOwner } from './memory.ts';
import { PENDING_REASONS } from './options.ts';

/** A record never sent to this service, without consent to send it there, waits: true. */
export function holdForConsent(p: Pipeline, record: ScanRecord, serviceLabel: string): boolean {
  const { mayUpload } = p.options;
  // Sent to this service before (with consent at the time): following or looking it up sends nothing new.
  const sentHere = record.submittedAt !== null && record.backend === serviceLabel;
  if (sentHere || !mayUpload) return false;
  if (p.memory.records.get(record.id)?.consentedTo === serviceLabel || mayUpload(record, serviceLabel)) return false;
  setOwner(p.memory, record.id, 'held');
  save(p, record.id, { status: 'queued', pendingReason: PENDING_REASONS.awaitingUploadConsent });
  return true;
}

/** A record waiting for consent goes back in line (the upload step decides again). */
export function release(p: Pipeline, id: string): void {
  if (ownerOf(p.memory, id) !== 'held') return;
  setOwner(p.memory, id, null);
  save(p, id, { pendingReason: null });
  enqueue(p.memory, id);
}

export function allowUpload(p: Pipeline, ids: readonly string[], origin: string): number {
  if (p.memory.closed) return 0;
  let released = 0;
  p.history.transaction(() => {
    for (const id of ids) {
      const tracked = p.memory.records.get(id);
      if (!tracked || tracked.where === null) continue;
      tracked.consentedTo = origin;
      if (tracked.where === 'held') {
        release(p, id);
        released++;
      }
    }
  });
  p.pump();
  return released;
}

export function recheckHeld(p: Pipeline): void {
  if (p.memory.closed) return;
  p.history.transaction(() => {
    for (const [id, where] of placedRecords(p.memory)) if (where === 'held') release(p, id);
  });
  p.pump();
}
