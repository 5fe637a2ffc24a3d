// The detection settings (shared/settings/detection.ts) as clamd.conf lines, and back: Verdict
// writes them for its own clamd, and reads them from a clamd.conf (its own, for the engine
// identity and the limits shown; a system clamd's, shown read-only, never changed).
import { readFileSync } from 'node:fs';
import { DEFAULT_DETECTION, detectionKey, puaCategories, type DetectionSettings } from '../../../shared/settings/detection.ts';
import { parseSize } from './system-clamd-conf.ts';

/** clamd's own values when its config does not set one (ClamAV 1.x, clamd.conf.sample). */
const CLAMD_DEFAULT_DETECTION: DetectionSettings = {
  pua: { enabled: false, mode: 'all', categories: [] },
  maxFileSizeMb: 100,
  maxScanSizeMb: 400,
  maxRecursion: 17,
  maxFiles: 10_000,
  scanArchives: true,
  heuristicAlerts: true,
};

const MIB = 1024 * 1024;

/** The lines for Verdict's own clamd.conf. `sizes` (tests) replaces the sizes, in clamd's form (`1M`). */
export function detectionConfigLines(settings: DetectionSettings = DEFAULT_DETECTION, sizes: { maxFileSize?: string; maxScanSize?: string; maxRecursion?: number; maxFiles?: number } = {}): string[] {
  const pua = settings.pua;
  const categories = pua.enabled && pua.mode !== 'all' ? puaCategories(pua) : [];
  const option = pua.mode === 'only' ? 'IncludePUA' : 'ExcludePUA';
  return [
    `MaxFileSize ${sizes.maxFileSize ?? `${settings.maxFileSizeMb}M`}`,
    `MaxScanSize ${sizes.maxScanSize ?? `${settings.maxScanSizeMb}M`}`,
    `MaxRecursion ${sizes.maxRecursion ?? settings.maxRecursion}`,
    `MaxFiles ${sizes.maxFiles ?? settings.maxFiles}`,
    `ScanArchive ${settings.scanArchives ? 'yes' : 'no'}`,
    `HeuristicAlerts ${settings.heuristicAlerts ? 'yes' : 'no'}`,
    `DetectPUA ${pua.enabled ? 'yes' : 'no'}`,
    ...categories.map((category) => `${option} ${category}`),
  ];
}

/** Every value of each option (ExcludePUA and IncludePUA may repeat); names lower-cased. */
function confValues(text: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const raw of text.split('\n')) {
    const match = /^\s*([A-Za-z]\S*)\s+(.*?)\s*$/.exec(raw);
    if (!match?.[1] || match[2] === undefined) continue;
    const name = match[1].toLowerCase();
    values.set(name, [...(values.get(name) ?? []), match[2]]);
  }
  return values;
}

const isYes = (value: string | undefined, otherwise: boolean) => (value === undefined ? otherwise : /^(yes|true|1|on)$/i.test(value));

/** What a clamd.conf's text says, clamd's defaults where it says nothing. */
export function detectionFromConf(text: string): DetectionSettings {
  const values = confValues(text);
  const last = (name: string) => values.get(name)?.at(-1);
  const mb = (name: string, otherwise: number) => {
    const value = last(name);
    const bytes = value === undefined ? null : parseSize(value);
    return bytes === null ? otherwise : Math.round((bytes / MIB) * 1000) / 1000;
  };
  const count = (name: string, otherwise: number) => {
    const value = last(name);
    return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : otherwise;
  };
  const include = values.get('includepua') ?? [];
  const exclude = values.get('excludepua') ?? [];
  const d = CLAMD_DEFAULT_DETECTION;
  return {
    pua: {
      enabled: isYes(last('detectpua'), false),
      mode: include.length > 0 ? 'only' : exclude.length > 0 ? 'except' : 'all',
      categories: include.length > 0 ? include : exclude,
    },
    maxFileSizeMb: mb('maxfilesize', d.maxFileSizeMb),
    maxScanSizeMb: mb('maxscansize', d.maxScanSizeMb),
    maxRecursion: count('maxrecursion', d.maxRecursion),
    maxFiles: count('maxfiles', d.maxFiles),
    scanArchives: isYes(last('scanarchive'), d.scanArchives),
    heuristicAlerts: isYes(last('heuristicalerts'), d.heuristicAlerts),
  };
}

/** The settings a clamd.conf file holds; null when it cannot be read. */
export function readDetectionConf(configPath: string): DetectionSettings | null {
  try {
    return detectionFromConf(readFileSync(configPath, 'utf8'));
  } catch {
    return null;
  }
}

/** The identity's detection key of the clamd that runs on this config file (undefined: the defaults, or unreadable). */
export function detectionKeyOfConf(configPath: string): string | undefined {
  const settings = readDetectionConf(configPath);
  return settings === null ? undefined : detectionKey(settings);
}
