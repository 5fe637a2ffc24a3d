// What follows a failed upload or follow-up, as classifyError sorts it: pause the
// lane for a key, back off and retry, adopt or look up the scan the service has,
// check the file again, or fail the record. An abort of ours says why it came.
import { TERMINAL_STATUSES, type RecordError, type ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanFailureParams } from '../../../shared/scans/failure.ts';
import { gaveUp, scanFailure } from '../failure-text.ts';
import { classifyError, fileChangedFailure, recordErrorOf, type ErrorAction } from '../failures.ts';
import { notifyIdle, save, type Pipeline } from './context.ts';
import { failRecord } from './finish.ts';
import { startFollowing } from './follow.ts';
import { holdInLane, retryLater, workingLane } from './lanes.ts';
import { enqueue, forget, ownerOf, setOwner, type AbortReason, type Phase } from './memory.ts';
import { PENDING_REASONS } from './options.ts';
import { park, pauseLane } from './pause.ts';
import { SAME_CONTENT_RETRIES, statFile } from './prepare.ts';
import { releaseLeaderIfRequeued } from './reuse.ts';

export function handleError(p: Pipeline, id: string, error: unknown, signal: AbortSignal, phase: Phase): void {
  if (signal.aborted) {
    handleAbort(p, id, signal.reason as AbortReason, phase);
    return;
  }
  if (p.options.storageFailure?.is(error)) {
    // The history cannot be written (its disk is full), and what it reads back may be a write it could not commit:
    // nothing more is written for this file. Its row keeps its last committed state, so the next start, or the
    // same scan run again, takes it up (and the files that wait for its content with it).
    forget(p.memory, id);
    p.options.storageFailure.report(error);
    return;
  }
  const outcome: ErrorAction = classifyError(error);
  const record = p.history.get(id);
  if (!record || TERMINAL_STATUSES.includes(record.status)) return;
  releaseLeaderIfRequeued(p, record);
  const tracked = p.memory.records.get(id);
  switch (outcome.action) {
    case 'pause_for_key':
      pauseForKey(p, record, phase, outcome.message);
      return;
    case 'retry':
      retryLater(p, id, phase, outcome);
      return;
    case 'retry_unclear': {
      const attempts = tracked ? ++tracked.unclearAttempts : 1;
      if (attempts >= p.limits.maxUnclearAttempts) {
        failRecord(p, id, gaveUp(recordErrorOf(outcome), attempts));
        return;
      }
      retryLater(p, id, phase, { reason: PENDING_REASONS.retrying, code: outcome.code, message: outcome.message });
      return;
    }
    case 'adopt': {
      const availability = p.options.service({ path: record.path, origin: record.origin });
      if (availability.ok) {
        const adopted = save(p, id, { status: 'processing', serviceScanId: outcome.scanId, pendingReason: null });
        if (adopted) {
          setOwner(p.memory, id, null);
          startFollowing(p, adopted, availability.service);
          return;
        }
      }
      requeue(p, id, null, true);
      return;
    }
    case 'lookup':
      if (tracked) tracked.lookupFirst = true;
      requeue(p, id, null, true);
      return;
    case 'fail':
      if (phase === 'follow' && outcome.code === 'not_found') lostAtService(p, id);
      else failRecord(p, id, recordErrorOf(outcome));
      return;
    case 'file_problem':
      void recheckFile(p, id, record, recordErrorOf(outcome));
      return;
    case 'aborted':
      // Not our signal: the backend's client was closed under the request (the backend is being
      // switched). Back in line at once; the next attempt uses the new backend.
      if (phase === 'upload' && tracked) tracked.lookupFirst = true;
      requeue(p, id, null, true);
      p.pump();
      return;
  }
}

/** 401: the service's lane waits for a key; a followed scan is parked, anything else waits in the lane. */
function pauseForKey(p: Pipeline, record: ScanRecord, phase: Phase, message: string): void {
  const id = record.id;
  const lane = workingLane(p, id);
  if (lane) pauseLane(p, lane, PENDING_REASONS.awaitingApiKey, message);
  if (phase === 'follow') park(p, id);
  else if (lane) {
    save(p, id, { status: record.serviceScanId ? 'processing' : 'queued' });
    holdInLane(p, id, lane, PENDING_REASONS.awaitingApiKey, true);
  } else requeue(p, id, PENDING_REASONS.awaitingApiKey, true);
}

/**
 * The service no longer knows the scan id (its data was reset, or the key changed
 * integration): find it by reference or submit it again under the same reference.
 */
function lostAtService(p: Pipeline, id: string): void {
  const tracked = p.memory.records.get(id);
  const attempts = tracked ? ++tracked.unclearAttempts : 1;
  if (attempts >= p.limits.maxUnclearAttempts) {
    failRecord(p, id, scanFailure({ cause: 'scan_lost' }));
    return;
  }
  if (tracked) tracked.lookupFirst = true;
  save(p, id, { serviceScanId: null, status: 'queued', pendingReason: null });
  setOwner(p.memory, id, null);
  enqueue(p.memory, id, true);
  p.pump();
}

/** The file could not be read during the upload (`problem` says how): missing, changed, or unreadable? */
async function recheckFile(p: Pipeline, id: string, record: ScanRecord, problem: RecordError): Promise<void> {
  setOwner(p.memory, id, 'delayed');
  try {
    await statFile(record.path);
    const tracked = p.memory.records.get(id);
    const attempts = tracked ? ++tracked.changeAttempts : 1;
    if (attempts >= SAME_CONTENT_RETRIES) {
      failRecord(p, id, keptChanging(problem));
      return;
    }
    // Probably changed underneath the upload: fingerprint and send it again.
    setOwner(p.memory, id, null);
    requeue(p, id, null, true);
  } catch (error) {
    const action = classifyError(error);
    failRecord(p, id, action.action === 'fail' ? recordErrorOf(action) : { ...problem, code: 'file_unreadable' });
  } finally {
    // Neither failed nor back in line: nothing will pick it up again.
    if (ownerOf(p.memory, id) === 'delayed') forget(p.memory, id);
    p.pump();
    notifyIdle(p);
  }
}

function handleAbort(p: Pipeline, id: string, reason: AbortReason | undefined, phase: Phase): void {
  if (reason === 'closing' || reason === 'paused') return;
  if (reason === 'backend_changed') {
    const record = p.history.get(id);
    if (record) releaseLeaderIfRequeued(p, record);
    if (phase === 'upload' || ownerOf(p.memory, id) === 'following') {
      setOwner(p.memory, id, null);
      save(p, id, { status: record?.serviceScanId ? 'processing' : 'queued', pendingReason: null });
      enqueue(p.memory, id, true);
    }
  }
}

/** Back in line (at the front: it keeps its turn), waiting for the given reason. */
function requeue(p: Pipeline, id: string, reason: string | null, front: boolean): void {
  const record = p.history.get(id);
  const status = record?.serviceScanId ? 'processing' : 'queued';
  save(p, id, { status, pendingReason: reason });
  if (ownerOf(p.memory, id) !== 'ready') setOwner(p.memory, id, null);
  enqueue(p.memory, id, front);
}

/** The file kept changing: what was found the last time (while it was sent, or replaced) is named too. */
function keptChanging(problem: RecordError): RecordError {
  const last = problem.params as ScanFailureParams | undefined;
  if (last?.cause === 'upload_problem') return scanFailure({ ...last, cause: 'kept_changing_upload' });
  if (last?.cause === 'replaced') return scanFailure({ cause: 'kept_changing_replaced', path: last.path });
  const kept = fileChangedFailure();
  return { code: kept.code, message: `${kept.message} (${problem.message})` };
}
