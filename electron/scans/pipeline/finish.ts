// Finish: a record reaches its terminal state (the service's verdict or error, or
// a failure of ours), the pipeline forgets it, and files waiting for the same
// content are released.
import type { RecordError, ScanRecord } from '../../../shared/scans/record.ts';
import type { Scan } from '../../../shared/service-contract/scan.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import type { ServicePort } from '../ports.ts';
import { scanFailure } from '../failure-text.ts';
import { changedDuringUploadFailure } from '../failures.ts';
import { isoNow, save, saveHeld, type Pipeline } from './context.ts';
import { tellJudged, unchangedUntilVerdict } from './judged.ts';
import { forget } from './memory.ts';
import { releaseLeader } from './reuse.ts';
import { rememberUnchanged } from './unchanged.ts';
import { saveVerdict } from './verdict.ts';

/**
 * `held`: the record as the pipeline last wrote it (see adopt): written without a read, in a grouped commit;
 * `carried`: what the upload did not write (the local engine path: its digests), written with the verdict.
 */
export function finishWithScan(p: Pipeline, id: string, scan: Scan, service: ServicePort, held?: ScanRecord, carried?: ScanRecordPatch): void {
  const backendLabel = service.label;
  const current = held && carried ? ({ ...held, ...carried } as ScanRecord) : held;
  const record = current ?? p.history.get(id);
  if (!record) return;
  const write = (patch: ScanRecordPatch) => (current ? saveHeld(p, current, patch, 'soon') : save(p, id, patch));
  const common: ScanRecordPatch = {
    ...carried,
    serviceScanId: scan.id,
    mode: scan.execution_mode,
    backend: backendLabel,
    submittedAt: scan.submitted_at,
    completedAt: scan.completed_at ?? isoNow(p),
    durationMs: scan.scan_duration_ms ?? null,
    fileType: scan.file_type ?? null,
    pendingReason: null,
  };
  let final: ScanRecord | null;
  // The service's digest of what it received must be the content we fingerprinted (file_size's
  // unit is not specified, so only the hash is compared).
  const changed = scan.file_hash !== undefined && record.sha256 !== null && scan.file_hash.sha256 !== record.sha256;
  // The fingerprint computes sha256 alone (each byte hashed once on this side): md5 and sha1 come from the service.
  if (scan.file_hash && !changed) {
    if (record.md5 === null) common.md5 = scan.file_hash.md5;
    if (record.sha1 === null) common.sha1 = scan.file_hash.sha1;
  }
  if (scan.status === 'completed' && changed) {
    final = write({ ...common, status: 'failed', safe: null, error: changedDuringUploadFailure().recordError });
  } else if (scan.status === 'completed' && scan.result) {
    const { safe, detailed, findings } = scan.result;
    // engine: who made the verdict; null when the service does not say (any but Verdict's own).
    final = saveVerdict(p, id, { ...common, status: 'completed', safe, detailed, findings, engine: scan.engine ?? null, error: null }, record, current !== undefined);
  } else {
    // The service's own error is kept as it worded it (in the language Verdict asked for): no parameters.
    const error = scan.error ? { code: scan.error.code, message: scan.error.message } : scanFailure({ cause: 'scan_failed' });
    final = write({ ...common, status: 'failed', safe: null, error });
  }
  const tracked = p.memory.records.get(id);
  tellJudged(final, tracked?.judged);
  rememberUnchanged(p, tracked?.unchangedBefore, final, unchangedUntilVerdict(tracked));
  forget(p.memory, id);
  releaseLeader(p, record.sha256, id, final);
  if (final && final.status !== 'processing') acknowledgeWhenCommitted(p, service, scan.id);
}

/**
 * Once the terminal record is committed, the service may forget the scan: recovery after a crash
 * looks up only records that are not terminal. A failed commit acknowledges nothing (recovery redoes it).
 */
function acknowledgeWhenCommitted(p: Pipeline, service: ServicePort, scanId: string): void {
  if (!service.recorded || scanId === '') return;
  p.history.committed().then(
    () => service.recorded?.([scanId]),
    () => {},
  );
}

export function failRecord(p: Pipeline, id: string, error: RecordError): void {
  const record = save(p, id, { status: 'failed', pendingReason: null, safe: null, error, completedAt: isoNow(p) });
  forget(p.memory, id);
  releaseLeader(p, record?.sha256 ?? null, id, record);
}
