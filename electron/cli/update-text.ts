// What `verdict update` says of a run, in English and German: one sentence of
// Verdict's own for each outcome (freshclam's words are printed under it).
import type { Language } from '../../shared/service-contract/limits.ts';
import type { FreshclamOutcome as Outcome } from '../engine/freshclam/freshclam-outcome.ts';
import type { UpdateSignaturesResult } from '../engine/freshclam/run-freshclam.ts';
type Problem = Extract<UpdateSignaturesResult, { ok: false }>['problem'];

export interface UpdateTexts {
  starting(dir: string): string;
  outcome(outcome: Outcome, dir: string): string;
  problem(problem: Problem, detail: string, dir: string): string;
  reloaded: string;
  reloadFailed(detail: string): string;
  freshclamSaid: string;
}

const en: UpdateTexts = {
  starting: (dir) => `Updating the signatures in Verdict's own folder ${dir} with freshclam…`,
  outcome: (outcome, dir) => {
    const again = 'then run `verdict update` again.';
    switch (outcome.kind) {
      case 'updated':
        return `The signatures are current: freshclam updated Verdict's folder ${dir}${outcome.version === null ? '' : ` (daily version ${outcome.version})`}.`;
      case 'current':
        return `The signatures are current: Verdict's folder ${dir} was already up to date${outcome.version === null ? '' : ` (daily version ${outcome.version})`}.`;
      case 'no_connection':
        return `The signatures could not be updated: freshclam could not get them from the mirror. Check the network connection (and a proxy), ${again}`;
      case 'cool_down':
        return `The signatures could not be updated: the signature server asks freshclam to wait${outcome.until ? ` until ${outcome.until}` : ''} (too many updates). Wait, ${again}`;
      case 'mirror_refused':
        return `The signatures could not be updated: the signature server refused the download (this address is blocked, or this ClamAV is too old for it)${outcome.until ? `; freshclam waits until ${outcome.until}` : ''}.`;
      case 'disk_full':
        return `The signatures could not be updated: the disk that holds ${dir} is full. Free up space, ${again}`;
      case 'not_writable':
        return `The signatures could not be updated: freshclam could not write into ${dir}.`;
      case 'failed':
        return 'The signatures could not be updated: freshclam failed.';
    }
  },
  problem: (problem, detail) => {
    switch (problem) {
      case 'freshclam_missing':
        return 'The signatures could not be updated: freshclam is not installed (Debian, Ubuntu: `sudo apt install clamav-freshclam`; Fedora: `sudo dnf install clamav-update`; macOS: `brew install clamav`).';
      case 'system_database':
        return `The signatures could not be updated: ${detail}. Verdict never writes into the system's signature folder.`;
      case 'data_dir_unwritable':
        return `The signatures could not be updated: Verdict could not write its signature folder (${detail}).`;
      case 'timeout':
        return `The signatures could not be updated: ${detail}.`;
      case 'spawn_failed':
        return `The signatures could not be updated: freshclam could not be started (${detail}).`;
    }
  },
  reloaded: "Verdict's own clamd loads the new signatures now.",
  reloadFailed: (detail) => `Verdict's own clamd did not take the new signatures yet (${detail}); they are used from its next start.`,
  freshclamSaid: 'freshclam said:',
};

const de: UpdateTexts = {
  starting: (dir) => `Die Signaturen in Verdicts eigenem Ordner ${dir} werden mit freshclam aktualisiert…`,
  outcome: (outcome, dir) => {
    const again = 'dann führen Sie `verdict update` erneut aus.';
    switch (outcome.kind) {
      case 'updated':
        return `Die Signaturen sind aktuell: freshclam hat Verdicts Ordner ${dir} aktualisiert${outcome.version === null ? '' : ` (daily-Version ${outcome.version})`}.`;
      case 'current':
        return `Die Signaturen sind aktuell: Verdicts Ordner ${dir} war schon auf dem neuesten Stand${outcome.version === null ? '' : ` (daily-Version ${outcome.version})`}.`;
      case 'no_connection':
        return `Die Signaturen konnten nicht aktualisiert werden: freshclam konnte sie nicht vom Spiegelserver holen. Prüfen Sie die Netzwerkverbindung (und einen Proxy), ${again}`;
      case 'cool_down':
        return `Die Signaturen konnten nicht aktualisiert werden: Der Signaturserver bittet freshclam zu warten${outcome.until ? ` bis ${outcome.until}` : ''} (zu viele Aktualisierungen). Warten Sie, ${again}`;
      case 'mirror_refused':
        return `Die Signaturen konnten nicht aktualisiert werden: Der Signaturserver hat den Download abgelehnt (diese Adresse ist gesperrt, oder dieses ClamAV ist zu alt dafür)${outcome.until ? `; freshclam wartet bis ${outcome.until}` : ''}.`;
      case 'disk_full':
        return `Die Signaturen konnten nicht aktualisiert werden: Der Datenträger mit ${dir} ist voll. Geben Sie Speicherplatz frei, ${again}`;
      case 'not_writable':
        return `Die Signaturen konnten nicht aktualisiert werden: freshclam konnte nicht in ${dir} schreiben.`;
      case 'failed':
        return 'Die Signaturen konnten nicht aktualisiert werden: freshclam ist fehlgeschlagen.';
    }
  },
  problem: (problem, detail) => {
    switch (problem) {
      case 'freshclam_missing':
        return 'Die Signaturen konnten nicht aktualisiert werden: freshclam ist nicht installiert (Debian, Ubuntu: `sudo apt install clamav-freshclam`; Fedora: `sudo dnf install clamav-update`; macOS: `brew install clamav`).';
      case 'system_database':
        return `Die Signaturen konnten nicht aktualisiert werden: ${detail}. Verdict schreibt nie in den Signaturordner des Systems.`;
      case 'data_dir_unwritable':
        return `Die Signaturen konnten nicht aktualisiert werden: Verdict konnte seinen Signaturordner nicht schreiben (${detail}).`;
      case 'timeout':
        return `Die Signaturen konnten nicht aktualisiert werden: ${detail}.`;
      case 'spawn_failed':
        return `Die Signaturen konnten nicht aktualisiert werden: freshclam konnte nicht gestartet werden (${detail}).`;
    }
  },
  reloaded: 'Verdicts eigener clamd lädt die neuen Signaturen jetzt.',
  reloadFailed: (detail) => `Verdicts eigener clamd hat die neuen Signaturen noch nicht übernommen (${detail}); er nutzt sie ab seinem nächsten Start.`,
  freshclamSaid: 'freshclam sagte:',
};

export function updateTexts(language: Language): UpdateTexts {
  return language === 'de' ? de : en;
}
