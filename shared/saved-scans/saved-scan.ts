// Saved scans (issue 29 §3): a custom scan kept under a name, with its folders, the folders
// it leaves out and its options, run from the window, the tray and `verdict scan --saved NAME`.
// Declared once here; the export file's shape and the import's checks, which name each
// problem by where it is, are here too (the core and the CLI share them).
import { z } from 'zod';
import { modeChoiceSchema } from '../scans/record.ts';
import { nextDue, scheduleSchema } from '../settings/schedules.ts';

export const MAX_SAVED_SCANS = 200;
export const MAX_SAVED_SCAN_NAME = 80;

/** A name a person typed: trimmed, not empty, no control or bidi characters (it is shown in menus and lines of the CLI). */
export const savedScanNameSchema = z
  .string()
  .trim()
  .min(1, 'a name is needed')
  .max(MAX_SAVED_SCAN_NAME, `at most ${MAX_SAVED_SCAN_NAME} characters`)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a name may not hold
  .refine((name) => !/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(name), 'no control or direction characters');

/** An absolute path (POSIX or Windows): a saved scan runs later, from anywhere. */
const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith('\\\\'), 'an absolute path');

export const savedScanSchema = z
  .object({
    name: savedScanNameSchema,
    folders: z.array(absolutePath).min(1, 'at least one folder or file').max(1000),
    /** Folders inside those that are left out (each one met is a skipped row). */
    excluded: z.array(absolutePath).max(1000).default([]),
    /** Scan with basic checks only when ClamAV, known here, is not available. */
    basicOnly: z.boolean().default(false),
    /** Bypass verdict reuse: every file is scanned again. */
    force: z.boolean().default(false),
    mode: modeChoiceSchema.default('auto'),
    /** When it runs by itself, like the quick and full scans' schedules (caught up once, never twice at once). */
    schedule: scheduleSchema.default({ repeat: 'off' }),
  })
  .strict();
export type SavedScan = z.infer<typeof savedScanSchema>;
export type SavedScanInput = z.input<typeof savedScanSchema>;

/** The export file: `{"verdict": "saved-scans", "version": 1, "scans": [...]}`. */
export const SAVED_SCANS_FILE_VERSION = 1;
export interface SavedScansFile {
  verdict: 'saved-scans';
  version: typeof SAVED_SCANS_FILE_VERSION;
  scans: SavedScan[];
}

export function savedScansFile(scans: readonly SavedScan[]): SavedScansFile {
  return { verdict: 'saved-scans', version: SAVED_SCANS_FILE_VERSION, scans: [...scans] };
}

/** The soonest scheduled run among the saved scans strictly after `after` (ms), or null when none is scheduled. */
export function nextSavedScan(scans: ReadonlyArray<Pick<SavedScan, 'name' | 'schedule'>>, after: number): { name: string; at: number } | null {
  let best: { name: string; at: number } | null = null;
  for (const scan of scans) {
    const at = nextDue(scan.schedule, after);
    if (at !== null && (best === null || at < best.at)) best = { name: scan.name, at };
  }
  return best;
}

/** Names compare without case: "Photos" and "photos" are one saved scan. */
export const sameName = (a: string, b: string): boolean => a.trim().toLocaleLowerCase('en') === b.trim().toLocaleLowerCase('en');

/** One problem of an import, where it is (`scans[2].folders[0]`) and what is wrong, in English. */
export interface ImportProblem {
  where: string;
  problem: string;
}

export type ImportCheck = { ok: true; scans: SavedScan[] } | { ok: false; problems: ImportProblem[] };

const fileHeadSchema = z.object({ verdict: z.literal('saved-scans'), version: z.literal(SAVED_SCANS_FILE_VERSION), scans: z.array(z.unknown()).max(MAX_SAVED_SCANS) }).strict();

/** Checks an export file's text: every problem is named (nothing is imported unless all is well). */
export function checkImport(text: string): ImportCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problems: [{ where: 'file', problem: 'not JSON' }] };
  }
  const head = fileHeadSchema.safeParse(value);
  if (!head.success) return { ok: false, problems: head.error.issues.map((issue) => ({ where: whereOf(issue.path), problem: issue.message })) };
  const problems: ImportProblem[] = [];
  const scans: SavedScan[] = [];
  // Names are compared among every entry that has a usable one, even when the entry has other problems.
  const named: Array<{ index: number; name: string }> = [];
  head.data.scans.forEach((raw, index) => {
    const parsed = savedScanSchema.safeParse(raw);
    if (!parsed.success) for (const issue of parsed.error.issues) problems.push({ where: whereOf(['scans', index, ...issue.path]), problem: issue.message });
    else scans.push(parsed.data);
    const name = savedScanNameSchema.safeParse((raw as { name?: unknown } | null)?.name);
    if (!name.success) return;
    const earlier = named.find((other) => sameName(other.name, name.data));
    if (earlier) problems.push({ where: whereOf(['scans', index, 'name']), problem: `the same name as scans[${earlier.index}]` });
    else named.push({ index, name: name.data });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, scans };
}

function whereOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || 'file';
}
