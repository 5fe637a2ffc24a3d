// What `verdict recheck` says, in English and German (the settings' language, as `scan` decides it).
import type { Language } from '../../shared/service-contract/limits.ts';
import type { RecheckRefusal } from '../recheck/recheck.ts';

export interface RecheckTexts {
  starting(days: number, selected: number): string;
  alreadyRunning(startedAt: string): string;
  refused(why: RecheckRefusal): string;
  /** A file detected now that an earlier scan judged clean. */
  nowDetected(name: string, label: string, days: number): string;
  summary(rechecked: number, detected: number, changed: number): string;
  /** A quarantined file the signatures in use no longer detect. */
  noLongerDetected(name: string, quarantinedAt: string): string;
  interrupted: string;
  waiting: string;
}

const ago = {
  en: (days: number) => (days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`),
  de: (days: number) => (days <= 0 ? 'heute' : days === 1 ? 'gestern' : `vor ${days} Tagen`),
};

const EN: RecheckTexts = {
  starting: (days, selected) =>
    `Judging again ${selected === 1 ? '1 file' : `${selected} files`} first seen in the last ${days} days and judged clean under older signatures…`,
  alreadyRunning: (startedAt) => `A recheck started ${startedAt.slice(0, 16).replace('T', ' ')} is under way: following it.`,
  refused: (why) =>
    why === 'off'
      ? 'The recheck after a signature update is off (Settings › Protection, or recheckAfterUpdateDays in settings.json).'
      : why === 'no_signatures'
        ? 'No ClamAV signatures to judge with: the engine in use is not ClamAV, not answering, or its self-test fails (verdict status says which).'
        : 'Nothing to recheck: every recent file was judged clean under the signatures in use now.',
  nowDetected: (name, label, days) => `NOW DETECTED ${name} (first seen ${ago.en(days)}, judged clean before): ${label}`,
  summary: (rechecked, detected, changed) =>
    `Rechecked ${rechecked === 1 ? '1 file' : `${rechecked} files`}: ${detected === 1 ? '1 is' : `${detected} are`} now detected, ${changed === 1 ? '1 changed its verdict' : `${changed} changed their verdict`} in all.`,
  noLongerDetected: (name, at) =>
    `NO LONGER DETECTED ${name} (in quarantine since ${at.slice(0, 10)}): the signatures in use now find nothing in it. If you trust it, restore it in Verdict's Quarantine; Verdict never restores it by itself.`,
  interrupted: 'Interrupted: the recheck goes on when Verdict starts, or when you run verdict recheck again.',
  waiting: 'Waiting for the engine to say which signatures it holds…',
};

const DE: RecheckTexts = {
  starting: (days, selected) =>
    `${selected === 1 ? '1 Datei' : `${selected} Dateien`}, in den letzten ${days} Tagen zuerst gesehen und mit älteren Signaturen als sauber beurteilt, ${selected === 1 ? 'wird' : 'werden'} erneut geprüft…`,
  alreadyRunning: (startedAt) => `Eine um ${startedAt.slice(0, 16).replace('T', ' ')} gestartete Nachprüfung läuft: sie wird verfolgt.`,
  refused: (why) =>
    why === 'off'
      ? 'Die Nachprüfung nach einem Signatur-Update ist ausgeschaltet (Einstellungen › Schutz, oder recheckAfterUpdateDays in settings.json).'
      : why === 'no_signatures'
        ? 'Keine ClamAV-Signaturen zum Prüfen: Die verwendete Engine ist nicht ClamAV, antwortet nicht, oder ihr Selbsttest schlägt fehl (verdict status sagt, was zutrifft).'
        : 'Nichts nachzuprüfen: Jede neue Datei wurde mit den jetzt verwendeten Signaturen als sauber beurteilt.',
  nowDetected: (name, label, days) => `JETZT ERKANNT ${name} (zuerst gesehen ${ago.de(days)}, zuvor als sauber beurteilt): ${label}`,
  summary: (rechecked, detected, changed) =>
    `${rechecked === 1 ? '1 Datei' : `${rechecked} Dateien`} nachgeprüft: ${detected} jetzt erkannt, ${changed === 1 ? '1 mit geändertem Urteil' : `${changed} mit geändertem Urteil`} insgesamt.`,
  noLongerDetected: (name, at) =>
    `NICHT MEHR ERKANNT ${name} (seit ${at.slice(0, 10)} in Quarantäne): Die jetzt verwendeten Signaturen finden darin nichts mehr. Wenn Sie der Datei vertrauen, stellen Sie sie in Verdicts Quarantäne wieder her; Verdict stellt sie nie von selbst wieder her.`,
  interrupted: 'Unterbrochen: Die Nachprüfung geht weiter, wenn Verdict startet oder Sie verdict recheck erneut ausführen.',
  waiting: 'Warten, bis die Engine sagt, welche Signaturen sie geladen hat…',
};

export const recheckTexts = (language: Language): RecheckTexts => (language === 'de' ? DE : EN);
