// What `verdict lookup` says, in English and German (the settings' language, else the system's,
// as `scan` decides it). The link line is the same in both: it is VirusTotal's address.
import type { Language } from '../../shared/service-contract/limits.ts';
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';

export type TargetProblem =
  | { kind: 'empty' }
  | { kind: 'hex_length'; given: string; length: number }
  | { kind: 'missing'; given: string }
  | { kind: 'not_file'; given: string }
  | { kind: 'unreadable'; given: string; detail: string };

export interface LookupTexts {
  /** Why an argument is neither a file nor a SHA-256. */
  problem(problem: TargetProblem): string;
  nothingGiven: string;
  /** Told once when no key is set (or the keychain cannot be read): only the links are printed. */
  noKey: string;
  keychainProblem(detail: string): string;
  /** A file that could be named but not read to the end. */
  readFailed(detail: string): string;
  /** The answer line under a file's link. */
  answer(answer: Exclude<VirusTotalAnswer, { kind: 'no_key' }>): string;
  /** A 429 heard: the queue waits and asks again. */
  tooMany(attempt: number, max: number): string;
  /** The free API's 4 a minute make this lookup wait (HH:MM:SS, local time). */
  waiting(at: string): string;
}

/** `2025-11-24 16:00 UTC`: the same in both languages, and not tied to the terminal's time zone. */
export function analysisDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const EN: LookupTexts = {
  problem: (p) => {
    switch (p.kind) {
      case 'empty':
        return 'An empty argument names no file and is not a SHA-256.';
      case 'hex_length':
        return `${p.given} is ${p.length} hexadecimal digits${p.length === 32 ? ' (an MD5?)' : p.length === 40 ? ' (a SHA-1?)' : ''} and no file: a SHA-256 has 64. Give the file, or its SHA-256.`;
      case 'missing':
        return `${p.given}: no such file, and not a SHA-256 (64 hexadecimal digits).`;
      case 'not_file':
        return `${p.given} is not a file (a folder or a device): verdict lookup takes files and SHA-256 hashes.`;
      case 'unreadable':
        return `${p.given} cannot be read (${p.detail}).`;
    }
  },
  nothingGiven: 'Give one or more files or SHA-256 hashes.',
  noKey:
    "No VirusTotal API key is set: only the links are printed. To see VirusTotal's last analysis here too, add your key in Verdict's window (Settings › VirusTotal); it is kept in the OS keychain.",
  keychainProblem: (detail) => `The VirusTotal API key could not be read from the keychain: ${detail}`,
  readFailed: (detail) => `could not be read: ${detail}`,
  answer: (a) => {
    switch (a.kind) {
      case 'known': {
        const date = a.analysedAt ? `last analysis ${analysisDate(a.analysedAt)}` : 'no date of analysis given';
        if (a.engines === 0) return `VirusTotal: known, but no engine has given a verdict on it (${date})`;
        const more = a.suspicious > 0 ? `, ${a.suspicious} more find it suspicious` : '';
        return `VirusTotal: ${a.malicious} of ${a.engines} engines detect it${more} (${date})`;
      }
      case 'unknown':
        return 'VirusTotal: not known to VirusTotal (no one has submitted this file; that says nothing about whether it is safe)';
      case 'key_refused':
        return 'VirusTotal refused your API key (HTTP 401): check it, or replace it in Settings › VirusTotal.';
      case 'quota':
        return 'VirusTotal kept answering 429: your key has used up its lookups for now (the free API allows 4 a minute and 500 a day). Try again later.';
      case 'unavailable':
        return `VirusTotal could not be asked: ${a.detail}`;
    }
  },
  tooMany: (attempt, max) => `VirusTotal answered 429 (too many lookups, ${attempt} of ${max}): waiting for its turn to ask again…`,
  waiting: (at) => `Waiting until ${at}: the free VirusTotal API allows 4 lookups a minute…`,
};

const DE: LookupTexts = {
  problem: (p) => {
    switch (p.kind) {
      case 'empty':
        return 'Ein leeres Argument nennt keine Datei und ist kein SHA-256.';
      case 'hex_length':
        return `${p.given} hat ${p.length} Hexadezimalziffern${p.length === 32 ? ' (ein MD5?)' : p.length === 40 ? ' (ein SHA-1?)' : ''} und ist keine Datei: Ein SHA-256 hat 64. Geben Sie die Datei oder ihren SHA-256 an.`;
      case 'missing':
        return `${p.given}: keine solche Datei, und kein SHA-256 (64 Hexadezimalziffern).`;
      case 'not_file':
        return `${p.given} ist keine Datei (ein Ordner oder ein Gerät): verdict lookup nimmt Dateien und SHA-256-Hashwerte.`;
      case 'unreadable':
        return `${p.given} kann nicht gelesen werden (${p.detail}).`;
    }
  },
  nothingGiven: 'Geben Sie eine oder mehrere Dateien oder SHA-256-Hashwerte an.',
  noKey:
    'Kein VirusTotal-API-Schlüssel gesetzt: Nur die Links werden ausgegeben. Um auch die letzte Analyse von VirusTotal hier zu sehen, fügen Sie Ihren Schlüssel im Fenster von Verdict hinzu (Einstellungen › VirusTotal); er wird im Schlüsselbund des Betriebssystems aufbewahrt.',
  keychainProblem: (detail) => `Der VirusTotal-API-Schlüssel konnte nicht aus dem Schlüsselbund gelesen werden: ${detail}`,
  readFailed: (detail) => `konnte nicht gelesen werden: ${detail}`,
  answer: (a) => {
    switch (a.kind) {
      case 'known': {
        const date = a.analysedAt ? `letzte Analyse ${analysisDate(a.analysedAt)}` : 'kein Datum der Analyse angegeben';
        if (a.engines === 0) return `VirusTotal: bekannt, aber noch keine Engine hat sie beurteilt (${date})`;
        const more = a.suspicious > 0 ? `, ${a.suspicious} weitere halten sie für verdächtig` : '';
        return `VirusTotal: ${a.malicious} von ${a.engines} Engines erkennen sie${more} (${date})`;
      }
      case 'unknown':
        return 'VirusTotal: VirusTotal nicht bekannt (niemand hat diese Datei eingereicht; das sagt nichts darüber, ob sie sicher ist)';
      case 'key_refused':
        return 'VirusTotal hat Ihren API-Schlüssel abgelehnt (HTTP 401): Prüfen Sie ihn oder ersetzen Sie ihn unter Einstellungen › VirusTotal.';
      case 'quota':
        return 'VirusTotal antwortete wiederholt mit 429: Ihr Schlüssel hat seine Abfragen vorerst aufgebraucht (die kostenlose API erlaubt 4 pro Minute und 500 am Tag). Versuchen Sie es später erneut.';
      case 'unavailable':
        return `VirusTotal konnte nicht befragt werden: ${a.detail}`;
    }
  },
  tooMany: (attempt, max) => `VirusTotal antwortete 429 (zu viele Abfragen, ${attempt} von ${max}): Warten, bis erneut gefragt werden darf…`,
  waiting: (at) => `Warten bis ${at}: Die kostenlose VirusTotal-API erlaubt 4 Abfragen pro Minute…`,
};

export const lookupTexts = (language: Language): LookupTexts => (language === 'de' ? DE : EN);
