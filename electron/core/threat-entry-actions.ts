// The user's actions on quarantine entries (restore, allow, delete; one or many),
// with each touched entry's record kept in step and each failure explained.
import path from 'node:path';
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { ok, type Result } from '../../shared/result.ts';
import { explainQuarantineError, type QuarantineOperation } from '../quarantine/error-params.ts';
import { restoreIntoFolder } from '../quarantine/restore-into-folder.ts';
import { recordOutcome, track, type ThreatState } from './threat-state.ts';

type EntryActions = Pick<CoreApi['quarantine'], 'restore' | 'allow' | 'restoreMany' | 'allowMany' | 'deleteMany'>;

export function entryActions(state: ThreatState): EntryActions {
  const { quarantine } = state;
  return {
    restore: (entryId, options) => single(state, entryId, quarantine.restore(entryId, options ?? {}), options?.to),
    allow: (entryId, options) => single(state, entryId, quarantine.allow(entryId, options ?? {}), options?.to),
    // Into a folder the user chose: a name taken there becomes "name (2).ext" (restoreIntoFolder), never a conflict.
    restoreMany: (entryIds, options) =>
      withRecords(state, options?.toFolder ? restoreIntoFolder(quarantine, entryIds, options.toFolder, 'restore') : quarantine.restoreMany(entryIds), 'restore'),
    allowMany: (entryIds, options) =>
      withRecords(state, options?.toFolder ? restoreIntoFolder(quarantine, entryIds, options.toFolder, 'allow') : quarantine.allowMany(entryIds), 'restore'),
    deleteMany: (entryIds) => withRecords(state, quarantine.deleteMany(entryIds), 'delete'),
  };
}

/** An action that failed because the file had vanished from quarantine found the entry lost: its record says so too. */
function afterFailure(state: ThreatState, entryId: string, code: string): void {
  const entry = code === 'file_lost' ? state.quarantine.get(entryId) : null;
  if (entry?.state === 'lost') recordOutcome(state, entry);
}

/** Where a restore of this entry was going: the place asked for, else where the file came from. */
function restoreTarget(state: ThreatState, entryId: string, to?: string): string | null {
  return to ? path.resolve(to) : (state.quarantine.get(entryId)?.originalPath ?? null);
}

/** Runs a quarantine action, marks each touched entry's record, and says what each failure is about. */
async function withRecords(state: ThreatState, outcomes: Promise<Array<BulkOutcome<QuarantineEntry>>>, operation: QuarantineOperation) {
  const done = await track(state, outcomes);
  return ok(
    done.map((outcome): BulkOutcome<QuarantineEntry> => {
      if (outcome.ok) {
        recordOutcome(state, outcome.value);
        return outcome;
      }
      afterFailure(state, outcome.id, outcome.error.code);
      const file = operation === 'restore' ? restoreTarget(state, outcome.id) : null;
      return { ...outcome, error: explainQuarantineError(outcome.error, operation, file) };
    }),
  );
}

async function single(state: ThreatState, entryId: string, pending: Promise<Result<QuarantineEntry>>, to?: string): Promise<Result<QuarantineEntry>> {
  const result = await track(state, pending);
  if (result.ok) {
    recordOutcome(state, result.value);
    return result;
  }
  afterFailure(state, entryId, result.error.code);
  return { ok: false, error: explainQuarantineError(result.error, 'restore', restoreTarget(state, entryId, to)) };
}
