// Where the tray and window icons are: shipped as extra resources when packaged
// (electron-builder.yml copies build/tray and build/icon.png), read from build/
// in development. Pure.
import path from 'node:path';
import type { TrayIcon } from './tray-state.ts';

export interface IconLocations {
  trayIcon(state: TrayIcon): string;
  appIcon: string;
}

export function iconLocations(options: { packaged: boolean; resourcesPath: string; appPath: string }): IconLocations {
  const root = options.packaged ? options.resourcesPath : path.join(options.appPath, 'build');
  return {
    trayIcon: (state) => path.join(root, 'tray', `tray-${state}.png`),
    appIcon: path.join(root, 'icon.png'),
  };
}
