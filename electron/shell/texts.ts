// The few texts the main process shows itself (tray menu, notifications), in
// English and German. The renderer has its own catalogues; these stay small.
import type { ProtectionState } from '../../shared/engine/protection-state.ts';
import type { JobCounts, JobKind } from '../../shared/jobs/job.ts';
import type { Verdict } from '../../shared/scans/record.ts';
import type { ScheduledKind } from '../../shared/settings/schedules.ts';

export type ShellLanguage = 'en' | 'de';

/** What Verdict did with a file judged unsafe. */
export type ThreatOutcome = 'left-in-place' | 'quarantined' | 'quarantine-failed';

export interface ShellTexts {
  open: string;
  pauseWatching: string;
  resumeWatching: string;
  recentVerdicts: string;
  noRecentVerdicts: string;
  quit: string;
  tooltip: Record<'idle' | 'scanning' | 'threat', string>;
  /** The protection state, for the tray's tooltip and the menu's first line. */
  protection: Record<ProtectionState, string>;
  /** The notice when the self-test finds the engine blind to EICAR. */
  selfTestFailedTitle: string;
  selfTestFailedBody: string;
  verdict: Record<Verdict, string>;
  threatTitle(fileName: string): string;
  /** What the verdict says and what Verdict did about it. */
  threatBody(label: string, outcome: ThreatOutcome): string;
  cleanTitle(fileName: string): string;
  cleanBody: string;
  /** A file judged clean by basic checks only (the built-in engine): never worded as clean. */
  basicOnlyTitle(fileName: string): string;
  basicOnlyBody: string;
  failedTitle: string;
  failedBody(count: number): string;
  summaryTitle: string;
  threats(count: number): string;
  clean(count: number): string;
  basicOnly(count: number): string;
  /** Files scanned in part (over a scan limit, or encrypted): never worded as clean. */
  partial(count: number): string;
  partialTitle: string;
  partialBody(count: number): string;
  failed(count: number): string;
  /** The offer to start at login, made when the first folder is watched. */
  loginOffer: { message: string; detail: string; accept: string; decline: string };
  /** The login entry's description (Linux autostart). */
  loginEntryComment: string;
  /** Said once when the window closes while folders are watched and no tray icon can be shown. */
  backgroundTitle: string;
  backgroundBody: string;
  /** The next scheduled scan, for the tray: its kind and when (ISO), shown in local time. */
  nextScan(kind: ScheduledKind, at: string): string;
  /** A saved scan's next run, by its name (shown like every name). */
  nextSavedScan(name: string, at: string): string;
  /** The tray's entries that start a scan job. */
  quickScan: string;
  fullScan: string;
  /** A saved scan in the tray's menu. */
  runSaved(name: string): string;
  /** A removable drive offered for a scan (issue 29 §2). */
  scanDrive(label: string): string;
  /** The notice at the end of a scan job. */
  jobTitle(kind: JobKind, status: 'completed' | 'cancelled'): string;
  /** A saved scan's job, by the scan's name (shown like every name). */
  savedJobTitle(name: string, status: 'completed' | 'cancelled'): string;
  jobBody(counts: JobCounts, durationMs: number): string;
  /** A scheduled scan skipped: its files would have waited for consent to upload to `host`, with no one there to agree. */
  scheduleSkippedTitle(kind: ScheduledKind): string;
  scheduleSkippedBody(host: string): string;
}

/** "Thu, 26 Nov, 09:00" in the language's own order, on the 24-hour clock the schedules use. */
export function scheduleWhen(language: ShellLanguage, at: string): string {
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
}

const en: ShellTexts = {
  open: 'Open Verdict',
  pauseWatching: 'Pause watching',
  resumeWatching: 'Resume watching',
  recentVerdicts: 'Recent verdicts',
  noRecentVerdicts: 'No verdicts yet',
  quit: 'Quit Verdict',
  tooltip: { idle: 'Verdict', scanning: 'Verdict: scanning…', threat: 'Verdict: threat found' },
  protection: {
    protected: 'Protected: ClamAV signatures are current',
    outdated: 'Signatures out of date',
    limited: 'Limited protection: basic checks only (EICAR test file)',
    not_running: 'ClamAV is not running',
    failing: 'Detection is failing: the self-test was not detected',
  },
  selfTestFailedTitle: 'Verdict: malware detection is failing',
  selfTestFailedBody:
    'ClamAV did not detect the EICAR test file in Verdict’s self-test, so it may miss real malware too. Scans go on. Open Verdict › Settings › Malware engine to update the signatures or check ClamAV.',
  verdict: { unsafe: 'Threat', safe: 'Clean', 'could-not-scan': 'Could not scan', pending: 'Scanning', skipped: 'Skipped', allowed: 'Allowed by you', 'basic-only': 'Basic checks only', partial: 'Scanned in part' },
  threatTitle: (name) => `Threat found: ${name}`,
  threatBody: (label, outcome) =>
    outcome === 'quarantined'
      ? `${label}. Verdict moved the file to quarantine; open the scan to restore or delete it.`
      : outcome === 'quarantine-failed'
        ? `${label}. Verdict could not move the file to quarantine, so it is still where it was; open the scan to see why.`
        : `${label}. Verdict left the file where it is; open the scan to decide what to do.`,
  cleanTitle: (name) => `Clean: ${name}`,
  cleanBody: 'No threat found.',
  basicOnlyTitle: (name) => `Basic checks only: ${name}`,
  basicOnlyBody: 'Not a full scan: ClamAV was not available, and basic checks recognise only the EICAR test file. Scan it again with ClamAV.',
  failedTitle: 'Some files could not be scanned',
  failedBody: (count) => `${en.failed(count)}. Open Verdict to see why.`,
  summaryTitle: 'Verdict: scan results',
  threats: (count) => (count === 1 ? '1 threat found' : `${count} threats found`),
  clean: (count) => (count === 1 ? '1 file clean' : `${count} files clean`),
  basicOnly: (count) => (count === 1 ? '1 file checked with basic checks only' : `${count} files checked with basic checks only`),
  partial: (count) => (count === 1 ? '1 file scanned in part' : `${count} files scanned in part`),
  partialTitle: 'Some files were scanned only in part',
  partialBody: (count) => `${en.partial(count)}: over a scan limit or encrypted, so not all of the contents could be inspected. Open Verdict to see which.`,
  failed: (count) => (count === 1 ? '1 file could not be scanned' : `${count} files could not be scanned`),
  loginOffer: {
    message: 'Start Verdict when you log in?',
    detail: 'Watched folders are protected only while Verdict runs. It starts in the background, without its window. You can change this in Settings.',
    accept: 'Start when I log in',
    decline: 'Not now',
  },
  loginEntryComment: 'Keeps watching your folders for malware',
  backgroundTitle: 'Verdict keeps watching',
  backgroundBody: 'Your watched folders stay protected in the background. To open Verdict again, start it from your applications.',
  nextScan: (kind, at) => `Next scan: ${kind === 'quick' ? 'quick scan' : 'full scan'}, ${scheduleWhen('en', at)}`,
  nextSavedScan: (name, at) => `Next scan: “${name}”, ${scheduleWhen('en', at)}`,
  quickScan: 'Quick scan',
  fullScan: 'Full scan',
  runSaved: (name) => `Run “${name}”`,
  scanDrive: (label) => `Scan drive “${label}”`,
  jobTitle: (kind, status) => `${{ quick: 'Quick scan', full: 'Full scan', custom: 'Custom scan', recheck: 'Recheck after update', drive: 'Drive scan' }[kind]} ${status === 'completed' ? 'finished' : 'cancelled'}`,
  savedJobTitle: (name, status) => `Saved scan “${name}” ${status === 'completed' ? 'finished' : 'cancelled'}`,
  jobBody: (counts, durationMs) =>
    `${counts.scanned} ${counts.scanned === 1 ? 'file' : 'files'} scanned, ${counts.threats} ${counts.threats === 1 ? 'threat' : 'threats'}, ` +
    `${counts.couldNotScan} could not be scanned, ${counts.skipped} skipped, in ${duration(durationMs, 'min')}.`,
  scheduleSkippedTitle: (kind) => `Scheduled ${kind === 'quick' ? 'quick scan' : 'full scan'} skipped`,
  scheduleSkippedBody: (host) =>
    `Its files would be sent to ${host}, and Verdict asks you first. To let scheduled scans run, scan once by hand and choose “Don’t ask again for ${host}”, or turn off asking in Settings › Privacy.`,
};

const de: ShellTexts = {
  open: 'Verdict öffnen',
  pauseWatching: 'Überwachung pausieren',
  resumeWatching: 'Überwachung fortsetzen',
  recentVerdicts: 'Letzte Ergebnisse',
  noRecentVerdicts: 'Noch keine Ergebnisse',
  quit: 'Verdict beenden',
  tooltip: { idle: 'Verdict', scanning: 'Verdict: Prüfung läuft…', threat: 'Verdict: Bedrohung gefunden' },
  protection: {
    protected: 'Geschützt: ClamAV-Signaturen sind aktuell',
    outdated: 'Signaturen veraltet',
    limited: 'Eingeschränkter Schutz: nur Basisprüfung (EICAR-Testdatei)',
    not_running: 'ClamAV läuft nicht',
    failing: 'Erkennung versagt: Der Selbsttest wurde nicht erkannt',
  },
  selfTestFailedTitle: 'Verdict: Die Erkennung von Schadsoftware versagt',
  selfTestFailedBody:
    'ClamAV hat die EICAR-Testdatei in Verdicts Selbsttest nicht erkannt und übersieht daher vielleicht auch echte Schadsoftware. Prüfungen laufen weiter. Öffnen Sie Verdict › Einstellungen › Malware-Engine, um die Signaturen zu aktualisieren oder ClamAV zu prüfen.',
  verdict: { unsafe: 'Bedrohung', safe: 'Sauber', 'could-not-scan': 'Nicht prüfbar', pending: 'Wird geprüft', skipped: 'Übersprungen', allowed: 'Von Ihnen zugelassen', 'basic-only': 'Nur Basisprüfung', partial: 'Teilweise geprüft' },
  threatTitle: (name) => `Bedrohung gefunden: ${name}`,
  threatBody: (label, outcome) =>
    outcome === 'quarantined'
      ? `${label}. Verdict hat die Datei in die Quarantäne verschoben; öffnen Sie die Prüfung, um sie wiederherzustellen oder zu löschen.`
      : outcome === 'quarantine-failed'
        ? `${label}. Verdict konnte die Datei nicht in die Quarantäne verschieben, sie liegt noch am selben Ort; öffnen Sie die Prüfung, um den Grund zu sehen.`
        : `${label}. Verdict hat die Datei nicht verändert; öffnen Sie die Prüfung, um zu entscheiden, was zu tun ist.`,
  cleanTitle: (name) => `Sauber: ${name}`,
  cleanBody: 'Keine Bedrohung gefunden.',
  basicOnlyTitle: (name) => `Nur Basisprüfung: ${name}`,
  basicOnlyBody: 'Keine vollständige Prüfung: ClamAV war nicht verfügbar, und die Basisprüfung erkennt nur die EICAR-Testdatei. Prüfen Sie die Datei erneut mit ClamAV.',
  failedTitle: 'Einige Dateien konnten nicht geprüft werden',
  failedBody: (count) => `${de.failed(count)}. Öffnen Sie Verdict, um den Grund zu sehen.`,
  summaryTitle: 'Verdict: Prüfergebnisse',
  threats: (count) => (count === 1 ? '1 Bedrohung gefunden' : `${count} Bedrohungen gefunden`),
  clean: (count) => (count === 1 ? '1 Datei sauber' : `${count} Dateien sauber`),
  basicOnly: (count) => (count === 1 ? '1 Datei nur mit Basisprüfung geprüft' : `${count} Dateien nur mit Basisprüfung geprüft`),
  partial: (count) => (count === 1 ? '1 Datei teilweise geprüft' : `${count} Dateien teilweise geprüft`),
  partialTitle: 'Einige Dateien wurden nur teilweise geprüft',
  partialBody: (count) => `${de.partial(count)}: über einer Prüfgrenze oder verschlüsselt, daher konnte nicht der ganze Inhalt untersucht werden. Öffnen Sie Verdict, um zu sehen, welche.`,
  failed: (count) => (count === 1 ? '1 Datei konnte nicht geprüft werden' : `${count} Dateien konnten nicht geprüft werden`),
  loginOffer: {
    message: 'Verdict beim Anmelden starten?',
    detail: 'Überwachte Ordner sind nur geschützt, solange Verdict läuft. Es startet im Hintergrund, ohne Fenster. Sie können das in den Einstellungen ändern.',
    accept: 'Beim Anmelden starten',
    decline: 'Jetzt nicht',
  },
  loginEntryComment: 'Überwacht Ihre Ordner auf Schadsoftware',
  backgroundTitle: 'Verdict überwacht weiter',
  backgroundBody: 'Ihre überwachten Ordner bleiben im Hintergrund geschützt. Um Verdict wieder zu öffnen, starten Sie es aus Ihren Anwendungen.',
  nextScan: (kind, at) => `Nächste Prüfung: ${kind === 'quick' ? 'Schnellprüfung' : 'vollständige Prüfung'}, ${scheduleWhen('de', at)}`,
  nextSavedScan: (name, at) => `Nächste Prüfung: „${name}“, ${scheduleWhen('de', at)}`,
  quickScan: 'Schnellprüfung',
  fullScan: 'Vollständige Prüfung',
  runSaved: (name) => `„${name}“ starten`,
  scanDrive: (label) => `Laufwerk „${label}“ prüfen`,
  jobTitle: (kind, status) =>
    `${{ quick: 'Schnellprüfung', full: 'Vollständige Prüfung', custom: 'Benutzerdefinierte Prüfung', recheck: 'Nachprüfung nach dem Update', drive: 'Laufwerksprüfung' }[kind]} ${status === 'completed' ? 'abgeschlossen' : 'abgebrochen'}`,
  savedJobTitle: (name, status) => `Gespeicherte Prüfung „${name}“ ${status === 'completed' ? 'abgeschlossen' : 'abgebrochen'}`,
  jobBody: (counts, durationMs) =>
    `${counts.scanned} ${counts.scanned === 1 ? 'Datei' : 'Dateien'} geprüft, ${counts.threats} ${counts.threats === 1 ? 'Bedrohung' : 'Bedrohungen'}, ` +
    `${counts.couldNotScan} nicht prüfbar, ${counts.skipped} übersprungen, in ${duration(durationMs, 'Min.')}.`,
  scheduleSkippedTitle: (kind) => `Geplante ${kind === 'quick' ? 'Schnellprüfung' : 'vollständige Prüfung'} übersprungen`,
  scheduleSkippedBody: (host) =>
    `Ihre Dateien würden an ${host} gesendet, und Verdict fragt Sie vorher. Damit geplante Prüfungen laufen, prüfen Sie einmal selbst und wählen „Für ${host} nicht mehr fragen“, oder schalten Sie die Nachfrage unter Einstellungen › Datenschutz aus.`,
};

/** "42 s", "3 min 5 s", "2 h 10 min" (with the language's word for minutes). */
function duration(ms: number, minutes: string): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} ${minutes} ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} ${minutes}`;
}

export function textsFor(language: ShellLanguage): ShellTexts {
  return language === 'de' ? de : en;
}

/** The language the user chose, with `system` resolved by the core; English when unsure. */
export async function shellLanguage(settings: {
  get(): Promise<{ ok: true; value: { language: 'system' | 'en' | 'de' } } | { ok: false }>;
  systemLanguage(): Promise<{ ok: true; value: 'en' | 'de' } | { ok: false }>;
}): Promise<ShellLanguage> {
  const current = await settings.get();
  if (!current.ok) return 'en';
  if (current.value.language !== 'system') return current.value.language;
  const system = await settings.systemLanguage();
  return system.ok ? system.value : 'en';
}
