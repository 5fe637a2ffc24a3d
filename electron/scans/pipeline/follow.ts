// Follow: a scan the service is still processing is polled (by the service port,
// under the global request budget) until it is terminal, then finished.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import type { Scan } from '../../../shared/service-contract/scan.ts';
import type { ServicePort } from '../ports.ts';
import { save, saveHeld, type Pipeline } from './context.ts';
import { engineWaitFor } from './engine-wait.ts';
import { finishWithScan } from './finish.ts';
import { succeeded } from './lanes.ts';
import { setOwner } from './memory.ts';
import { runCancellable } from './queue.ts';

/**
 * Takes over a scan the service has (answer to our POST, a 409, or found by reference). `held`: the
 * record as the pipeline last wrote it (the answer to its POST): its writes need no read, and wait
 * for a grouped commit (the reference finds the scan again after a crash). `carried`: what the
 * upload did not write (the local engine path), written with the answer.
 */
export function adopt(p: Pipeline, id: string, scan: Scan, service: ServicePort, held?: ScanRecord, carried?: ScanRecordPatch): void {
  if (scan.status === 'processing') {
    const patch: ScanRecordPatch = {
      ...carried,
      status: 'processing',
      pendingReason: engineWaitFor(p, service.label),
      serviceScanId: scan.id,
      mode: scan.execution_mode,
      submittedAt: scan.submitted_at,
      backend: service.label,
      error: null,
    };
    const record = held ? saveHeld(p, held, patch, 'soon') : save(p, id, patch);
    if (record) startFollowing(p, record, service);
    return;
  }
  finishWithScan(p, id, scan, service, held, carried);
}

export function startFollowing(p: Pipeline, record: ScanRecord, service: ServicePort): void {
  const id = record.id;
  if (!record.serviceScanId) return;
  setOwner(p.memory, id, 'following');
  const tracked = p.memory.records.get(id);
  if (tracked) tracked.workingAt = service.label;
  const scanId = record.serviceScanId;
  runCancellable(p, id, 'following', async (signal) => {
    const scan = await service.follow(scanId, signal);
    succeeded(p, service.label);
    finishWithScan(p, id, scan, service);
  });
}
