// The protection state in German, for the CLIs: the same codes and params as
// protection-text.ts words in English, sentence for sentence.
import type { ProtectionStatus, StreamLimit } from '../../shared/engine/protection-state.ts';

const MB = 1024 * 1024;

export function protectionReasonTextDe(status: ProtectionStatus): string {
  const p = status.reason.params;
  const where = status.engine.where;
  switch (status.reason.code) {
    case 'signatures_fresh':
      return `ClamAV ${status.engine.version} antwortet unter ${where}; seine Signaturen (Version ${p.signatureVersion}) sind ${tage(p.ageDays)} alt.`;
    case 'signatures_old':
      return `ClamAV ${status.engine.version} antwortet unter ${where}, aber seine Signaturen (Version ${p.signatureVersion}) sind ${tage(p.ageDays)} alt (mehr als ${p.maxAgeDays}).`;
    case 'signatures_undated':
      return `ClamAV ${status.engine.version} antwortet unter ${where}, meldet aber keine datierten offiziellen Signaturen (nur eigene Datenbanken sind geladen).`;
    case 'builtin_requested':
      return 'Statt ClamAV wurden Basisprüfungen gewählt: Sie erkennen nur die EICAR-Testdatei.';
    case 'clamav_not_found':
      return 'ClamAV ist nicht installiert (kein clamd antwortete, und keiner wurde gefunden): Nur Basisprüfungen sehen sich Dateien an, und sie erkennen nur die EICAR-Testdatei.';
    case 'database_not_found':
      return `clamd ist installiert, aber es wurde keine Signaturdatenbank gefunden (gesucht in ${p.tried}): Nur Basisprüfungen (nur die EICAR-Testdatei) sehen sich Dateien an.`;
    case 'clamd_starting':
      return `Verdicts eigener clamd unter ${where} lädt seine Signaturen; Dateien warten, bis er antwortet.`;
    case 'clamd_not_answering':
      return `ClamAV wurde unter ${where} erwartet, antwortet aber nicht${p.detail ? ` (${p.detail})` : ''}.`;
    case 'clamd_failed':
      return `Verdicts eigener clamd konnte nicht laufen (${p.problem}): ${p.detail}`;
    case 'self_test_failed':
      return `Der Selbsttest ist fehlgeschlagen: ClamAV unter ${where} hat die EICAR-Testdatei für sauber erklärt und übersieht daher vielleicht auch echte Schadsoftware. Prüfungen laufen weiter.`;
  }
}

export function protectionActionTextDe(status: ProtectionStatus): string {
  switch (status.action) {
    case 'none':
      return '';
    case 'wait':
      return 'Mit der offiziellen Datenbank dauert das Laden bis zu einer Minute.';
    case 'update_signatures':
      return 'Aktualisieren Sie jetzt die Signaturen: `verdict update` (oder Einstellungen › Malware-Engine).';
    case 'check_system_updater':
      if (status.engine.source !== 'system') return 'Verdict aktualisiert die Signaturen dieses clamd nicht: Das tut, wer ihn betreibt (ein clamav-Container: sein Image oder sein freshclam).';
      return 'Das System aktualisiert die Signaturen dieses clamd: Prüfen Sie seinen Aktualisierungsdienst (Debian, Ubuntu: `systemctl status clamav-freshclam`).';
    case 'install_clamav':
      return 'Installieren Sie ClamAV (Debian, Ubuntu: `sudo apt install clamav-daemon`; Fedora: `sudo dnf install clamd`; macOS: `brew install clamav`).';
    case 'get_database':
      return 'Holen Sie die Signaturen: `verdict update` lädt sie in Verdicts eigenen Ordner (oder geben Sie --clamav-db ORDNER an).';
    case 'start_clamav':
      return 'Starten Sie ClamAV erneut, oder prüfen Sie seine Konfiguration und die Meldung oben.';
    case 'use_clamav':
      return 'Wählen Sie die Engine „auto“, um ClamAV zu nutzen, wenn es verfügbar ist.';
  }
}

export function streamLimitTextDe(limit: StreamLimit): string {
  return `Dieser clamd lehnt Dateien über ${Math.round(limit.bytes / MB)} MB ab: Setzen Sie StreamMaxLength (und MaxFileSize, MaxScanSize) in ${limit.configPath} über 100M, dann starten Sie clamd neu.`;
}

function tage(value: string | number | undefined): string {
  return value === 1 ? '1 Tag' : `${value} Tage`;
}
