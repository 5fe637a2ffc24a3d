// The XDG autostart entry that starts Verdict at login on Linux
// (~/.config/autostart/verdict.desktop, Desktop Application Autostart Specification):
// hidden, with only the tray. Pure, so it is tested (and desktop-file-validated) without Electron.
import path from 'node:path';

/** The switch that starts Verdict without its window (electron/main.ts). */
export const HIDDEN_SWITCH = '--hidden';

/** $XDG_CONFIG_HOME/autostart/verdict.desktop, or ~/.config/autostart/verdict.desktop. */
export function autostartFile(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CONFIG_HOME;
  // A relative XDG_CONFIG_HOME is invalid and must be ignored (XDG Base Directory Specification).
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), 'autostart', 'verdict.desktop');
}

/**
 * What the login starts: the AppImage file itself when running from one (its mount point
 * changes every run), else this executable.
 */
export function launchTarget(env: NodeJS.ProcessEnv, execPath: string): string {
  return env.APPIMAGE && path.isAbsolute(env.APPIMAGE) ? env.APPIMAGE : execPath;
}

/** Quotes an Exec argument per the Desktop Entry Specification when it needs it. */
export function execArgument(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value) && !value.includes('%')) return value;
  // Inside double quotes, ", `, $ and \ are escaped with a backslash; % is doubled. In the
  // file's string value each backslash is written twice.
  const quoted = `"${value.replace(/["`$\\]/g, (char) => `\\${char}`).replace(/%/g, '%%')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

export interface AutostartTexts {
  name: string;
  comment: string;
}

export function autostartEntry(target: string, texts: AutostartTexts): string {
  const single = (text: string) => text.replace(/[\r\n]+/g, ' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${single(texts.name)}`,
    `Comment=${single(texts.comment)}`,
    `Exec=${execArgument(target)} ${HIDDEN_SWITCH}`,
    'Icon=verdict',
    'Terminal=false',
    'NoDisplay=true',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
