// What the core does about threats: the decision after each verdict (allowed
// content, notify, quarantine), moving a file to quarantine and recording it on
// its scan, finishing moves a crash interrupted, and the user's quarantine
// actions (restore, allow, delete, in bulk) with the scan records kept in step.
// The quarantine's journal is the truth about where a file is; a record only
// follows its entry (recordOutcome), also at start after a crash (reconcile).
import path from 'node:path';
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { BulkOutcome, QuarantineEntry, QuarantineState } from '../../shared/quarantine/entry.ts';
import { err, ok, type AppError, type Result } from '../../shared/result.ts';
import type { Disposition, ScanRecord } from '../../shared/scans/record.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { History, ScanRecordPatch } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { Quarantine, QuarantineRequest } from '../quarantine/quarantine.ts';
import { explainQuarantineError, quarantineRefusal, type QuarantineOperation } from '../quarantine/error-params.ts';
import { restoreIntoFolder } from '../quarantine/restore-into-folder.ts';
import { decideThreatResponse, type ThreatResponse } from '../quarantine/threat-response.ts';
import type { ScanEvents } from '../scans/events.ts';

export interface ThreatActions {
  /** The decision after a verdict (the pipeline writes it with the verdict). */
  respond(record: ScanRecord): ThreatResponse;
  /** Moves a threat's file to quarantine in the background (its record says `quarantine_pending`). */
  onThreat(record: ScanRecord, request: QuarantineRequest): void;
  /**
   * Brings each record that still says its file is in quarantine in line with its entry, which recovery
   * (or an action the crash cut short before its record was written) took to restored, allowed, deleted
   * or lost. Call at start, after the quarantine's recover(); returns how many records changed.
   */
  reconcile(): number;
  /** Finishes the quarantines a crash interrupted (records still `quarantine_pending`); call at start. */
  finishPending(): void;
  api: CoreApi['quarantine'];
  /** Resolves when no move or quarantine action is running. */
  idle(): Promise<void>;
  /** Refuses new moves and waits for those still running (before the quarantine is closed). */
  settle(): Promise<void>;
}

/** States of a record whose file is in quarantine, or on its way there. */
const IN_QUARANTINE: ReadonlySet<Disposition | null | undefined> = new Set(['quarantined', 'quarantine_pending']);

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

export function createThreatActions(input: {
  history: History;
  quarantine: Quarantine;
  settings: () => Settings;
  events: ScanEvents;
  log: Logger;
}): ThreatActions {
  const { history, quarantine, events, log } = input;
  const running = new Set<Promise<unknown>>();
  let closing = false;

  const update = (recordId: string | null, patch: ScanRecordPatch): ScanRecord | null => {
    if (recordId === null) return null;
    const saved = history.update(recordId, patch);
    if (saved) events.record(saved);
    return saved;
  };

  /** The one place a record learns where its file went: the entry's final state, written on the entry's record. */
  const recordOutcome = (entry: QuarantineEntry, recordId: string | null = entry.recordId): ScanRecord | null => {
    const disposition = DISPOSITION_OF[entry.state];
    if (disposition === null) return null;
    return update(recordId, { disposition, quarantineId: entry.id, error: entry.state === 'lost' ? { ...FILE_LOST } : null });
  };

  /** Moves one record's file and writes the outcome on the record (an entry, or why it failed). */
  async function moveRecord(record: ScanRecord, request: QuarantineRequest): Promise<Result<QuarantineEntry>> {
    const result = await quarantine.quarantine(request);
    if (result.ok) {
      recordOutcome(result.value, record.id);
      return result;
    }
    // The verdict stands (completed, unsafe); `error` says why the file could not be moved.
    const error = explainQuarantineError(result.error, 'move', request.path);
    update(record.id, { disposition: 'quarantine_failed', error });
    // The message names the path: the user's own window may show it, the log only gets the code.
    log.warn({ id: record.id, code: error.code }, 'could not move a threat to quarantine');
    return { ok: false, error };
  }

  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => {});
    return work;
  };

  function onThreat(record: ScanRecord, request: QuarantineRequest): void {
    if (closing) return;
    void track(
      moveRecord(record, request).catch((error: unknown) => {
        log.error({ err: error, id: record.id }, 'quarantine failed unexpectedly');
      }),
    );
  }

  function finishPending(): void {
    for (const record of history.withDisposition('quarantine_pending')) {
      if (record.sha256 === null) {
        update(record.id, { disposition: 'quarantine_failed', error: quarantineRefusal('hash_mismatch', 'The file was never fingerprinted; scan it again.', 'not_fingerprinted') });
        continue;
      }
      // quarantine() is idempotent per record: a move that finished before the crash is found, not repeated.
      onThreat(record, { path: record.path, sha256: record.sha256, recordId: record.id });
    }
  }

  function reconcile(): number {
    let changed = 0;
    history.transaction(() => {
      for (const entry of quarantine.list({ include: 'all' })) {
        if (entry.recordId === null || entry.state === 'quarantined') continue;
        // Only the record's own entry counts: an older entry of a file quarantined again says nothing about it now.
        const record = history.get(entry.recordId);
        if (record?.disposition !== 'quarantined' || record.quarantineId !== entry.id) continue;
        if (recordOutcome(entry)) changed++;
      }
    });
    if (changed > 0) log.info({ records: changed }, 'scan records brought in line with the quarantine');
    return changed;
  }

  /** An action that failed because the file had vanished from quarantine found the entry lost: its record says so too. */
  const afterFailure = (entryId: string, code: string) => {
    const entry = code === 'file_lost' ? quarantine.get(entryId) : null;
    if (entry?.state === 'lost') recordOutcome(entry);
  };

  /** Where a restore of this entry was going: the place asked for, else where the file came from. */
  const restoreTarget = (entryId: string, to?: string): string | null => (to ? path.resolve(to) : (quarantine.get(entryId)?.originalPath ?? null));

  /** Runs a quarantine action, marks each touched entry's record, and says what each failure is about. */
  const withRecords = async (outcomes: Promise<Array<BulkOutcome<QuarantineEntry>>>, operation: QuarantineOperation) => {
    const done = await track(outcomes);
    return ok(
      done.map((outcome): BulkOutcome<QuarantineEntry> => {
        if (outcome.ok) {
          recordOutcome(outcome.value);
          return outcome;
        }
        afterFailure(outcome.id, outcome.error.code);
        const file = operation === 'restore' ? restoreTarget(outcome.id) : null;
        return { ...outcome, error: explainQuarantineError(outcome.error, operation, file) };
      }),
    );
  };

  const single = async (entryId: string, pending: Promise<Result<QuarantineEntry>>, to?: string): Promise<Result<QuarantineEntry>> => {
    const result = await track(pending);
    if (result.ok) {
      recordOutcome(result.value);
      return result;
    }
    afterFailure(entryId, result.error.code);
    return { ok: false, error: explainQuarantineError(result.error, 'restore', restoreTarget(entryId, to)) };
  };

  const api: CoreApi['quarantine'] = {
    list: async (options) => ok(quarantine.list(options)),
    forRecord: async (recordId) => ok(quarantine.byRecord(recordId)),
    async add(recordIds) {
      const outcomes: Array<BulkOutcome<QuarantineEntry>> = [];
      for (const id of recordIds) {
        const record = history.get(id);
        const refusal = refuseQuarantine(record);
        if (refusal || !record) {
          outcomes.push({ id, ok: false, error: refusal ?? quarantineRefusal('not_found', 'There is no scan with this id.') });
          continue;
        }
        // Written first, like after a verdict: a crash during the move is finished at the next start.
        update(record.id, { disposition: 'quarantine_pending' });
        const result = await track(moveRecord(record, { path: record.path, sha256: record.sha256!, recordId: record.id }));
        outcomes.push(result.ok ? { id, ok: true, value: result.value } : { id, ok: false, error: result.error });
      }
      return ok(outcomes);
    },
    restore: (entryId, options) => single(entryId, quarantine.restore(entryId, options ?? {}), options?.to),
    allow: (entryId, options) => single(entryId, quarantine.allow(entryId, options ?? {}), options?.to),
    // Into a folder the user chose: a name taken there becomes "name (2).ext" (restoreIntoFolder), never a conflict.
    restoreMany: (entryIds, options) =>
      withRecords(options?.toFolder ? restoreIntoFolder(quarantine, entryIds, options.toFolder, 'restore') : quarantine.restoreMany(entryIds), 'restore'),
    allowMany: (entryIds, options) =>
      withRecords(options?.toFolder ? restoreIntoFolder(quarantine, entryIds, options.toFolder, 'allow') : quarantine.allowMany(entryIds), 'restore'),
    deleteMany: (entryIds) => withRecords(quarantine.deleteMany(entryIds), 'delete'),
    async allowRecord(recordId) {
      const record = history.get(recordId);
      if (!record) return err('not_found', 'There is no scan with this id.');
      if (record.status !== 'completed' || record.safe !== false || record.sha256 === null) {
        return err('invalid_state', 'Only a file judged unsafe can be allowed.', { cause: 'not_unsafe' });
      }
      if (IN_QUARANTINE.has(record.disposition)) {
        return err('invalid_state', 'This file is in quarantine: allow it from there (it is restored at the same time).', { cause: 'in_quarantine' });
      }
      const allowed = quarantine.allowContent({ sha256: record.sha256, fileName: record.fileName, recordId: record.id });
      if (allowed.ok) update(record.id, { disposition: 'allowed' });
      return allowed;
    },
    allowed: async () => ok(quarantine.allowedContent()),
    async revokeAllowed(sha256) {
      if (typeof sha256 !== 'string' || !quarantine.revokeAllowed(sha256)) return err('not_found', 'This content is not on the allowed list.', { cause: 'not_allowed' });
      // Those scans read as threats again; a file that came back from quarantine stays "restored".
      history.transaction(() => {
        for (const record of history.withDisposition('allowed', { sha256 })) {
          update(record.id, { disposition: record.quarantineId ? 'restored' : null });
        }
      });
      return ok(null);
    },
  };

  return {
    respond(record) {
      const settings = input.settings();
      return decideThreatResponse(record, {
        manualAction: settings.threatAction,
        folders: settings.watchedFolders,
        isAllowed: (sha256) => quarantine.isAllowed(sha256),
        wasRestoredTo: (sha256, path) => quarantine.wasRestoredTo(sha256, path),
      });
    },
    onThreat,
    reconcile,
    finishPending,
    api,
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async settle() {
      closing = true;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** Why an unsafe scan's file cannot be moved to quarantine now, or null. */
function refuseQuarantine(record: ScanRecord | null): AppError | null {
  if (!record) return quarantineRefusal('not_found', 'There is no scan with this id.');
  if (record.status !== 'completed' || record.safe !== false) return quarantineRefusal('invalid_state', 'Only a file judged unsafe is moved to quarantine.', 'not_unsafe');
  if (IN_QUARANTINE.has(record.disposition)) return quarantineRefusal('invalid_state', 'This file is in quarantine already.', 'in_quarantine');
  if (record.sha256 === null) return quarantineRefusal('hash_mismatch', 'This scan has no fingerprint; scan the file again.', 'not_fingerprinted');
  return null;
}
