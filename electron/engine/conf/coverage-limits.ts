// Which scan limits a clamd works under, and whether it reports what lies beyond them (issue 27 §3):
// Verdict's own clamd is told to (clamd-config.ts: "scanned in part"); a system clamd is read from
// its clamd.conf and never changed; where that cannot be read, the limits are unknown.
import { readFileSync } from 'node:fs';
import type { EngineSource } from '../../../shared/engine/protection-state.ts';
import type { CoverageLimits } from '../../../shared/scans/coverage.ts';
import type { Language } from '../../../shared/service-contract/limits.ts';
import { OWN_CLAMD_LIMITS } from '../own-clamd/clamd-config.ts';
import { parseClamdConf, SYSTEM_CLAMD_CONF } from './system-clamd-conf.ts';
import { readDetectionConf } from './detection-conf.ts';

export type { CoverageLimits };

/** clamd's own defaults (ClamAV 1.x, clamd.conf.sample). */
const CLAMD_DEFAULTS = { maxFileSize: '100M', maxScanSize: '400M', maxRecursion: '17', maxFiles: '10000' };

const yes = (value: string | undefined) => value !== undefined && /^(yes|true|1)$/i.test(value);

/**
 * The limits of the clamd in use, or null when they are unknown (a configured clamd, an unreadable config file, basic checks).
 * `ownConfigPath`: the clamd.conf Verdict wrote for its own clamd (the user's limits, issue 28 §2).
 */
export function coverageLimitsFor(source: EngineSource, systemConfigPath: string = SYSTEM_CLAMD_CONF, ownConfigPath?: string): CoverageLimits | null {
  if (source === 'own') {
    const own = ownConfigPath === undefined ? null : readDetectionConf(ownConfigPath);
    const sizes = own
      ? { maxFileSize: `${own.maxFileSizeMb}M`, maxScanSize: `${own.maxScanSizeMb}M`, maxRecursion: String(own.maxRecursion), maxFiles: String(own.maxFiles) }
      : { ...CLAMD_DEFAULTS, maxFileSize: OWN_CLAMD_LIMITS.maxFileSize, maxScanSize: OWN_CLAMD_LIMITS.maxScanSize };
    return { ...sizes, reported: { limits: true, encrypted: true }, configPath: null };
  }
  if (source !== 'system') return null;
  let text: string;
  try {
    text = readFileSync(systemConfigPath, 'utf8');
  } catch {
    return null;
  }
  const settings = parseClamdConf(text);
  return {
    maxFileSize: settings.get('maxfilesize') ?? CLAMD_DEFAULTS.maxFileSize,
    maxScanSize: settings.get('maxscansize') ?? CLAMD_DEFAULTS.maxScanSize,
    maxRecursion: settings.get('maxrecursion') ?? CLAMD_DEFAULTS.maxRecursion,
    maxFiles: settings.get('maxfiles') ?? CLAMD_DEFAULTS.maxFiles,
    reported: { limits: yes(settings.get('alertexceedsmax')), encrypted: yes(settings.get('alertencryptedarchive')) || yes(settings.get('alertencrypted')) },
    configPath: systemConfigPath,
  };
}

/** One sentence for `status` (and the engine details): the limits, and what happens to files beyond them. */
export function coverageLimitsText(limits: CoverageLimits | null, language: Language = 'en'): string {
  const de = language === 'de';
  if (limits === null) {
    return de
      ? 'unbekannt: Die Konfiguration dieses clamd ist nicht lesbar; Dateien über seinen Grenzen oder verschlüsselte Archive können als sauber erscheinen.'
      : 'unknown: this clamd’s configuration cannot be read; files over its limits, or encrypted archives, may read as clean.';
  }
  const values = `MaxFileSize ${limits.maxFileSize}, MaxScanSize ${limits.maxScanSize}, MaxRecursion ${limits.maxRecursion}, MaxFiles ${limits.maxFiles}`;
  const from = limits.configPath ? (de ? ` (aus ${limits.configPath})` : ` (from ${limits.configPath})`) : '';
  const { limits: over, encrypted } = limits.reported;
  if (over && encrypted) {
    return de ? `${values}${from}; Dateien darüber und verschlüsselte Archive heißen „Teilweise geprüft“.` : `${values}${from}; files beyond them and encrypted archives read “Scanned in part”.`;
  }
  const off = [...(over ? [] : ['AlertExceedsMax']), ...(encrypted ? [] : ['AlertEncryptedArchive'])];
  const missing = `${off.join(de ? ' und ' : ' and ')} ${off.length > 1 ? (de ? 'sind' : 'are') : de ? 'ist' : 'is'}`;
  const what = !over && !encrypted ? (de ? 'Dateien darüber und verschlüsselte Archive' : 'files beyond them and encrypted archives') : !over ? (de ? 'Dateien darüber' : 'files beyond them') : de ? 'verschlüsselte Archive' : 'encrypted archives';
  return de
    ? `${values}${from}; ${what} werden nicht gemeldet: clamd antwortet OK, und sie erscheinen als sauber (${missing} aus; Verdict ändert die Datei nicht).`
    : `${values}${from}; ${what} are not reported: clamd answers OK and they read as clean (${missing} off; Verdict does not change that file).`;
}
