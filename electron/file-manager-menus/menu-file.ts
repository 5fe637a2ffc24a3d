// What "Scan with Verdict" writes for each file manager, and the command its entries run.
// Pure: the install step (user-menus.ts) and the .deb's copies (system-menus.ts) share it.
import path from 'node:path';
import { launchTarget } from '../shell/autostart-entry.ts';

export type FileManager = 'nautilus' | 'nemo' | 'dolphin' | 'thunar';

/** One file a menu entry lives in. */
export interface MenuFile {
  manager: FileManager;
  path: string;
  /**
   * `own`: the whole file is ours and is removed again. `shared`: the file is the user's
   * (Thunar's uca.xml) and holds our entry among the user's own, so only our entry is removed.
   */
  ownership: 'own' | 'shared';
  /** The file's text (for `shared`: our entry alone, added to what is there). */
  content: string;
  mode: number;
}

/** The entry's label in both languages; the desktop picks by locale where the format allows. */
export const SCAN_LABEL = { en: 'Scan with Verdict', de: 'Mit Verdict prüfen' } as const;
export const SCAN_COMMENT = { en: 'Check the selected files and folders for malware', de: 'Die gewählten Dateien und Ordner auf Schadsoftware prüfen' } as const;
export type MenuLanguage = keyof typeof SCAN_LABEL;

/** The icon name the .deb installs (hicolor `verdict`); without it the entries show no icon. */
export const ICON_NAME = 'verdict';

/** A line every file of ours carries, so that removing never touches a file the user made. */
export const MARKER = 'Written by Verdict ("Scan with Verdict" in the file manager)';

export interface LaunchSource {
  env: NodeJS.ProcessEnv;
  execPath: string;
  /** `process.defaultApp`: started as `electron <app folder>` (a checkout). */
  defaultApp: boolean;
  /** The app folder, needed when `defaultApp`. */
  appPath: string;
}

/**
 * The command that starts Verdict (or hands the paths to the running one, see
 * electron/shell/single-instance.ts): the AppImage file, the installed executable, or
 * Electron with the app folder for a checkout. Paths are appended as separate arguments.
 */
export function launchCommand(source: LaunchSource): string[] {
  if (source.defaultApp) return [source.execPath, path.resolve(source.appPath)];
  return [launchTarget(source.env, source.execPath)];
}

/** POSIX shell and GLib (g_shell_quote) quoting: single quotes, a quote as '\''. */
export function singleQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A GKeyFile / Desktop Entry string value: backslash, newline, tab, CR escaped, a leading space as \s. */
export function keyFileString(value: string): string {
  const escaped = value.replace(/[\\\n\t\r]/g, (char) => ({ '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[char] ?? char);
  return escaped.replace(/^ /, '\\s');
}

/** XDG base folders: $XDG_DATA_HOME (~/.local/share) and $XDG_CONFIG_HOME (~/.config), relative values ignored. */
export interface MenuPlaces {
  dataHome: string;
  configHome: string;
}

export function menuPlaces(env: NodeJS.ProcessEnv, home: string): MenuPlaces {
  const pick = (value: string | undefined, fallback: string) => (value && path.isAbsolute(value) ? value : path.join(home, fallback));
  return { dataHome: pick(env.XDG_DATA_HOME, '.local/share'), configHome: pick(env.XDG_CONFIG_HOME, '.config') };
}
