// The one notice after a quarantine action on one or many files: how many were
// done, which came back under a new name (their own was taken in the folder the
// user chose), and why the others could not be. Pure, for the actions and tests.
// The parameters keep the real names; the notice line shows them through
// displayName() (i18n/shown-params.ts).
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { AppError } from '../../shared/result.ts';
import type { ToolSaid } from '../app/tool-said.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';

export type DoneKey = 'quarantine.moved' | 'quarantine.restored' | 'quarantine.allowed' | 'quarantine.deleted';

export interface OutcomeNotice {
  kind: 'info' | 'error';
  key: MessageKey;
  params: MessageParams;
  /** The core's English words for a failure the UI cannot word: shown under the sentence, marked English (ToolWords). */
  said?: ToolSaid;
}

/** A failure's reason as quarantineReasonShown() gives it: a sentence in the UI's language, or the core's English words. */
export type ShownReason = { text: string } | { said: ToolSaid };

/** At most this many new names are listed; the rest are counted. */
const NAMES_SHOWN = 3;

/** The last segment of a path, whichever separator the platform uses. */
const baseName = (target: string): string => target.slice(Math.max(target.lastIndexOf('/'), target.lastIndexOf('\\')) + 1);

/** Files restored under another name than their own ("setup (2).exe"). */
export function renamedFiles(outcomes: ReadonlyArray<BulkOutcome<QuarantineEntry>>): string[] {
  return outcomes.flatMap((outcome) => {
    if (!outcome.ok || outcome.value.restoredTo === null) return [];
    const name = baseName(outcome.value.restoredTo);
    return name === outcome.value.fileName ? [] : [name];
  });
}

/** "Restored to <path>" after one file came back (allowed, or only restored). */
export function restoredOneNotice(how: 'restore' | 'allow', restoredTo: string | null): OutcomeNotice {
  return { kind: 'info', key: how === 'allow' ? 'quarantine.allowedOne' : 'quarantine.restoredOne', params: { path: restoredTo ?? '' } };
}

/**
 * "3 restored", "Restored: 2. New names (the name was taken): setup (2).exe",
 * or "2 done; 1 could not be: <reason>" with the first failure's reason in words; a reason
 * only the core's English says is not put inside the sentence, but shown under it as the core's words.
 */
export function outcomeNotice(
  outcomes: ReadonlyArray<BulkOutcome<QuarantineEntry>>,
  done: DoneKey,
  reasonOf: (error: AppError) => ShownReason,
): OutcomeNotice {
  const failed = outcomes.filter((outcome): outcome is Extract<BulkOutcome<QuarantineEntry>, { ok: false }> => !outcome.ok);
  const succeeded = outcomes.length - failed.length;
  if (failed.length > 0) {
    const counts = { done: succeeded, failed: failed.length };
    const reason = reasonOf(failed[0]!.error);
    if ('said' in reason) return { kind: 'error', key: 'quarantine.partlyInCoreWords', params: counts, said: reason.said };
    return { kind: 'error', key: 'quarantine.partly', params: { ...counts, reason: reason.text } };
  }
  const renamed = renamedFiles(outcomes);
  if (renamed.length === 0 || (done !== 'quarantine.restored' && done !== 'quarantine.allowed')) return { kind: 'info', key: done, params: { count: succeeded } };
  const shown = renamed.slice(0, NAMES_SHOWN).join(', ');
  const names = renamed.length > NAMES_SHOWN ? `${shown}, … (${renamed.length})` : shown;
  return { kind: 'info', key: done === 'quarantine.allowed' ? 'quarantine.allowedRenamed' : 'quarantine.restoredRenamed', params: { count: succeeded, names } };
}
