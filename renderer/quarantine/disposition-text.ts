// What was done about a threat, in words, where the disposition alone would
// mislead: a file lost from quarantine (removed outside Verdict) reads
// `deleted` in the record, but the user did not delete it.
import { isLostFromQuarantine } from '../../shared/quarantine/entry.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { Translator } from '../i18n/messages.ts';

type Outcome = Pick<ScanRecord, 'disposition' | 'error'>;

/** The list's status word for a finished threat with a disposition. */
export function dispositionLabel({ t }: Pick<Translator, 't'>, record: Outcome & { disposition: Exclude<NonNullable<ScanRecord['disposition']>, 'allowed'> }): string {
  return isLostFromQuarantine(record) ? t('disposition.lost') : t(`disposition.${record.disposition}`);
}

/** The detail panel's sentence for a record whose file is gone from quarantine. */
export function deletedText({ t }: Pick<Translator, 't'>, record: Outcome): string {
  return isLostFromQuarantine(record) ? t('quarantineError.fileLost') : t('threat.deleted');
}

/**
 * The advice under "This file is dangerous", by what happened to the file: "delete it" makes no sense for a
 * file already deleted, and a file lost from quarantine may be anywhere the user put it.
 */
export function unsafeHint({ t }: Pick<Translator, 't'>, record: Outcome): string {
  if (record.disposition === 'quarantined') return t('detail.unsafeQuarantinedHint');
  if (isLostFromQuarantine(record)) return t('detail.unsafeLostHint');
  if (record.disposition === 'deleted') return t('detail.unsafeDeletedHint');
  return t('detail.unsafeHint');
}
