// Whether this desktop can show Verdict's tray icon. Electron's tray on Linux is a
// StatusNotifierItem, shown only where a StatusNotifierWatcher owns its name on the
// session bus (KDE, GNOME with the AppIndicator extension, …); stock GNOME has none.
// macOS and Windows always show it. Plain Node: asks the bus with dbus-send.
import { execFile } from 'node:child_process';

const WATCHER = 'org.kde.StatusNotifierWatcher';

export type RunCommand = (file: string, args: string[]) => Promise<string>;

const runCommand: RunCommand = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 3000, encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });

/** True when a tray icon can be seen; false when it cannot, or when the bus cannot tell. */
export async function trayIconVisible(platform: NodeJS.Platform = process.platform, run: RunCommand = runCommand): Promise<boolean> {
  if (platform !== 'linux') return true;
  try {
    const reply = await run('dbus-send', ['--session', '--print-reply=literal', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${WATCHER}`]);
    return /\bboolean\s+true\b/.test(reply);
  } catch {
    return false;
  }
}
