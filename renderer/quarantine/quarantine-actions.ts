// The user's actions on threats, for one scan (detail panel) or many (the
// list's selection): move to quarantine, restore, allow, delete permanently,
// stop allowing, and send scans that wait for upload consent. They confirm what
// cannot be undone, ask for another location when the original one is taken,
// and report what happened in the notice line. The core keeps records in step.
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { AppError, Result } from '../../shared/result.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { consentHostLabel } from '../../shared/settings/protection.ts';
import { api, call } from '../bridge/api.ts';
import { notifyFailure } from '../bridge/error-notice.ts';
import { confirmAction } from '../dialogs/ask.ts';
import { remoteServiceOrigin } from '../../shared/settings/folder-route.ts';
import { uploadConsent } from '../privacy/upload-consent.ts';
import { translator } from '../i18n/messages.ts';
import { selectLocale } from '../store/settings-slice.ts';
import { verdictStore } from '../store/store.ts';
import { outcomeNotice, restoredOneNotice, type DoneKey } from './outcome-notice.ts';
import { quarantineReasonShown } from './quarantine-reason.ts';

/** Codes that mean "this place does not work; pick another" (the file itself is fine). */
const NEEDS_LOCATION = new Set(['restore_conflict', 'target_folder_missing', 'original_path_unknown']);

const notify = (...args: Parameters<ReturnType<typeof verdictStore.getState>['notify']>): void => verdictStore.getState().notify(...args);

/** Why a quarantine action failed, in the language the UI speaks now, or the core's English words when only they say it. */
const reasonOf = (error: AppError) => quarantineReasonShown(translator(selectLocale(verdictStore.getState())), error);

/** A failed action told: worded in the UI's language, else "Something went wrong" over the core's English words. */
function notifyReason(error: AppError): void {
  const shown = quarantineReasonShown(translator(selectLocale(verdictStore.getState())), error);
  if ('text' in shown) notify('error', 'error.withReason', { reason: shown.text });
  else notifyFailure(verdictStore.getState(), error);
}

/** Like call(), with the core's quarantine errors worded in the UI's language. */
async function attempt<T>(pending: Promise<Result<T>>): Promise<T | undefined> {
  // A call that failed on its way (rejected) is call()'s to tell.
  const settled = await call(pending.then((result): Result<Result<T>> => ({ ok: true, value: result })));
  if (settled === undefined) return undefined;
  if (settled.ok) return settled.value;
  notifyReason(settled.error);
  return undefined;
}

export async function moveToQuarantine(records: readonly ScanRecord[]): Promise<void> {
  if (records.length === 0) return;
  const outcomes = await attempt(api.quarantine.add(records.map((record) => record.id)));
  if (outcomes) report(outcomes, 'quarantine.moved');
}

/** Restore (or allow, which restores too) one file; asks for another place if its own is taken. */
export async function restoreOne(entry: Pick<QuarantineEntry, 'id' | 'fileName' | 'originalPath'>, how: 'restore' | 'allow'): Promise<boolean> {
  if (how === 'allow' && !(await confirmAllow(1))) return false;
  const run = (to?: string): Promise<Result<QuarantineEntry>> => (how === 'allow' ? api.quarantine.allow(entry.id, to ? { to } : undefined) : api.quarantine.restore(entry.id, to ? { to } : undefined));
  let result = await run();
  if (!result.ok && NEEDS_LOCATION.has(result.error.code)) {
    // The path stays real here: the dialog shows it through displayName().
    const elsewhere = await confirmAction({
      title: 'quarantine.conflictTitle',
      body: result.error.code === 'restore_conflict' ? 'quarantine.conflictBody' : 'quarantine.noPlaceBody',
      params: { path: entry.originalPath ?? entry.fileName },
      confirm: 'quarantine.chooseLocation',
    });
    if (!elsewhere) return false;
    const to = await call(api.files.pickSaveLocation(entry.fileName));
    if (!to) return false;
    result = await run(to);
  }
  if (!result.ok) {
    notifyReason(result.error);
    return false;
  }
  const notice = restoredOneNotice(how, result.value.restoredTo);
  notify(notice.kind, notice.key, notice.params);
  return true;
}

export async function deletePermanently(entryIds: readonly string[]): Promise<void> {
  if (entryIds.length === 0) return;
  const sure = await confirmAction({ title: 'quarantine.deleteTitle', body: 'quarantine.deleteBody', params: { count: entryIds.length }, confirm: 'quarantine.deleteConfirm', danger: true });
  if (!sure) return;
  const outcomes = await attempt(api.quarantine.deleteMany([...entryIds]));
  if (outcomes) report(outcomes, 'quarantine.deleted');
}

/**
 * Restore or allow many. Those whose place is taken (or unknown) can go into one
 * folder the user picks, where a taken name becomes "name (2).ext" (the core
 * never replaces a file). One notice at the end tells the whole outcome.
 */
export async function restoreMany(entryIds: readonly string[], how: 'restore' | 'allow'): Promise<void> {
  if (entryIds.length === 0) return;
  if (how === 'allow' && !(await confirmAllow(entryIds.length))) return;
  const done = how === 'allow' ? 'quarantine.allowed' : 'quarantine.restored';
  const run = (ids: string[], toFolder?: string) => (how === 'allow' ? api.quarantine.allowMany(ids, toFolder ? { toFolder } : undefined) : api.quarantine.restoreMany(ids, toFolder ? { toFolder } : undefined));
  const outcomes = await attempt(run([...entryIds]));
  if (!outcomes) return;
  const blocked = outcomes.filter((outcome) => !outcome.ok && NEEDS_LOCATION.has(outcome.error.code));
  if (blocked.length === 0) return report(outcomes, done);
  const settled = outcomes.filter((outcome) => !blocked.includes(outcome));
  const intoFolder = await confirmAction({ title: 'quarantine.conflictTitle', body: 'quarantine.conflictManyBody', params: { count: blocked.length }, confirm: 'quarantine.chooseFolder' });
  const [folder] = intoFolder ? ((await call(api.files.pick('folder'))) ?? []) : [];
  // Not moved on: those stay in quarantine, and the notice says why.
  const second = folder ? await attempt(run(blocked.map((outcome) => outcome.id), folder)) : undefined;
  report([...settled, ...(second ?? blocked)], done);
}

export async function allowUnquarantined(record: ScanRecord): Promise<void> {
  if (!(await confirmAllow(1))) return;
  if (await attempt(api.quarantine.allowRecord(record.id))) notify('info', 'quarantine.allowedKept');
}

export async function stopAllowing(sha256: string): Promise<boolean> {
  const done = (await attempt(api.quarantine.revokeAllowed(sha256))) !== undefined;
  if (done) notify('info', 'allowed.revoked');
  return done;
}

/** Scans the core holds until the user agrees to send them to the remote service. */
export async function sendWaiting(records: readonly ScanRecord[]): Promise<void> {
  const settings = verdictStore.getState().settings;
  const origin = settings ? remoteServiceOrigin(settings) : null;
  if (records.length === 0 || origin === null) return;
  const consent = await uploadConsent(
    records.map((record) => record.path),
    { force: true },
  );
  if (!consent.go) return;
  const released = await call(api.scans.allowUpload(records.map((record) => record.id), consent.consent ?? origin));
  if (released) notify('info', 'upload.sent', { host: consentHostLabel(origin), count: released.released });
}

function confirmAllow(count: number): Promise<boolean> {
  return confirmAction({ title: 'quarantine.allowTitle', body: 'quarantine.allowBody', params: { count }, confirm: 'quarantine.allowConfirm' });
}

function report(outcomes: ReadonlyArray<BulkOutcome<QuarantineEntry>>, done: DoneKey): void {
  const notice = outcomeNotice(outcomes, done, reasonOf);
  notify(notice.kind, notice.key, notice.params, notice.said);
}
