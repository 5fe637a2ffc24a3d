// At start, after the quarantine's recover(): records follow their entries.
import { recordOutcome, type ThreatState } from './threat-state.ts';

/**
 * Brings each record that still says its file is in quarantine in line with its entry, which recovery
 * (or an action the crash cut short before its record was written) took to restored, allowed, deleted
 * or lost. Returns how many records changed.
 */
export function reconcileRecords(state: ThreatState): number {
  const { history, quarantine, log } = state;
  let changed = 0;
  history.transaction(() => {
    for (const entry of quarantine.list({ include: 'all' })) {
      if (entry.recordId === null || entry.state === 'quarantined') continue;
      // Only the record's own entry counts: an older entry of a file quarantined again says nothing about it now.
      const record = history.get(entry.recordId);
      if (record?.disposition !== 'quarantined' || record.quarantineId !== entry.id) continue;
      if (recordOutcome(state, entry)) changed++;
    }
  });
  if (changed > 0) log.info({ records: changed }, 'scan records brought in line with the quarantine');
  return changed;
}
