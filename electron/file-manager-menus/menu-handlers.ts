// The IPC side of Settings' "Add Scan with Verdict to my file manager": who provides the
// entries on this system, and add / list / remove for the user. Plain Node; electron/main.ts
// passes in what only Electron knows (the app folder, whether this is `electron .`).
import { access } from 'node:fs/promises';
import type { FileManagerMenusStatus, VerdictApi } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { launchCommand, menuPlaces, type LaunchSource } from './menu-file.ts';
import { DEB_EXECUTABLE, systemMenuFiles } from './system-menus.ts';
import { installedUserMenus, installUserMenus, removeUserMenus } from './user-menus.ts';

export interface MenuHost extends LaunchSource {
  platform: NodeJS.Platform;
  home: string;
}

export type FileManagerMenuHandlers = VerdictApi['fileManagerMenus'];

/** The .deb (installed under /opt/Verdict) brings system-wide entries; an AppImage or a checkout asks Settings. */
export function menuProvider(host: MenuHost): FileManagerMenusStatus['provider'] {
  if (host.platform !== 'linux') return 'none';
  if (!host.defaultApp && !host.env.APPIMAGE && host.execPath === DEB_EXECUTABLE) return 'package';
  return 'user';
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const MANAGER_OF_DESTINATION: Array<[string, FileManagerMenusStatus['files'][number]['manager']]> = [
  ['/kio/', 'dolphin'],
  ['/nemo/', 'nemo'],
  ['/nautilus-python/', 'nautilus'],
];

async function packageFiles(): Promise<FileManagerMenusStatus['files']> {
  const files: FileManagerMenusStatus['files'] = [];
  for (const { destination } of systemMenuFiles()) {
    const manager = MANAGER_OF_DESTINATION.find(([part]) => destination.includes(part))?.[1];
    if (manager && (await exists(destination))) files.push({ manager, path: destination });
  }
  return files;
}

const failed = (action: string, error: unknown): Result<never> => {
  const words = error instanceof Error ? error.message : String(error);
  return err('file_manager_menus_failed', `Could not ${action} "Scan with Verdict" in the file manager: ${words}`, { words });
};

export function createFileManagerMenuHandlers(host: MenuHost): FileManagerMenuHandlers {
  const provider = menuProvider(host);
  const places = menuPlaces(host.env, host.home);
  const status = async (): Promise<Result<FileManagerMenusStatus>> => {
    if (provider === 'none') return ok({ provider, files: [] });
    if (provider === 'package') return ok({ provider, files: await packageFiles() });
    return ok({ provider, files: await installedUserMenus(places) });
  };
  const unavailable = () => err('file_manager_menus_unavailable', 'Settings adds "Scan with Verdict" only for the AppImage and a checkout on Linux.');
  return {
    status,
    async add(language) {
      if (provider !== 'user') return unavailable();
      try {
        await installUserMenus({ places, command: launchCommand(host), language });
      } catch (error) {
        return failed('add', error);
      }
      return status();
    },
    async remove() {
      if (provider !== 'user') return unavailable();
      try {
        await removeUserMenus(places);
      } catch (error) {
        return failed('remove', error);
      }
      return status();
    },
  };
}

/** For a shell without them (tests that build the IPC by hand): nothing provided here. */
export const NO_FILE_MANAGER_MENUS: FileManagerMenuHandlers = {
  status: async () => ok({ provider: 'none', files: [] }),
  add: async () => err('file_manager_menus_unavailable', 'Not available here.'),
  remove: async () => err('file_manager_menus_unavailable', 'Not available here.'),
};
