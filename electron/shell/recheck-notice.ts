// The most important notice Verdict gives: a file judged clean before is detected now, after a
// signature update ("invoice.pdf, downloaded 3 days ago, is now detected as X"), with what the
// threat response did. Pure words and one wiring function; en and de.
import { displayName } from '../../shared/display-name.ts';
import { verdictOf } from '../../shared/scans/record.ts';
import type { RecheckFinding } from '../recheck/seen-files.ts';
import { outcomeOfRecord, type Notice } from './notification-rules.ts';
import type { ShellLanguage, ThreatOutcome } from './texts.ts';

const DAY_MS = 86_400_000;

const WORDS = {
  en: {
    ago: (days: number) => (days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`),
    title: (name: string, arrived: string, label: string) => `${name}, ${arrived}, is now detected as ${label}`,
    arrived: (origin: string, ago: string) => `${origin === 'watch' ? 'downloaded' : 'first seen'} ${ago}`,
    outcome: {
      quarantined: 'Signatures updated since its scan know it now. Verdict moved the file to quarantine; open the scan to restore or delete it.',
      'quarantine-failed': 'Signatures updated since its scan know it now. Verdict could not move it to quarantine, so it is still where it was; open the scan to see why.',
      'left-in-place': 'Signatures updated since its scan know it now. Verdict left the file where it is; open the scan to decide what to do.',
    } satisfies Record<ThreatOutcome, string>,
  },
  de: {
    ago: (days: number) => (days <= 0 ? 'heute' : days === 1 ? 'gestern' : `vor ${days} Tagen`),
    title: (name: string, arrived: string, label: string) => `${name}, ${arrived}, wird jetzt als ${label} erkannt`,
    arrived: (origin: string, ago: string) => `${ago} ${origin === 'watch' ? 'heruntergeladen' : 'zuerst gesehen'}`,
    outcome: {
      quarantined: 'Die seit der Prüfung aktualisierten Signaturen kennen sie jetzt. Verdict hat die Datei in die Quarantäne verschoben; öffnen Sie die Prüfung, um sie wiederherzustellen oder zu löschen.',
      'quarantine-failed':
        'Die seit der Prüfung aktualisierten Signaturen kennen sie jetzt. Verdict konnte sie nicht in die Quarantäne verschieben, sie liegt noch am selben Ort; öffnen Sie die Prüfung, um den Grund zu sehen.',
      'left-in-place': 'Die seit der Prüfung aktualisierten Signaturen kennen sie jetzt. Verdict hat die Datei gelassen, wo sie ist; öffnen Sie die Prüfung, um zu entscheiden.',
    } satisfies Record<ThreatOutcome, string>,
  },
} as const;

/** The notice for a finding that is a threat; null for another change (scanned in part, allowed by name), which the job's row shows. */
export function recheckNotice(finding: RecheckFinding, language: ShellLanguage, nowMs: number): Notice | null {
  const { record } = finding;
  if (verdictOf(record) !== 'unsafe') return null;
  const words = WORDS[language];
  const days = Math.max(0, Math.floor((nowMs - finding.firstSeenMs) / DAY_MS));
  const label = record.findings[0]?.name ?? record.detailed?.trim() ?? '?';
  // Shown through displayName(): a bidi control in the name must not disguise its extension.
  const title = words.title(displayName(record.fileName), words.arrived(finding.origin, words.ago(days)), displayName(label));
  return { kind: 'threat', title, body: words.outcome[outcomeOfRecord(record)], scanId: record.id };
}
