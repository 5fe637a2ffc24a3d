// The per-user data directory that the CLIs use by default (history, settings,
// install id, the local service's data). The Electron shell can point its
// userData at the same place so the app and the CLI share one history.
//   Linux:   $XDG_DATA_HOME/verdict, else ~/.local/share/verdict
//   macOS:   ~/Library/Application Support/Verdict
//   Windows: %APPDATA%\Verdict, else ~\AppData\Roaming\Verdict
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Verdict');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Verdict');
  // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'verdict');
}
