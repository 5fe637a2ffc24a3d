// Moving a threat's file to quarantine: after a verdict, at the user's request,
// and at start for the moves a crash interrupted. The record says where it went.
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { ok, type AppError, type Result } from '../../shared/result.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { explainQuarantineError, quarantineRefusal } from '../quarantine/error-params.ts';
import type { QuarantineRequest } from '../quarantine/quarantine.ts';
import { IN_QUARANTINE, recordOutcome, track, updateRecord, type ThreatState } from './threat-state.ts';

/** Moves one record's file and writes the outcome on the record (an entry, or why it failed). */
async function moveRecord(state: ThreatState, record: ScanRecord, request: QuarantineRequest): Promise<Result<QuarantineEntry>> {
  const result = await state.quarantine.quarantine(request);
  if (result.ok) {
    recordOutcome(state, result.value, record.id);
    return result;
  }
  // The verdict stands (completed, unsafe); `error` says why the file could not be moved.
  const error = explainQuarantineError(result.error, 'move', request.path);
  updateRecord(state, record.id, { disposition: 'quarantine_failed', error });
  // The message names the path: the user's own window may show it, the log only gets the code.
  state.log.warn({ id: record.id, code: error.code }, 'could not move a threat to quarantine');
  return { ok: false, error };
}

/** Moves a threat's file in the background (its record says `quarantine_pending`). */
export function onThreat(state: ThreatState, record: ScanRecord, request: QuarantineRequest): void {
  if (state.closing) return;
  void track(
    state,
    moveRecord(state, record, request).catch((error: unknown) => {
      state.log.error({ err: error, id: record.id }, 'quarantine failed unexpectedly');
    }),
  );
}

/** Finishes the quarantines a crash interrupted (records still `quarantine_pending`). */
export function finishPending(state: ThreatState): void {
  for (const record of state.history.withDisposition('quarantine_pending')) {
    if (record.sha256 === null) {
      updateRecord(state, record.id, { disposition: 'quarantine_failed', error: quarantineRefusal('hash_mismatch', 'The file was never fingerprinted; scan it again.', 'not_fingerprinted') });
      continue;
    }
    // quarantine() is idempotent per record: a move that finished before the crash is found, not repeated.
    onThreat(state, record, { path: record.path, sha256: record.sha256, recordId: record.id });
  }
}

/** The user's "move to quarantine" on scans judged unsafe, one outcome per id. */
export async function addToQuarantine(state: ThreatState, recordIds: string[]): Promise<Result<Array<BulkOutcome<QuarantineEntry>>>> {
  const outcomes: Array<BulkOutcome<QuarantineEntry>> = [];
  for (const id of recordIds) {
    const record = state.history.get(id);
    const refusal = refuseQuarantine(record);
    if (refusal || !record) {
      outcomes.push({ id, ok: false, error: refusal ?? quarantineRefusal('not_found', 'There is no scan with this id.') });
      continue;
    }
    // Written first, like after a verdict: a crash during the move is finished at the next start.
    updateRecord(state, record.id, { disposition: 'quarantine_pending' });
    const result = await track(state, moveRecord(state, record, { path: record.path, sha256: record.sha256!, recordId: record.id }));
    outcomes.push(result.ok ? { id, ok: true, value: result.value } : { id, ok: false, error: result.error });
  }
  return ok(outcomes);
}

/** Why an unsafe scan's file cannot be moved to quarantine now, or null. */
function refuseQuarantine(record: ScanRecord | null): AppError | null {
  if (!record) return quarantineRefusal('not_found', 'There is no scan with this id.');
  if (record.status !== 'completed' || record.safe !== false) return quarantineRefusal('invalid_state', 'Only a file judged unsafe is moved to quarantine.', 'not_unsafe');
  if (IN_QUARANTINE.has(record.disposition)) return quarantineRefusal('invalid_state', 'This file is in quarantine already.', 'in_quarantine');
  if (record.sha256 === null) return quarantineRefusal('hash_mismatch', 'This scan has no fingerprint; scan the file again.', 'not_fingerprinted');
  return null;
}
