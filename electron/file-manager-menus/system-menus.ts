// The .deb's system-wide entries: the same files as user-menus.ts writes, for every user,
// copied from build/file-manager/ by electron-builder.yml (deb.fpm, source=destination).
// They run the installed executable. GNOME Files has no system-wide scripts folder, so the
// .deb brings a nautilus-python extension (build/file-manager/verdict-scan.py, used when
// python3-nautilus is installed); Thunar has no system-wide custom actions at all.
import { dolphinServiceMenu, SERVICE_MENU_NAME } from './dolphin.ts';
import { NEMO_ACTION_NAME, nemoAction } from './nemo.ts';

/** Where the .deb puts Verdict (electron-builder: /opt/<productName>/<executableName>). */
export const DEB_EXECUTABLE = '/opt/Verdict/verdict';

export interface SystemMenuFile {
  /** In the checkout, relative to its root. */
  source: string;
  /** Where the .deb installs it. */
  destination: string;
  /** The text the source must hold; null for a file kept by hand (the Python extension). */
  content: string | null;
}

export function systemMenuFiles(): SystemMenuFile[] {
  const command = [DEB_EXECUTABLE];
  return [
    { source: `build/file-manager/${SERVICE_MENU_NAME}`, destination: `/usr/share/kio/servicemenus/${SERVICE_MENU_NAME}`, content: dolphinServiceMenu(command) },
    { source: `build/file-manager/${NEMO_ACTION_NAME}`, destination: `/usr/share/nemo/actions/${NEMO_ACTION_NAME}`, content: nemoAction(command) },
    { source: 'build/file-manager/verdict-scan.py', destination: '/usr/share/nautilus-python/extensions/verdict-scan.py', content: null },
  ];
}
