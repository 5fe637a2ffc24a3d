// What Verdict says when the disk under its data folder is full, in English and
// German: the CLI's last line, the app's notice during a run and its dialog
// when it could not start or had to stop. Each names the folder and what to do. The English `problem` is also
// the message of DataDiskFullError (a Result's message, the logs).
import type { Language } from '../../shared/service-contract/limits.ts';

export interface DiskFullTexts {
  /** The plain statement, for a Result's message and the logs. */
  problem(dataDir: string): string;
  /** A CLI run (scan, watch) that stopped or could not start: run it again once there is space. */
  cli(dataDir: string): string;
  /** The app's notice while it runs. */
  noticeTitle: string;
  noticeBody(dataDir: string): string;
  /** The app could not start, or stopped: the dialog's title, and its text. */
  startTitle: string;
  stoppedTitle: string;
  restartBody(dataDir: string): string;
}

const en: DiskFullTexts = {
  problem: (dir) => `The disk that holds Verdict's data folder (${dir}) is full.`,
  cli: (dir) =>
    `Stopped: the disk that holds Verdict's data folder (${dir}) is full. ` +
    'Free up space on that disk and run the same command again: a scan continues where it stopped. ' +
    'Or choose a data folder on another disk with --data-dir (a scan then starts over there).',
  noticeTitle: "Verdict's disk is full",
  noticeBody: (dir) => `The disk that holds Verdict's data folder (${dir}) is full, so scans cannot be recorded. Free up space on that disk, then quit and start Verdict again: unfinished scans continue.`,
  startTitle: 'Verdict could not start',
  stoppedTitle: 'Verdict stopped',
  restartBody: (dir) => `The disk that holds Verdict's data folder (${dir}) is full. Free up space on that disk and start Verdict again: unfinished scans continue.`,
};

const de: DiskFullTexts = {
  problem: (dir) => `Der Datenträger mit Verdicts Datenordner (${dir}) ist voll.`,
  cli: (dir) =>
    `Angehalten: Der Datenträger mit Verdicts Datenordner (${dir}) ist voll. ` +
    'Geben Sie auf diesem Datenträger Speicherplatz frei und führen Sie denselben Befehl erneut aus: Eine Prüfung wird dort fortgesetzt, wo sie angehalten hat. ' +
    'Oder wählen Sie mit --data-dir einen Datenordner auf einem anderen Datenträger (eine Prüfung beginnt dort von vorn).',
  noticeTitle: 'Verdicts Datenträger ist voll',
  noticeBody: (dir) =>
    `Der Datenträger mit Verdicts Datenordner (${dir}) ist voll, daher können Prüfungen nicht gespeichert werden. Geben Sie auf diesem Datenträger Speicherplatz frei, beenden Sie Verdict und starten Sie es neu: Unvollständige Prüfungen werden fortgesetzt.`,
  startTitle: 'Verdict konnte nicht starten',
  stoppedTitle: 'Verdict wurde beendet',
  restartBody: (dir) => `Der Datenträger mit Verdicts Datenordner (${dir}) ist voll. Geben Sie auf diesem Datenträger Speicherplatz frei und starten Sie Verdict erneut: Unvollständige Prüfungen werden fortgesetzt.`,
};

export function diskFullTexts(language: Language): DiskFullTexts {
  return language === 'de' ? de : en;
}
