// Settings' "Add Scan with Verdict to my file manager", for real in a temporary home: what is
// written (each file checked by its format's own reader: desktop-file-validate, GLib's key
// file parser, an XML parser), that the user's other Thunar actions and same-named files of
// their own survive, and that removing leaves the home as it was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchCommand, menuPlaces, type MenuPlaces } from '../../../electron/file-manager-menus/menu-file.ts';
import { THUNAR_UNIQUE_ID } from '../../../electron/file-manager-menus/thunar.ts';
import { installedUserMenus, installUserMenus, removeUserMenus, type UserMenuTarget } from '../../../electron/file-manager-menus/user-menus.ts';
import { glib, treeOf, validateDesktopFile } from './menu-fixture.ts';

let home: string;
let places: MenuPlaces;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-home-'));
  places = menuPlaces({}, home);
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const appImage = '/home/u/My Apps/Verdict\'s "best" $x \\ 100%.AppImage';
const target = (overrides: Partial<UserMenuTarget> = {}): UserMenuTarget => ({ places, command: ['/home/u/Apps/Verdict.AppImage'], language: 'en', ...overrides });
const at = (relative: string) => path.join(home, relative);
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** A uca.xml as Thunar writes it, with two actions of the user's own (one with escaped text). */
const USERS_UCA = `<?xml version="1.0" encoding="UTF-8"?>
<actions>
<action>
\t<icon>utilities-terminal</icon>
\t<name>Open Terminal Here</name>
\t<submenu></submenu>
\t<unique-id>1478260000000000-1</unique-id>
\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
\t<description>Example for a custom action</description>
\t<range></range>
\t<patterns>*</patterns>
\t<startup-notify/>
\t<directories/>
</action>
<action>
\t<icon></icon>
\t<name>Count &amp; compare &lt;lines&gt;</name>
\t<submenu>Mine</submenu>
\t<unique-id>1478260000000000-2</unique-id>
\t<command>wc -l %F</command>
\t<description></description>
\t<range>*</range>
\t<patterns>*.txt</patterns>
\t<text-files/>
</action>
</actions>
`;

interface ThunarAnswer {
  root: string;
  actions: Array<Record<string, string>>;
}

describe('menu places and the command', () => {
  it('follows XDG_DATA_HOME and XDG_CONFIG_HOME when absolute', () => {
    expect(menuPlaces({ XDG_DATA_HOME: '/d', XDG_CONFIG_HOME: '/c' }, '/home/u')).toEqual({ dataHome: '/d', configHome: '/c' });
    expect(menuPlaces({ XDG_DATA_HOME: 'rel' }, '/home/u')).toEqual({ dataHome: '/home/u/.local/share', configHome: '/home/u/.config' });
  });

  it('runs the AppImage file, the executable, or Electron with the app folder for a checkout', () => {
    expect(launchCommand({ env: { APPIMAGE: '/a/V.AppImage' }, execPath: '/tmp/.mount_x/verdict', defaultApp: false, appPath: '/x' })).toEqual(['/a/V.AppImage']);
    expect(launchCommand({ env: {}, execPath: '/opt/Verdict/verdict', defaultApp: false, appPath: '/x' })).toEqual(['/opt/Verdict/verdict']);
    expect(launchCommand({ env: {}, execPath: '/c/node_modules/electron/dist/electron', defaultApp: true, appPath: '/c' })).toEqual(['/c/node_modules/electron/dist/electron', '/c']);
  });
});

describe('adding the entries to an empty home', () => {
  it('writes one per file manager, each accepted by its format\'s reader, and lists them', async () => {
    const written = await installUserMenus(target({ command: [appImage] }));
    expect(written).toEqual([
      { manager: 'nautilus', path: at('.local/share/nautilus/scripts/Scan with Verdict') },
      { manager: 'dolphin', path: at('.local/share/kio/servicemenus/verdict-scan.desktop') },
      { manager: 'thunar', path: at('.config/Thunar/uca.xml') },
    ]);
    // Nemo looks only at the first % of its Exec line: a command holding one gets no Nemo entry.
    const plain = await installUserMenus(target());
    expect(plain.map((menu) => menu.manager)).toEqual(['nautilus', 'nemo', 'dolphin', 'thunar']);
    expect(await installedUserMenus(places)).toEqual(plain);

    const service = at('.local/share/kio/servicemenus/verdict-scan.desktop');
    expect(validateDesktopFile(service)).toBe('');
    // KDE Frameworks 5.85+ ignores a user's service menu that is not executable.
    expect(modeOf(service)).toBe(0o755);
    expect(modeOf(at('.local/share/nautilus/scripts/Scan with Verdict'))).toBe(0o755);

    const nemo = glib<{ fields: Record<string, string>; nameDe: string }>({ mode: 'nemo', file: at('.local/share/nemo/actions/verdict-scan.nemo_action'), paths: ['/x'] });
    expect(nemo.fields).toMatchObject({ Name: 'Scan with Verdict', Selection: 'notnone', Extensions: 'any;', Quote: 'double', 'Icon-Name': 'verdict' });
    expect(nemo.nameDe).toBe('Mit Verdict prüfen');

    const thunar = glib<ThunarAnswer>({ mode: 'thunar', file: at('.config/Thunar/uca.xml'), paths: [] });
    expect(thunar.root).toBe('actions');
    expect(thunar.actions).toEqual([expect.objectContaining({ name: 'Scan with Verdict', 'unique-id': THUNAR_UNIQUE_ID, range: '*', patterns: '*', directories: '', 'other-files': '' })]);
  });

  it('accepts every command desktop-file-validate is shown', async () => {
    for (const command of [[appImage], ['/c/node_modules/electron/dist/electron', '/home/u/check out/verdict']]) {
      await installUserMenus(target({ command }));
      validateDesktopFile(at('.local/share/kio/servicemenus/verdict-scan.desktop'));
    }
  });

  it('names the GNOME Files script in the chosen language, keeping one script only', async () => {
    await installUserMenus(target({ language: 'de' }));
    expect(fs.readdirSync(at('.local/share/nautilus/scripts'))).toEqual(['Mit Verdict prüfen']);
    const thunar = glib<ThunarAnswer>({ mode: 'thunar', file: at('.config/Thunar/uca.xml'), paths: [] });
    expect(thunar.actions.map((action) => action.name)).toEqual(['Mit Verdict prüfen']);
    await installUserMenus(target({ language: 'en' }));
    expect(fs.readdirSync(at('.local/share/nautilus/scripts'))).toEqual(['Scan with Verdict']);
  });
});

describe('removing the entries', () => {
  it('leaves a home exactly as it was', async () => {
    // As a desktop session leaves it; the file managers' own folders are made by Verdict here.
    fs.mkdirSync(at('.local/share'), { recursive: true });
    fs.mkdirSync(at('.config'));
    const before = treeOf(home);
    await installUserMenus(target());
    const removed = await removeUserMenus(places);
    expect(removed.map((menu) => menu.manager)).toEqual(['nautilus', 'nemo', 'dolphin', 'thunar']);
    expect(treeOf(home)).toEqual(before);
    expect(await installedUserMenus(places)).toEqual([]);
    expect(await removeUserMenus(places)).toEqual([]);
  });

  it('keeps the user\'s own Thunar actions, byte for byte, and the file\'s mode', async () => {
    fs.mkdirSync(at('.config/Thunar'), { recursive: true });
    fs.writeFileSync(at('.config/Thunar/uca.xml'), USERS_UCA, { mode: 0o600 });
    fs.chmodSync(at('.config/Thunar/uca.xml'), 0o600);
    await installUserMenus(target());
    await installUserMenus(target({ language: 'de' }));
    const thunar = glib<ThunarAnswer>({ mode: 'thunar', file: at('.config/Thunar/uca.xml'), paths: [] });
    expect(thunar.actions.map((action) => action.name)).toEqual(['Open Terminal Here', 'Count & compare <lines>', 'Mit Verdict prüfen']);
    expect(modeOf(at('.config/Thunar/uca.xml'))).toBe(0o600);
    await removeUserMenus(places);
    expect(fs.readFileSync(at('.config/Thunar/uca.xml'), 'utf8')).toBe(USERS_UCA);
  });

  it('never touches a file of the user\'s own that has the same name', async () => {
    const script = at('.local/share/nautilus/scripts/Scan with Verdict');
    fs.mkdirSync(path.dirname(script), { recursive: true });
    fs.writeFileSync(script, '#!/bin/sh\necho mine\n', { mode: 0o755 });
    const written = await installUserMenus(target());
    expect(written.map((menu) => menu.manager)).toEqual(['nemo', 'dolphin', 'thunar']);
    await removeUserMenus(places);
    expect(fs.readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('leaves a uca.xml it cannot read as Thunar\'s unchanged', async () => {
    fs.mkdirSync(at('.config/Thunar'), { recursive: true });
    fs.writeFileSync(at('.config/Thunar/uca.xml'), '<not-actions/>\n');
    await expect(installUserMenus(target())).rejects.toThrow(/uca\.xml/);
    expect(fs.readFileSync(at('.config/Thunar/uca.xml'), 'utf8')).toBe('<not-actions/>\n');
  });
});
