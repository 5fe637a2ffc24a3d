// Settings › "Add Scan with Verdict to my file manager" (the AppImage and a checkout; the .deb
// installs system-wide copies): writes the entries into the user's folders, lists them, and
// removes them again. A file of ours carries MARKER, so removing never deletes a file the user
// made under the same name; in Thunar's shared uca.xml only our <action> is touched.
import { chmod, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dolphinMenuFile } from './dolphin.ts';
import { MARKER, type FileManager, type MenuFile, type MenuLanguage, type MenuPlaces } from './menu-file.ts';
import { nautilusMenuFile, nautilusScriptPaths } from './nautilus.ts';
import { nemoExecUsable, nemoMenuFile } from './nemo.ts';
import { hasThunarAction, isEmptyThunarFile, thunarMenuFile, withThunarAction } from './thunar.ts';

export interface UserMenuTarget {
  places: MenuPlaces;
  /** What the entries run, the paths appended (menu-file.ts launchCommand). */
  command: readonly string[];
  /** The language of the labels that exist in one language only (the Nautilus script's name, Thunar's). */
  language: MenuLanguage;
}

/** A file that holds one of our entries. */
export interface InstalledMenu {
  manager: FileManager;
  path: string;
}

/** The files to write; Nemo is left out for a command it cannot run (see nemo.ts). */
export function userMenuFiles(target: UserMenuTarget): MenuFile[] {
  const { places, command, language } = target;
  const files = [nautilusMenuFile(places, command, language), dolphinMenuFile(places, command), thunarMenuFile(places, command, language)];
  if (nemoExecUsable(command)) files.splice(1, 0, nemoMenuFile(places, command));
  return files;
}

/** Every place an entry of ours can be, whichever language or command wrote it. */
function candidates(places: MenuPlaces): InstalledMenu[] {
  const scripts = nautilusScriptPaths(places);
  const any = { places, command: ['verdict'], language: 'en' as const };
  return [
    { manager: 'nautilus', path: scripts.en },
    { manager: 'nautilus', path: scripts.de },
    ...userMenuFiles(any)
      .filter((file) => file.manager !== 'nautilus')
      .map(({ manager, path: file }) => ({ manager, path: file })),
  ];
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const holdsOurs = (menu: InstalledMenu, text: string | null) => text !== null && (menu.manager === 'thunar' ? hasThunarAction(text) : text.includes(MARKER));

/** The files that hold an entry of ours now. */
export async function installedUserMenus(places: MenuPlaces): Promise<InstalledMenu[]> {
  const found: InstalledMenu[] = [];
  for (const menu of candidates(places)) if (holdsOurs(menu, await readText(menu.path))) found.push(menu);
  return found;
}

/** Written beside the target and renamed over it: a reader never sees half a file. */
async function writeWhole(file: string, content: string, mode: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.verdict-${process.pid}.tmp`;
  await writeFile(temporary, content, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

/**
 * Writes every entry (replacing ours from an earlier run, e.g. after the AppImage moved) and
 * returns the files that hold one. A file of the same name that is not ours is left alone.
 */
export async function installUserMenus(target: UserMenuTarget): Promise<InstalledMenu[]> {
  // An entry in the other language's Nautilus script would show twice.
  for (const script of Object.values(nautilusScriptPaths(target.places))) await removeOwnFile({ manager: 'nautilus', path: script });
  for (const file of userMenuFiles(target)) {
    const existing = await readText(file.path);
    if (file.ownership === 'shared') {
      const mode = existing === null ? file.mode : (await stat(file.path)).mode & 0o7777;
      await writeWhole(file.path, withThunarAction(existing, file.content), mode);
    } else if (existing === null || existing.includes(MARKER)) {
      await writeWhole(file.path, file.content, file.mode);
    }
  }
  return installedUserMenus(target.places);
}

async function removeOwnFile(menu: InstalledMenu): Promise<boolean> {
  const text = await readText(menu.path);
  if (!holdsOurs(menu, text)) return false;
  await rm(menu.path, { force: true });
  return true;
}

/** Folders a file manager reads menus from that Verdict may have made; removed only when empty. */
function menuFolders(places: MenuPlaces): string[] {
  const { dataHome, configHome } = places;
  return [
    path.join(dataHome, 'nautilus', 'scripts'),
    path.join(dataHome, 'nautilus'),
    path.join(dataHome, 'nemo', 'actions'),
    path.join(dataHome, 'nemo'),
    path.join(dataHome, 'kio', 'servicemenus'),
    path.join(dataHome, 'kio'),
    path.join(configHome, 'Thunar'),
  ];
}

/** Removes every entry of ours; returns the files it changed or removed. */
export async function removeUserMenus(places: MenuPlaces): Promise<InstalledMenu[]> {
  const changed: InstalledMenu[] = [];
  for (const menu of candidates(places)) {
    if (menu.manager !== 'thunar') {
      if (await removeOwnFile(menu)) changed.push(menu);
      continue;
    }
    const text = await readText(menu.path);
    if (text === null || !hasThunarAction(text)) continue;
    const rest = withThunarAction(text, null);
    if (isEmptyThunarFile(rest)) await rm(menu.path, { force: true });
    else await writeWhole(menu.path, rest, (await stat(menu.path)).mode & 0o7777);
    changed.push(menu);
  }
  // An empty menu folder is recreated by its file manager when needed; non-empty ones stay.
  for (const folder of menuFolders(places)) await rmdir(folder).catch(() => undefined);
  return changed;
}
