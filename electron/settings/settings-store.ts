// The user's settings in `<dataDir>/settings.json`: validated on read (a
// damaged file is set aside, never a crash), written atomically, and never
// overwritten when a newer Verdict wrote it. The API key is not a setting.
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { err, ok, type Result } from '../../shared/result.ts';
import { defaultSettings, SETTINGS_VERSION, settingsSchema, type Settings } from '../../shared/settings/settings.ts';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.ts';

export const SETTINGS_FILE_NAME = 'settings.json';

/** Any top-level settings except `version`, which this module owns. */
export type SettingsChange = Partial<Omit<Settings, 'version'>>;

export interface SettingsProblem {
  code: 'settings_damaged' | 'settings_unreadable' | 'settings_future_version';
  /** The damaged file's new name (damaged), or the file that could not be read (unreadable). */
  file?: string;
}

export type SettingsListener = (settings: Settings, previous: Settings) => void;

export interface SettingsStore {
  readonly file: string;
  /**
   * Why the settings on disk are not in use or cannot be saved (damaged and set
   * aside, unreadable, or written by a newer version); null when all is well.
   * Plain English for the log; the UI shows it as is or maps `readOnly`.
   */
  readonly warning: string | null;
  /** The same as a stable code for the UI (with the name a damaged file was set aside under); null when all is well. */
  readonly problem: SettingsProblem | null;
  /** True when changes are kept from the file (it belongs to a newer version, or could not be read). */
  readonly readOnly: boolean;
  /**
   * The current settings: a deeply frozen snapshot, the same object until the next
   * update (the pipeline reads settings several times per file; a copy each time cost
   * ~0.15 ms per file). Copy it to change it.
   */
  get(): Settings;
  /**
   * Applies a change (shallow: `backend` or `watchedFolders` are replaced whole),
   * validates the result and writes it atomically. Changes are applied in call order.
   * Errors: `invalid_settings` (the change does not validate), `settings_read_only`,
   * `settings_write_failed`.
   */
  update(change: SettingsChange): Promise<Result<Settings>>;
  /** Called after every successful update; returns an unsubscribe function. */
  onChange(listener: SettingsListener): () => void;
}

/** Reads the settings in `dataDir` (creating the folder if needed). Never throws on a bad file. */
export async function openSettings(dataDir: string): Promise<SettingsStore> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.resolve(dataDir, SETTINGS_FILE_NAME);
  await removeStaleTempFiles(file);
  const loaded = loadSettings(file);
  let current: Settings = deepFreeze(loaded.settings);
  const listeners = new Set<SettingsListener>();
  // Updates run one after another, each on the result of the one before.
  let queue: Promise<unknown> = Promise.resolve();

  const apply = async (change: SettingsChange): Promise<Result<Settings>> => {
    if (loaded.readOnly) {
      return err('settings_read_only', `Settings cannot be saved: ${loaded.warning ?? 'the settings file is read-only.'}`);
    }
    const { version: _ignored, ...rest } = change as SettingsChange & { version?: unknown };
    const parsed = settingsSchema.safeParse({ ...current, ...rest, version: SETTINGS_VERSION });
    if (!parsed.success) return err('invalid_settings', `Invalid settings: ${z.prettifyError(parsed.error)}`);
    try {
      await writeFileAtomic(file, `${JSON.stringify(parsed.data, null, 2)}\n`);
    } catch (error) {
      return err('settings_write_failed', `Settings could not be saved to ${file}: ${(error as Error).message}`);
    }
    const previous = current;
    // A copy: nothing the caller passed in may end up frozen.
    current = deepFreeze(structuredClone(parsed.data));
    for (const listener of listeners) {
      try {
        listener(current, previous);
      } catch (error) {
        // One faulty subscriber must not undo a saved change or starve the others.
        process.emitWarning(`A settings listener failed: ${(error as Error).message}`);
      }
    }
    return ok(current);
  };

  return {
    file,
    warning: loaded.warning,
    problem: loaded.problem,
    readOnly: loaded.readOnly,
    get: () => current,
    update(change) {
      const result = queue.then(() => apply(change));
      queue = result.catch(() => {});
      return result;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Freezes a parsed (plain, acyclic) settings object and everything in it, so a caller's change throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

interface Loaded {
  settings: Settings;
  warning: string | null;
  problem: SettingsProblem | null;
  readOnly: boolean;
}

function loadSettings(file: string): Loaded {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { settings: defaultSettings(), warning: null, problem: null, readOnly: false };
    // Something is there but we cannot read it (permissions, a folder): leave it alone.
    return {
      settings: defaultSettings(),
      warning: `The settings file ${file} could not be read (${code ?? (error as Error).message}); default settings are in use and changes will not be saved.`,
      problem: { code: 'settings_unreadable', file },
      readOnly: true,
    };
  }

  const read = readSettingsText(text);
  if (read.kind === 'damaged') return setAsideLoaded(file, read.reason);
  if (read.kind === 'newer') {
    // A newer Verdict wrote this: use what we understand, but never overwrite it.
    return {
      settings: read.understood ?? defaultSettings(),
      warning:
        `The settings file was written by a newer version of Verdict (settings version ${read.version}; this version knows ${SETTINGS_VERSION}). ` +
        `It is used read-only${read.understood ? '' : ' (with default settings, as its content is not understood)'}; changes will not be saved. Update Verdict to change settings.`,
      problem: { code: 'settings_future_version' },
      readOnly: true,
    };
  }
  return { settings: read.settings, warning: null, problem: null, readOnly: false };
}

/** What a settings file's text holds: valid settings, a newer version's (with what this version understands of it), or damage. */
export type SettingsText =
  | { kind: 'valid'; settings: Settings }
  | { kind: 'newer'; version: number; understood: Settings | null }
  | { kind: 'damaged'; reason: string };

/** Reads the text of settings.json without touching the disk (the fuzzer runs it on any text). Never throws. */
export function readSettingsText(text: string): SettingsText {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', reason: `it is not valid JSON (${(error as Error).message})` };
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > SETTINGS_VERSION) {
    const understood = settingsSchema.safeParse({ ...(raw as object), version: SETTINGS_VERSION });
    return { kind: 'newer', version, understood: understood.success ? understood.data : null };
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'damaged', reason: `its content is not valid: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}` };
  return { kind: 'valid', settings: parsed.data };
}

/** Renames a damaged file out of the way (kept for the user to inspect) and starts from defaults. */
function setAsideLoaded(file: string, reason: string): Loaded {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    return {
      settings: defaultSettings(),
      warning: `The settings file ${file} is damaged (${reason}) and could not be set aside (${(error as Error).message}); default settings are in use and changes will not be saved.`,
      problem: { code: 'settings_unreadable', file },
      readOnly: true,
    };
  }
  return {
    settings: defaultSettings(),
    warning: `The settings file was damaged (${reason}); it was set aside as ${path.basename(aside)} and default settings are in use.`,
    problem: { code: 'settings_damaged', file: path.basename(aside) },
    readOnly: false,
  };
}
