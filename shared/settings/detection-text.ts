// The words for the detection settings (issue 28 §2), in English and German: each setting's
// label and one sentence on what it trades, and each problem with a value. One table for the
// window (Settings › Malware engine) and the CLI (`verdict engine-settings`). Pure.
import { DETECTION_BOUNDS, type DetectionSettings } from './detection.ts';

export type DetectionLanguage = 'en' | 'de';

export const DETECTION_FIELDS = ['pua', 'maxFileSizeMb', 'maxScanSizeMb', 'maxRecursion', 'maxFiles', 'scanArchives', 'heuristicAlerts'] as const;
export type DetectionField = (typeof DETECTION_FIELDS)[number];

/** clamd's own option name for each field (shown beside the words: it is what clamd.conf says). */
export const CLAMD_OPTION: Record<DetectionField, string> = {
  pua: 'DetectPUA',
  maxFileSizeMb: 'MaxFileSize',
  maxScanSizeMb: 'MaxScanSize',
  maxRecursion: 'MaxRecursion',
  maxFiles: 'MaxFiles',
  scanArchives: 'ScanArchive',
  heuristicAlerts: 'HeuristicAlerts',
};

interface FieldWords {
  label: string;
  trade: string;
}

interface DetectionWords {
  title: string;
  intro: string;
  fields: Record<DetectionField, FieldWords>;
  puaMode: { all: string; except: string; only: string };
  puaToggle: string;
  categories: string;
  categoriesHint: string;
  on: string;
  off: string;
  save: string;
  defaults: string;
  saved: string;
  restartNote: string;
  readOnly(configPath: string): string;
  notKnown: string;
  remote: string;
  problems: {
    whole(label: string): string;
    min(label: string, min: number): string;
    max(label: string, max: number): string;
    sizes: string;
    category: string;
    onlyNeedsCategory: string;
  };
}

export const DETECTION_WORDS: Record<DetectionLanguage, DetectionWords> = {
  en: {
    title: 'What ClamAV detects and how far it looks',
    intro: "Verdict's own clamd works with these settings; saving one restarts it, and files sent meanwhile wait (“Starting ClamAV…”). Verdicts made under other settings are not reused.",
    fields: {
      pua: { label: 'Potentially unwanted applications (PUA)', trade: 'On finds adware, password tools, remote-access and similar tools too, at the cost of alerts on tools you may use on purpose.' },
      maxFileSizeMb: { label: 'Largest file to scan', trade: 'Higher inspects bigger files and archive members whole; each such file takes longer and more memory. Beyond it, files read “Scanned in part”.' },
      maxScanSizeMb: { label: 'Most data scanned per file', trade: 'Higher inspects more of a big archive; an archive bomb takes longer to give up on. Beyond it, files read “Scanned in part”.' },
      maxRecursion: { label: 'Archive nesting depth', trade: 'Deeper looks into archives inside archives; a crafted archive can keep clamd busy longer. Beyond it, files read “Scanned in part”.' },
      maxFiles: { label: 'Files scanned inside one archive', trade: 'More inspects every member of a big archive; scanning it takes longer. Beyond it, files read “Scanned in part”.' },
      scanArchives: { label: 'Look inside archives', trade: 'Off is faster, but threats packed in ZIP, RAR, 7z and the like are missed, and such archives read as clean.' },
      heuristicAlerts: { label: 'Heuristic alerts', trade: 'On reports suspicious files that no signature names (broken executables, phishing, macros), at the cost of more false alarms.' },
    },
    puaMode: { all: 'every category', except: 'every category except these', only: 'only these categories' },
    puaToggle: 'Detect them',
    categories: 'PUA categories',
    categoriesHint: 'Separated by commas, as ClamAV names them, e.g. Tool, NetTool, PwTool, P2P, RAT, Spy, Packed.',
    on: 'on',
    off: 'off',
    save: 'Save and restart ClamAV',
    defaults: 'Desktop defaults',
    saved: 'Saved.',
    restartNote: "Verdict's own clamd starts again with these settings.",
    readOnly: (configPath) => `The system's clamd scans, as its configuration ${configPath} says; Verdict does not change it.`,
    notKnown: 'Not known: Verdict cannot read the configuration of the clamd in use.',
    remote: 'The remote service decides what it detects.',
    problems: {
      whole: (label) => `${label}: a whole number.`,
      min: (label, min) => `${label}: at least ${min.toLocaleString('en')}.`,
      max: (label, max) => `${label}: at most ${max.toLocaleString('en')}.`,
      sizes: 'The most data scanned per file must be at least the largest file to scan.',
      category: 'A PUA category is one word of letters and digits (e.g. Tool, NetTool, PwTool).',
      onlyNeedsCategory: 'Name at least one PUA category to detect only those.',
    },
  },
  de: {
    title: 'Was ClamAV erkennt und wie weit es hineinschaut',
    intro: 'Verdicts eigener clamd arbeitet mit diesen Einstellungen; Speichern startet ihn neu, und Dateien, die inzwischen kommen, warten („ClamAV startet…“). Urteile unter anderen Einstellungen werden nicht wiederverwendet.',
    fields: {
      pua: { label: 'Potenziell unerwünschte Anwendungen (PUA)', trade: 'Ein findet auch Adware, Passwort-Werkzeuge, Fernwartungs- und ähnliche Programme, um den Preis von Meldungen zu Werkzeugen, die Sie absichtlich nutzen.' },
      maxFileSizeMb: { label: 'Größte geprüfte Datei', trade: 'Höher prüft größere Dateien und Archivinhalte ganz; jede davon braucht länger und mehr Speicher. Darüber heißen Dateien „Teilweise geprüft“.' },
      maxScanSizeMb: { label: 'Höchstens geprüfte Daten je Datei', trade: 'Höher prüft mehr von einem großen Archiv; bei einer Archivbombe dauert es länger, bis ClamAV aufgibt. Darüber heißen Dateien „Teilweise geprüft“.' },
      maxRecursion: { label: 'Verschachtelungstiefe von Archiven', trade: 'Tiefer schaut in Archive in Archiven; ein präpariertes Archiv kann clamd länger beschäftigen. Darüber heißen Dateien „Teilweise geprüft“.' },
      maxFiles: { label: 'Geprüfte Dateien je Archiv', trade: 'Mehr prüft jeden Teil eines großen Archivs; das dauert länger. Darüber heißen Dateien „Teilweise geprüft“.' },
      scanArchives: { label: 'In Archive hineinschauen', trade: 'Aus ist schneller, aber Bedrohungen in ZIP, RAR, 7z und ähnlichen werden übersehen, und solche Archive gelten als sauber.' },
      heuristicAlerts: { label: 'Heuristische Meldungen', trade: 'Ein meldet verdächtige Dateien, die keine Signatur benennt (defekte Programme, Phishing, Makros), um den Preis von mehr Fehlalarmen.' },
    },
    puaMode: { all: 'alle Kategorien', except: 'alle Kategorien außer diesen', only: 'nur diese Kategorien' },
    puaToggle: 'Erkennen',
    categories: 'PUA-Kategorien',
    categoriesHint: 'Durch Kommas getrennt, wie ClamAV sie nennt, z. B. Tool, NetTool, PwTool, P2P, RAT, Spy, Packed.',
    on: 'ein',
    off: 'aus',
    save: 'Speichern und ClamAV neu starten',
    defaults: 'Desktop-Voreinstellungen',
    saved: 'Gespeichert.',
    restartNote: 'Verdicts eigener clamd startet mit diesen Einstellungen neu.',
    readOnly: (configPath) => `Der clamd des Systems prüft, wie seine Konfiguration ${configPath} sagt; Verdict ändert sie nicht.`,
    notKnown: 'Unbekannt: Verdict kann die Konfiguration des verwendeten clamd nicht lesen.',
    remote: 'Der entfernte Dienst entscheidet, was er erkennt.',
    problems: {
      whole: (label) => `${label}: eine ganze Zahl.`,
      min: (label, min) => `${label}: mindestens ${min.toLocaleString('de')}.`,
      max: (label, max) => `${label}: höchstens ${max.toLocaleString('de')}.`,
      sizes: 'Die höchstens geprüften Daten je Datei müssen mindestens so groß sein wie die größte geprüfte Datei.',
      category: 'Eine PUA-Kategorie ist ein Wort aus Buchstaben und Ziffern (z. B. Tool, NetTool, PwTool).',
      onlyNeedsCategory: 'Nennen Sie mindestens eine PUA-Kategorie, um nur diese zu erkennen.',
    },
  },
};

type NumberField = keyof typeof DETECTION_BOUNDS;

/** The first problem with settings typed in, in the given language (null: none); the same checks as the schema's. */
export function detectionProblemText(settings: DetectionSettings, language: DetectionLanguage): { field: DetectionField | 'categories'; text: string } | null {
  const words = DETECTION_WORDS[language];
  for (const field of Object.keys(DETECTION_BOUNDS) as NumberField[]) {
    const value = settings[field];
    const label = words.fields[field].label;
    const { min, max } = DETECTION_BOUNDS[field];
    if (!Number.isInteger(value)) return { field, text: words.problems.whole(label) };
    if (value < min) return { field, text: words.problems.min(label, min) };
    if (value > max) return { field, text: words.problems.max(label, max) };
  }
  if (settings.maxScanSizeMb < settings.maxFileSizeMb) return { field: 'maxScanSizeMb', text: words.problems.sizes };
  if (settings.pua.categories.some((category) => !/^[A-Za-z0-9]{1,31}$/.test(category))) return { field: 'categories', text: words.problems.category };
  if (settings.pua.enabled && settings.pua.mode === 'only' && settings.pua.categories.length === 0) return { field: 'categories', text: words.problems.onlyNeedsCategory };
  return null;
}

/** One line per setting, `Label (ClamdOption): value`, for the CLI and read-only views. */
export function detectionLines(settings: DetectionSettings, language: DetectionLanguage): string[] {
  const words = DETECTION_WORDS[language];
  const onOff = (value: boolean) => (value ? words.on : words.off);
  const pua = settings.pua;
  const puaValue = !pua.enabled ? words.off : pua.mode === 'all' || pua.categories.length === 0 ? `${words.on}, ${words.puaMode.all}` : `${words.on}, ${words.puaMode[pua.mode]}: ${pua.categories.join(', ')}`;
  const values: Record<DetectionField, string> = {
    pua: puaValue,
    maxFileSizeMb: `${settings.maxFileSizeMb} MB`,
    maxScanSizeMb: `${settings.maxScanSizeMb} MB`,
    maxRecursion: String(settings.maxRecursion),
    maxFiles: String(settings.maxFiles),
    scanArchives: onOff(settings.scanArchives),
    heuristicAlerts: onOff(settings.heuristicAlerts),
  };
  return DETECTION_FIELDS.map((field) => `${words.fields[field].label} (${CLAMD_OPTION[field]}): ${values[field]}`);
}
