// The line `scan` and `watch` print on stderr at start: which engine judges the files
// of this run, where it runs, whose clamd it is and how files reach it, e.g.
// `Engine: ClamAV 1.4.6 · custom signatures only at unix:/…/clamd.sock (outdated), Verdict's own clamd, signatures from …; files go to clamd by descriptor (FILDES)` or
// `Engine: basic checks (EICAR test file only): ClamAV is not installed …`. English or German.
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { engineLine, protectionReasonText } from '../engine/protection-text.ts';
import { clamdWords } from './clamd-words.ts';

const LINES = {
  en: {
    remote: (origin: string) => `Engine: the remote service's own (${origin})`,
    unknown: 'Engine: not known (the service on this computer did not start)',
    basic: (reason: string) => `Engine: basic checks (EICAR test file only): ${reason}`,
    starting: (where: string) => `Engine: Starting ClamAV… (Verdict's own clamd at ${where} is loading its signatures; files wait for it)`,
    notAnswering: (whose: string, reason: string) => `Engine: ClamAV, not answering (${whose}): ${reason}`,
    identity: (status: ProtectionStatus) => engineLine(status),
    signaturesFrom: (dir: string) => `, signatures from ${dir}`,
  },
  de: {
    remote: (origin: string) => `Engine: die des entfernten Dienstes (${origin})`,
    unknown: 'Engine: nicht bekannt (der Dienst auf diesem Computer ist nicht gestartet)',
    basic: (reason: string) => `Engine: Basisprüfungen (nur die EICAR-Testdatei): ${reason}`,
    starting: (where: string) => `Engine: ClamAV startet … (Verdicts eigener clamd unter ${where} lädt seine Signaturen; Dateien warten darauf)`,
    notAnswering: (whose: string, reason: string) => `Engine: ClamAV antwortet nicht (${whose}): ${reason}`,
    identity: (status: ProtectionStatus) => engineLineDe(status),
    signaturesFrom: (dir: string) => `, Signaturen aus ${dir}`,
  },
} as const;

const STATES_DE = { protected: 'geschützt', outdated: 'veraltet', limited: 'eingeschränkt', not_running: 'läuft nicht', failing: 'versagt' } as const;

function engineLineDe(status: ProtectionStatus): string {
  const { engine } = status;
  const name = engine.version ? `ClamAV ${engine.version}` : 'ClamAV';
  const s = engine.signatures;
  const signatures = s ? `Signaturen ${s.version} vom ${s.date.slice(0, 10)}` : 'nur eigene Signaturen';
  return `Engine: ${name} · ${signatures} unter ${engine.where} (${STATES_DE[status.state]})`;
}

export function startEngineLine(view: ProtectionView, language: Language = 'en'): string {
  const lines = LINES[language];
  const words = clamdWords(language);
  if (view.remote !== null) return lines.remote(new URL(view.remote).origin);
  const status = view.status;
  if (status === null) return lines.unknown;
  if (status.engine.name === 'builtin') return lines.basic(protectionReasonText(status, language));
  if (status.reason.code === 'clamd_starting') return lines.starting(status.engine.where);
  if (status.state === 'not_running') return lines.notAnswering(words.sources[status.engine.source], protectionReasonText(status, language));
  const database = view.databaseDir === null ? '' : lines.signaturesFrom(view.databaseDir);
  const transport = status.engine.transport === undefined ? '' : `; ${words.transfer[status.engine.transport]}`;
  return `${lines.identity(status)}, ${words.sources[status.engine.source]}${database}${transport}`;
}
