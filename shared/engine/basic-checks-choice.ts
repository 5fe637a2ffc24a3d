// Which scans the user may send to the built-in engine ("Scan with basic checks only",
// issue 14): those waiting for ClamAV, known here and gone, and those that failed
// waiting for it. Shared by the core's action and the detail panel's button.
import type { ScanRecord } from '../scans/record.ts';

/** The pending reason of a file held at the service for ClamAV (electron/scans/pipeline/options.ts). */
export const ENGINE_WAITING = 'engine_waiting';
/** The engine's error for a file that waited for ClamAV past the limit (engines/live/live-engine.ts). */
export const CLAMAV_UNAVAILABLE = 'clamav_unavailable';

/** `switch`: it waits now and goes on where it waits; `resubmit`: it failed waiting and is sent again; null: not offered. */
export function basicChecksChoiceFor(record: Pick<ScanRecord, 'status' | 'pendingReason' | 'error'>): 'switch' | 'resubmit' | null {
  if ((record.status === 'processing' || record.status === 'uploading') && record.pendingReason === ENGINE_WAITING) return 'switch';
  if (record.status === 'failed' && record.error?.code === CLAMAV_UNAVAILABLE) return 'resubmit';
  return null;
}
