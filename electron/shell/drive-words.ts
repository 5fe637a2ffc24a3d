// The words of removable drives' notices (issue 29 §2), en and de: the offer with *Scan*,
// *Not now* and *Always for this drive*, and a drive job's end (named after the drive's label).
// Pure; drive-notice.ts shows them. A label is shown through displayName().
import { displayName } from '../../shared/display-name.ts';
import type { JobState } from '../../shared/jobs/job.ts';
import type { DriveOffer } from '../drives/drive.ts';
import type { Notice } from './notification-rules.ts';
import { textsFor, type ShellLanguage } from './texts.ts';

const GB = 1_000_000_000;

export const DRIVE_WORDS = {
  en: {
    offerTitle: (label: string) => `${label} was connected`,
    ask: 'Scan it for malware now? Click to scan it.',
    tooLarge: (gb: number | null) =>
      `${gb === null ? 'Its size is unknown' : `At ${gb} GB it is larger than your limit`}, so Verdict does not scan it by itself. Click to scan it now.`,
    scan: 'Scan',
    notNow: 'Not now',
    always: 'Always for this drive',
    doneTitle: (label: string) => `Drive “${label}” scanned`,
    cancelledTitle: (label: string) => `Scan of drive “${label}” cancelled`,
    removedTitle: (label: string) => `Scan of drive “${label}” cancelled: the drive was removed`,
    removedBody: 'Files it had not reached were not scanned.',
  },
  de: {
    offerTitle: (label: string) => `${label} wurde angeschlossen`,
    ask: 'Jetzt auf Schadsoftware prüfen? Klicken Sie, um es zu prüfen.',
    tooLarge: (gb: number | null) =>
      `${gb === null ? 'Seine Größe ist unbekannt' : `Mit ${gb} GB ist es größer als Ihre Grenze`}, daher prüft Verdict es nicht von selbst. Klicken Sie, um es jetzt zu prüfen.`,
    scan: 'Prüfen',
    notNow: 'Nicht jetzt',
    always: 'Immer für dieses Laufwerk',
    doneTitle: (label: string) => `Laufwerk „${label}“ geprüft`,
    cancelledTitle: (label: string) => `Prüfung von Laufwerk „${label}“ abgebrochen`,
    removedTitle: (label: string) => `Prüfung von Laufwerk „${label}“ abgebrochen: Das Laufwerk wurde entfernt`,
    removedBody: 'Dateien, die sie noch nicht erreicht hatte, wurden nicht geprüft.',
  },
} as const;

export interface DriveOfferNotice {
  title: string;
  body: string;
  /** The buttons, in order: Scan, Not now, and Always for this drive when the drive has a filesystem UUID. */
  actions: string[];
}

export function driveOfferNotice(offer: DriveOffer, language: ShellLanguage): DriveOfferNotice {
  const words = DRIVE_WORDS[language];
  const { drive } = offer;
  const gb = drive.sizeBytes === null ? null : Math.round(drive.sizeBytes / GB);
  return {
    title: words.offerTitle(displayName(drive.label)),
    body: offer.why === 'ask' ? words.ask : words.tooLarge(gb),
    actions: [words.scan, words.notNow, ...(drive.uuid ? [words.always] : [])],
  };
}

/** A drive job's end, named after its drive; null while it runs. */
export function driveJobNotice(job: Pick<JobState, 'status' | 'counts' | 'activeMs' | 'drive' | 'stopReason'>, language: ShellLanguage): Notice | null {
  if (job.status !== 'completed' && job.status !== 'cancelled') return null;
  const words = DRIVE_WORDS[language];
  const label = displayName(job.drive?.label ?? '?');
  const removed = job.status === 'cancelled' && job.stopReason === 'drive_removed';
  const title = job.status === 'completed' ? words.doneTitle(label) : removed ? words.removedTitle(label) : words.cancelledTitle(label);
  const body = textsFor(language).jobBody(job.counts, job.activeMs) + (removed ? ` ${words.removedBody}` : '');
  return { kind: 'job', title, body, scanId: null };
}
