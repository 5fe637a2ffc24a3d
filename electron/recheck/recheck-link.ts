// A recheck's changed verdict as it is shown (`recheck --json`, the detail panel): the record with the
// scan it replaces, which judged the file clean under older signatures (ScanRecord.recheckOf).
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { Recheck } from './recheck.ts';

export function withRecheckLink(record: ScanRecord, recheck: Pick<Recheck, 'linkFor'>, history: { get(id: string): ScanRecord | null }): ScanRecord {
  const link = recheck.linkFor(record);
  if (link === null) return record;
  const earlier = history.get(link.recheckedFromId);
  return { ...record, recheckOf: { id: link.recheckedFromId, externalReferenceId: earlier?.externalReferenceId ?? null, completedAt: earlier?.completedAt ?? null } };
}
