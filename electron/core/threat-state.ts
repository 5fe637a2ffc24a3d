// What the threat actions share: the stores they act on, the moves and actions
// still running, and the one way a record learns where its file went.
import type { QuarantineEntry, QuarantineState } from '../../shared/quarantine/entry.ts';
import type { Disposition, ScanRecord } from '../../shared/scans/record.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { History, ScanRecordPatch } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { Quarantine } from '../quarantine/quarantine.ts';
import type { ScanEvents } from '../scans/events.ts';

export interface ThreatState {
  readonly history: History;
  readonly quarantine: Quarantine;
  readonly settings: () => Settings;
  readonly events: ScanEvents;
  readonly log: Logger;
  /** Moves and quarantine actions still running (idle() and settle() wait for them). */
  readonly running: Set<Promise<unknown>>;
  /** Set by settle(): no new move starts. */
  closing: boolean;
}

/** States of a record whose file is in quarantine, or on its way there. */
export const IN_QUARANTINE: ReadonlySet<Disposition | null | undefined> = new Set(['quarantined', 'quarantine_pending']);

/** Why a record whose quarantined file vanished reads `deleted`: the content is gone, and nothing can bring it back. */
const FILE_LOST = {
  code: 'file_lost',
  message: 'The file was removed from the quarantine folder outside Verdict; it can no longer be restored.',
} as const;

/**
 * The disposition a record gets once its entry reached a final state; null while an action is still
 * under way. A lost file reads `deleted` (with FILE_LOST): it is in neither place, so neither restore nor delete applies.
 */
const DISPOSITION_OF: Readonly<Record<QuarantineState, Disposition | null>> = {
  quarantining: null,
  restoring: null,
  deleting: null,
  quarantined: 'quarantined',
  restored: 'restored',
  allowed: 'allowed',
  deleted: 'deleted',
  lost: 'deleted',
};

/** Saves a patch on a record and tells the listeners; null when there is no such record. */
export function updateRecord(state: ThreatState, recordId: string | null, patch: ScanRecordPatch): ScanRecord | null {
  if (recordId === null) return null;
  const saved = state.history.update(recordId, patch);
  if (saved) state.events.record(saved);
  return saved;
}

/** The one place a record learns where its file went: the entry's final state, written on the entry's record. */
export function recordOutcome(state: ThreatState, entry: QuarantineEntry, recordId: string | null = entry.recordId): ScanRecord | null {
  const disposition = DISPOSITION_OF[entry.state];
  if (disposition === null) return null;
  return updateRecord(state, recordId, { disposition, quarantineId: entry.id, error: entry.state === 'lost' ? { ...FILE_LOST } : null });
}

/** Keeps a running move or action in view until it settles. */
export function track<T>(state: ThreatState, work: Promise<T>): Promise<T> {
  state.running.add(work);
  void work.finally(() => state.running.delete(work)).catch(() => {});
  return work;
}

/** Resolves once nothing tracked is running (work started meanwhile is waited for too). */
export async function whenSettled(state: ThreatState): Promise<void> {
  while (state.running.size > 0) await Promise.allSettled([...state.running]);
}
