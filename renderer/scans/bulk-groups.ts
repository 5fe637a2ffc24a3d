// Which ticked scans each bulk action applies to (pure, for the bulk bar and its tests).
import { verdictOf, type ScanRecord } from '../../shared/scans/record.ts';

export interface BulkGroups {
  /** Threats whose file is where it was (notified, a failed move, or restored). */
  quarantinable: ScanRecord[];
  /** Files in quarantine, with their entry. */
  inQuarantine: Array<ScanRecord & { quarantineId: string }>;
  /** Waiting for the user's consent to be sent to the remote service. */
  waiting: ScanRecord[];
}

export function bulkGroups(records: readonly ScanRecord[]): BulkGroups {
  return {
    quarantinable: records.filter((record) => verdictOf(record) === 'unsafe' && record.sha256 !== null && [null, undefined, 'quarantine_failed', 'restored'].includes(record.disposition)),
    inQuarantine: records.filter((record): record is ScanRecord & { quarantineId: string } => record.disposition === 'quarantined' && typeof record.quarantineId === 'string'),
    waiting: records.filter((record) => record.status === 'queued' && record.pendingReason === 'awaiting_upload_consent'),
  };
}
