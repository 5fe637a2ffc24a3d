// `verdict engine-settings [changes]`: what Verdict's own clamd detects and how far it looks
// (issue 28 §2: PUA by category, scan limits, archives, heuristics), each with what it trades;
// with options, changes them in the settings (checked by the same schema as the window's). The
// clamd in use is named too: a system clamd's values read-only, as its clamd.conf says.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DETECTION, detectionSettingsSchema, type DetectionSettings } from '../../shared/settings/detection.ts';
import { DETECTION_FIELDS, DETECTION_WORDS, detectionLines, detectionProblemText } from '../../shared/settings/detection-text.ts';
import type { DetectionView } from '../../shared/engine/protection-state.ts';
import { acquireDataDirLock, DataDirInUseError } from '../core/data-dir-lock.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { engineStatus } from '../engine/engine-status.ts';
import { openSettings } from '../settings/settings-store.ts';
import { dataDirLanguage } from './cli-language.ts';
import { CliExit, runCli, type CliIo } from './cli-options.ts';

export const ENGINE_SETTINGS_USAGE = `Usage: verdict engine-settings [options]

Shows what Verdict's own clamd detects and how far it looks, with what each setting trades, and
the clamd in use (a system clamd's values as its clamd.conf says; Verdict never changes that file).
With options, changes the settings; Verdict's own clamd starts with them (change them in the
window's Settings while Verdict runs: it restarts its clamd at once, files sent meanwhile wait).

Options:
  --pua on|off           potentially unwanted applications (DetectPUA)
  --pua-except CATS      every PUA category except these, comma-separated (ExcludePUA), e.g. Tool,NetTool
  --pua-only CATS        only these PUA categories (IncludePUA)
  --pua-all              every PUA category
  --max-file-size MB     the largest file to scan (MaxFileSize)
  --max-scan-size MB     the most data scanned per file (MaxScanSize)
  --max-recursion N      archive nesting depth (MaxRecursion)
  --max-files N          files scanned inside one archive (MaxFiles)
  --archives on|off      look inside archives (ScanArchive)
  --heuristics on|off    heuristic alerts (HeuristicAlerts)
  --defaults             the desktop defaults (then any other options on top)
  --json                 one JSON object: {"settings", "changed", "inUse"}
  --data-dir DIR         settings (default: ${defaultDataDir()})
  -h, --help             this text

Exit codes: 0 shown or saved; 1 could not be saved (Verdict runs on this data directory, or its
settings file is read-only); 2 bad arguments or values.`;

const OPTIONS = {
  pua: { type: 'string' },
  'pua-except': { type: 'string' },
  'pua-only': { type: 'string' },
  'pua-all': { type: 'boolean', default: false },
  'max-file-size': { type: 'string' },
  'max-scan-size': { type: 'string' },
  'max-recursion': { type: 'string' },
  'max-files': { type: 'string' },
  archives: { type: 'string' },
  heuristics: { type: 'string' },
  defaults: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = ReturnType<typeof parse>['values'];

export function runEngineSettings(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => engineSettings(argv, io));
}

function parse(argv: string[]) {
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: false, strict: true, options: OPTIONS });
    if (parsed.values.help) throw new CliExit(ENGINE_SETTINGS_USAGE, 0);
    return parsed;
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(`${(error as Error).message}\n\n${ENGINE_SETTINGS_USAGE}`);
  }
}

const onOff = (option: string, value: string | undefined): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new CliExit(`--${option} takes on or off, not "${value}".`);
};

/** A number as typed: the schema's bounds come after, worded in the user's language. */
const number = (value: string | undefined): number | undefined => (value === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN);

const categories = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** The settings after the options; null when no option asks for a change. */
function changed(current: DetectionSettings, values: Values): DetectionSettings | null {
  const puaModes = [values['pua-except'] !== undefined, values['pua-only'] !== undefined, values['pua-all']].filter(Boolean).length;
  if (puaModes > 1) throw new CliExit('Give one of --pua-except, --pua-only and --pua-all.');
  const base = values.defaults ? DEFAULT_DETECTION : current;
  const pua = { ...base.pua, categories: [...base.pua.categories] };
  const enabled = onOff('pua', values.pua);
  if (enabled !== undefined) pua.enabled = enabled;
  if (values['pua-except'] !== undefined) Object.assign(pua, { enabled: enabled ?? true, mode: 'except', categories: categories(values['pua-except']) });
  if (values['pua-only'] !== undefined) Object.assign(pua, { enabled: enabled ?? true, mode: 'only', categories: categories(values['pua-only']) });
  if (values['pua-all']) Object.assign(pua, { enabled: enabled ?? true, mode: 'all', categories: [] });
  const next: DetectionSettings = {
    pua,
    maxFileSizeMb: number(values['max-file-size']) ?? base.maxFileSizeMb,
    maxScanSizeMb: number(values['max-scan-size']) ?? base.maxScanSizeMb,
    maxRecursion: number(values['max-recursion']) ?? base.maxRecursion,
    maxFiles: number(values['max-files']) ?? base.maxFiles,
    scanArchives: onOff('archives', values.archives) ?? base.scanArchives,
    heuristicAlerts: onOff('heuristics', values.heuristics) ?? base.heuristicAlerts,
  };
  const asked = values.defaults || Object.keys(values).some((key) => !['json', 'data-dir', 'help', 'defaults', 'pua-all'].includes(key)) || values['pua-all'];
  return asked ? next : null;
}

async function engineSettings(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));
  const language = dataDirLanguage(dataDir, io.env);
  const words = DETECTION_WORDS[language];
  const store = await openSettings(dataDir);
  let settings = store.get().detection;
  const next = changed(settings, values);
  if (next !== null) {
    const problem = detectionProblemText(next, language);
    if (problem) throw new CliExit(problem.text);
    settings = await save(dataDir, store, detectionSettingsSchema.parse(next));
  }
  const inUse = await clamdInUse(dataDir);
  if (values.json) {
    io.stdout(JSON.stringify({ settings, changed: next !== null, inUse: inUse === 'none' ? null : inUse === null ? { source: 'unknown' } : inUse }));
    return 0;
  }
  io.stdout(`${words.title}:`);
  const lines = detectionLines(settings, language);
  DETECTION_FIELDS.forEach((field, index) => {
    io.stdout(`  ${lines[index]}`);
    io.stdout(`      ${words.fields[field].trade}`);
  });
  if (next !== null) io.stdout(`${words.saved} ${words.restartNote}`);
  if (inUse !== 'none' && inUse?.source === 'system') {
    io.stdout('');
    io.stdout(words.readOnly(inUse.configPath));
    for (const line of detectionLines(inUse.settings, language)) io.stdout(`  ${line}`);
  } else if (inUse === null) {
    io.stdout('');
    io.stdout(words.notKnown);
  }
  return 0;
}

/** Saved under the data directory's lock: a running Verdict holds it and would write its own settings over these. */
async function save(dataDir: string, store: Awaited<ReturnType<typeof openSettings>>, detection: DetectionSettings): Promise<DetectionSettings> {
  let lock;
  try {
    lock = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new CliExit(`${error.message} Change these settings in its window (Settings › Malware engine).`, 1);
    throw error;
  }
  try {
    const saved = await store.update({ detection });
    if (!saved.ok) throw new CliExit(saved.error.message, 1);
    return saved.value.detection;
  } finally {
    lock.release();
  }
}

/**
 * What the clamd that would scan now detects: Verdict's own (its settings), a system one (read-only),
 * null (a clamd whose configuration is not known) or `none` (no ClamAV). Starts nothing.
 */
async function clamdInUse(dataDir: string): Promise<DetectionView | null | 'none'> {
  const found = await engineStatus({ kind: 'auto', dataDir, startOwn: false }).catch(() => null);
  const status = found?.status;
  if (!status || status.engine.name !== 'clamav') return 'none';
  if (status.detection) return status.detection;
  // Not running yet: Verdict's own clamd starts with the settings.
  return status.engine.source === 'own' ? { settings: (await openSettings(dataDir)).get().detection, source: 'own', configPath: '' } : null;
}
