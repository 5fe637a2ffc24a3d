// The threat response: a verdict is written together with what is done about it
// (one write, so a crash never leaves a threat without its decision), then a
// quarantine starts outside the pipeline's slots.
import { isScannedInPart, type ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import type { ThreatResponse } from '../../quarantine/threat-response.ts';
import { save, saveHeld, type Pipeline } from './context.ts';

/**
 * `held`: `current` is the record as the pipeline last wrote it: written without a read, in a grouped
 * commit, except a quarantine's decision, committed before the quarantine starts.
 */
export function saveVerdict(p: Pipeline, id: string, patch: ScanRecordPatch, current?: ScanRecord, held = false): ScanRecord | null {
  let response: ThreatResponse = { kind: 'none' };
  // A file scanned in part (safe: false, but only limit or encryption heuristics) is not a threat: no response.
  if (patch.safe === false && patch.status === 'completed' && !isScannedInPart(patch) && p.options.threatResponse) {
    const record = current ?? p.history.get(id);
    if (record) response = p.options.threatResponse({ ...record, ...patch } as ScanRecord);
  }
  if (response.kind === 'allowed') patch = { ...patch, disposition: 'allowed', allowedBy: response.by };
  if (response.kind === 'quarantine') patch = { ...patch, disposition: 'quarantine_pending' };
  const saved = held && current ? saveHeld(p, current, patch, response.kind === 'quarantine' ? 'now' : 'soon') : save(p, id, patch);
  if (saved && response.kind === 'quarantine') p.options.onThreat?.(saved, response.request);
  return saved;
}
