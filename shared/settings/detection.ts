// What Verdict's own clamd detects and how far it looks (issue 28 §2): PUA on/off and by
// category (clamd's DetectPUA, ExcludePUA, IncludePUA), the scan limits, archives and
// heuristic alerts. Verdict writes them into its clamd.conf (own-clamd/clamd-config.ts);
// a system clamd's are only read. `detectionKey()` names a set of them in the engine
// identity, so verdicts made under other settings are not reused.
import { z } from 'zod';

/** ClamAV's PUA categories (clamav-faq, faq-pua.md): the second or third part of a `PUA.` name, e.g. `PUA.Win.Tool.…`. */
export const PUA_CATEGORIES = ['Andr', 'Packed', 'PwTool', 'Tool', 'NetTool', 'P2P', 'IRC', 'RAT', 'Spy', 'Server', 'Script', 'Win', 'Osx', 'Unix', 'Doc', 'Email', 'Java'] as const;

/** clamd's bounds, and ours: ClamAV cannot scan a file over 2 GB; 0 ("no limit") is never offered. */
export const DETECTION_BOUNDS = {
  maxFileSizeMb: { min: 1, max: 2000 },
  maxScanSizeMb: { min: 1, max: 4000 },
  maxRecursion: { min: 1, max: 100 },
  maxFiles: { min: 1, max: 1_000_000 },
} as const;

type Bounded = keyof typeof DETECTION_BOUNDS;

const bounded = (field: Bounded, what: string) => {
  const { min, max } = DETECTION_BOUNDS[field];
  return z
    .number({ error: `${what} must be a whole number.` })
    .int(`${what} must be a whole number.`)
    .min(min, `${what} must be at least ${min}.`)
    .max(max, `${what} must be at most ${grouped(max)}.`);
};

/** 1,000,000 as English writes it; not toLocaleString, whose first call loads ICU's number data (~30 ms at every start). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

const categorySchema = z.string().regex(/^[A-Za-z0-9]{1,31}$/, 'A PUA category is one word of letters and digits (e.g. Tool, NetTool, PwTool).');

/**
 * `mode`: `all` loads every PUA signature; `except` all but `categories` (ExcludePUA);
 * `only` just `categories` (IncludePUA). Ignored while `enabled` is false.
 */
export const puaSettingsSchema = z
  .object({
    enabled: z.boolean(),
    mode: z.enum(['all', 'except', 'only']),
    categories: z.array(categorySchema).max(32, 'At most 32 PUA categories.'),
  })
  .refine((pua) => !pua.enabled || pua.mode !== 'only' || pua.categories.length > 0, { message: 'Name at least one PUA category to detect only those.', path: ['categories'] });

const detectionShape = z.object({
  pua: puaSettingsSchema,
  /** clamd's MaxFileSize, in MiB: larger files (and larger files inside archives) are not scanned beyond it. */
  maxFileSizeMb: bounded('maxFileSizeMb', 'The largest file to scan (MaxFileSize, MB)'),
  /** MaxScanSize, in MiB: the most data read from one file, its archive members included. */
  maxScanSizeMb: bounded('maxScanSizeMb', 'The most data scanned per file (MaxScanSize, MB)'),
  /** MaxRecursion: archives inside archives, this deep. */
  maxRecursion: bounded('maxRecursion', 'The archive nesting depth (MaxRecursion)'),
  /** MaxFiles: files scanned inside one archive or document. */
  maxFiles: bounded('maxFiles', 'The files scanned inside one archive (MaxFiles)'),
  /** ScanArchive. */
  scanArchives: z.boolean(),
  /** HeuristicAlerts (broken executables, phishing, macros…; not the "scanned in part" alerts). */
  heuristicAlerts: z.boolean(),
});

const checkSizes = (value: { maxFileSizeMb: number; maxScanSizeMb: number }) => value.maxScanSizeMb >= value.maxFileSizeMb;
const SIZES_PROBLEM = { message: 'The most data scanned per file (MaxScanSize) must be at least the largest file to scan (MaxFileSize).', path: ['maxScanSizeMb'] };

export const detectionSettingsSchema = detectionShape.refine(checkSizes, SIZES_PROBLEM);
export type DetectionSettings = z.infer<typeof detectionSettingsSchema>;
export type PuaSettings = z.infer<typeof puaSettingsSchema>;

/**
 * The desktop defaults: what Verdict's own clamd ran with before this setting (so verdicts made
 * then still stand): no PUA, files up to 120 MB (above the service's 100 MB uploads), 400 MB per
 * file, clamd's own depth and file count, archives and heuristics on.
 */
export const DEFAULT_DETECTION: DetectionSettings = {
  pua: { enabled: false, mode: 'all', categories: [] },
  maxFileSizeMb: 120,
  maxScanSizeMb: 400,
  maxRecursion: 17,
  maxFiles: 10_000,
  scanArchives: true,
  heuristicAlerts: true,
};

/** The settings file's field: every part has its default, so older files parse unchanged. */
export const detectionSettingsFieldSchema = z
  .object({
    pua: puaSettingsSchema.default(DEFAULT_DETECTION.pua),
    maxFileSizeMb: detectionShape.shape.maxFileSizeMb.default(DEFAULT_DETECTION.maxFileSizeMb),
    maxScanSizeMb: detectionShape.shape.maxScanSizeMb.default(DEFAULT_DETECTION.maxScanSizeMb),
    maxRecursion: detectionShape.shape.maxRecursion.default(DEFAULT_DETECTION.maxRecursion),
    maxFiles: detectionShape.shape.maxFiles.default(DEFAULT_DETECTION.maxFiles),
    scanArchives: detectionShape.shape.scanArchives.default(DEFAULT_DETECTION.scanArchives),
    heuristicAlerts: detectionShape.shape.heuristicAlerts.default(DEFAULT_DETECTION.heuristicAlerts),
  })
  .refine(checkSizes, SIZES_PROBLEM);

/** Categories as clamd matches them: each once, in the order given. */
export function puaCategories(pua: PuaSettings): string[] {
  return [...new Set(pua.categories)];
}

/**
 * The settings as one short canonical text, for the engine identity; undefined for the defaults,
 * so verdicts made before the setting existed (under exactly these) keep standing.
 */
export function detectionKey(settings: DetectionSettings): string | undefined {
  const pua = !settings.pua.enabled ? 'off' : settings.pua.mode === 'all' || settings.pua.categories.length === 0 ? 'all' : `${settings.pua.mode}:${[...puaCategories(settings.pua)].sort().join(',')}`;
  const key = `pua=${pua};fs=${settings.maxFileSizeMb};ss=${settings.maxScanSizeMb};r=${settings.maxRecursion};f=${settings.maxFiles};a=${settings.scanArchives ? 1 : 0};h=${settings.heuristicAlerts ? 1 : 0}`;
  return key === DEFAULT_KEY ? undefined : key;
}

const DEFAULT_KEY = 'pua=off;fs=120;ss=400;r=17;f=10000;a=1;h=1';

/** The first problem with a value, as the sentence the schema gives (null: valid). */
export function detectionProblem(value: unknown): string | null {
  const parsed = detectionSettingsSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Not valid detection settings.');
}
