// "Start Verdict when I log in (in the background)": the Linux autostart entry (written
// for real into a temporary home and checked with desktop-file-validate), the login item
// on macOS and Windows (the fake electron), the offer made when the first folder is
// watched, and what a login start looks like.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchedFolderStatus } from '../../../shared/bridge/api.ts';
import { ok } from '../../../shared/result.ts';
import { defaultSettings, type Settings, type SettingsPatch } from '../../../shared/settings/settings.ts';
import { autostartEntry, autostartFile, launchTarget } from '../../../electron/shell/autostart-entry.ts';
import { applyStartAtLogin, launchedHidden, setupStartAtLogin, type LoginItemTarget } from '../../../electron/shell/start-at-login.ts';
import { app, dialog, resetFakeElectron } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let home: string;
let capture: LogCapture;
let linux: LoginItemTarget;
beforeEach(() => {
  resetFakeElectron();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-home-'));
  capture = captureLog();
  linux = { platform: 'linux', env: {}, home, execPath: '/opt/Verdict/verdict' };
});
afterEach(() => {
  capture.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
});

const entryFile = () => path.join(home, '.config/autostart/verdict.desktop');

function validate(file: string): { status: number | null; output: string } {
  const result = spawnSync('desktop-file-validate', [file], { encoding: 'utf8' });
  // CI installs desktop-file-utils (.ci/run); a missing validator is a failure, not a skip.
  expect(result.error, 'desktop-file-validate (Debian package desktop-file-utils) must be installed').toBeUndefined();
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart when that is unset or relative', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/u')).toBe('/cfg/autostart/verdict.desktop');
    expect(autostartFile({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/autostart/verdict.desktop');
    expect(autostartFile({}, '/home/u')).toBe('/home/u/.config/autostart/verdict.desktop');
  });

  it('starts the AppImage file itself when running from one, else this executable', () => {
    expect(launchTarget({ APPIMAGE: '/home/u/Apps/Verdict.AppImage' }, '/tmp/.mount_x/verdict')).toBe('/home/u/Apps/Verdict.AppImage');
    expect(launchTarget({}, '/opt/Verdict/verdict')).toBe('/opt/Verdict/verdict');
  });

  it.each([
    ['/opt/Verdict/verdict', 'Exec=/opt/Verdict/verdict --hidden'],
    ['/home/u/My Apps/Verdict 100%.AppImage', 'Exec="/home/u/My Apps/Verdict 100%%.AppImage" --hidden'],
    ['/home/u/a$b"c`d\\e', 'Exec="/home/u/a\\\\$b\\\\"c\\\\`d\\\\\\\\e" --hidden'],
  ])('starts %s hidden, and desktop-file-validate accepts it', (target, exec) => {
    const text = autostartEntry(target, { name: 'Verdict', comment: 'Keeps watching your folders for malware' });
    expect(text.split('\n')).toContain(exec);
    const file = path.join(home, 'verdict.desktop');
    fs.writeFileSync(file, text);
    expect(validate(file)).toEqual({ status: 0, output: '' });
  });
});

describe('applyStartAtLogin', () => {
  it('Linux: writes the autostart entry, valid, and removes it again', async () => {
    await applyStartAtLogin(true, 'Keeps watching your folders for malware', linux);
    expect(fs.readFileSync(entryFile(), 'utf8')).toContain('Exec=/opt/Verdict/verdict --hidden');
    expect(validate(entryFile())).toEqual({ status: 0, output: '' });
    await applyStartAtLogin(false, '', linux);
    expect(fs.existsSync(entryFile())).toBe(false);
    // Removing what is not there is fine.
    await applyStartAtLogin(false, '', linux);
  });

  it('Windows: the login item starts Verdict with --hidden; macOS: a login item, without arguments', async () => {
    await applyStartAtLogin(true, '', { ...linux, platform: 'win32' });
    await applyStartAtLogin(false, '', { ...linux, platform: 'darwin' });
    expect(app.setLoginItemSettings.mock.calls).toEqual([[{ openAtLogin: true, args: ['--hidden'] }], [{ openAtLogin: false }]]);
    expect(fs.existsSync(path.join(home, '.config'))).toBe(false);
  });
});

describe('launchedHidden', () => {
  it('is true for a login start: --hidden, or a macOS login item', () => {
    expect(launchedHidden(['/opt/Verdict/verdict', '--hidden'], 'linux')).toBe(true);
    expect(launchedHidden(['/opt/Verdict/verdict'], 'linux')).toBe(false);
    app.getLoginItemSettings.mockReturnValueOnce({ openAtLogin: true, wasOpenedAtLogin: true });
    expect(launchedHidden(['/Applications/Verdict.app/Contents/MacOS/Verdict'], 'darwin')).toBe(true);
  });
});

/** The part of the core the feature uses, keeping settings and watched folders like the real one. */
function fakeCore(initial: Partial<Settings> = {}) {
  let settings: Settings = { ...defaultSettings(), ...initial };
  const listeners = new Set<(folders: WatchedFolderStatus[]) => void>();
  const updates: SettingsPatch[] = [];
  return {
    updates,
    current: () => settings,
    watchFolders: (count: number) => {
      const folders = Array.from({ length: count }, (_, index) => ({ folder: { id: `w${index}`, path: `/home/u/f${index}` }, state: 'watching' }) as unknown as WatchedFolderStatus);
      for (const listener of listeners) listener(folders);
    },
    settings: {
      get: async () => ok(settings),
      update: async (patch: SettingsPatch) => {
        updates.push(patch);
        settings = { ...settings, ...patch };
        return ok(settings);
      },
      systemLanguage: async () => ok('de' as const),
    },
    watch: {
      list: async () => ok([] as WatchedFolderStatus[]),
      onChange(listener: (folders: WatchedFolderStatus[]) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

type SetupCore = Parameters<typeof setupStartAtLogin>[0]['core'];

describe('setupStartAtLogin', () => {
  it('offers it once, when the first folder is watched, in the chosen language; yes writes the entry', async () => {
    const core = fakeCore({ language: 'system' });
    const login = await setupStartAtLogin({ core: core as unknown as SetupCore, parent: () => null, log: capture.log, target: linux });
    core.watchFolders(1);
    await vi.waitFor(() => expect(core.current().startAtLoginOffered).toBe(true));
    expect(dialog.showMessageBox).toHaveBeenCalledTimes(1);
    expect(dialog.showMessageBox.mock.calls[0]![0]).toMatchObject({ message: 'Verdict beim Anmelden starten?', buttons: ['Beim Anmelden starten', 'Jetzt nicht'], cancelId: 1 });
    expect(core.updates).toEqual([{ startAtLogin: true, startAtLoginOffered: true }]);
    await vi.waitFor(() => expect(fs.existsSync(entryFile())).toBe(true));
    expect(fs.readFileSync(entryFile(), 'utf8')).toContain('Comment=Überwacht Ihre Ordner auf Schadsoftware');

    core.watchFolders(0);
    core.watchFolders(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dialog.showMessageBox).toHaveBeenCalledTimes(1);
    login.dispose();
  });

  it('"Not now" records the answer and writes nothing', async () => {
    dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    const core = fakeCore();
    const login = await setupStartAtLogin({ core: core as unknown as SetupCore, parent: () => null, log: capture.log, target: linux });
    core.watchFolders(1);
    await vi.waitFor(() => expect(core.updates).toEqual([{ startAtLogin: false, startAtLoginOffered: true }]));
    expect(fs.existsSync(entryFile())).toBe(false);
    login.dispose();
  });

  it('does not offer again once answered, nor when folders were already watched', async () => {
    const answered = fakeCore({ startAtLoginOffered: true });
    const first = await setupStartAtLogin({ core: answered as unknown as SetupCore, parent: () => null, log: capture.log, target: linux });
    answered.watchFolders(1);
    first.dispose();
    const already = fakeCore();
    already.watch.list = async () => ok([{ folder: { id: 'w0' } } as unknown as WatchedFolderStatus]);
    const second = await setupStartAtLogin({ core: already as unknown as SetupCore, parent: () => null, log: capture.log, target: linux });
    already.watchFolders(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dialog.showMessageBox).not.toHaveBeenCalled();
    second.dispose();
  });

  it('follows the setting changed in the Settings view (through the core IPC sees)', async () => {
    const core = fakeCore();
    const login = await setupStartAtLogin({ core: core as unknown as SetupCore, parent: () => null, log: capture.log, target: linux });
    const seenByIpc = login.core(core as unknown as SetupCore);
    await seenByIpc.settings.update({ startAtLogin: true });
    expect(validate(entryFile())).toEqual({ status: 0, output: '' });
    await seenByIpc.settings.update({ notifyClean: true });
    expect(fs.existsSync(entryFile())).toBe(true);
    await seenByIpc.settings.update({ startAtLogin: false });
    expect(fs.existsSync(entryFile())).toBe(false);
    login.dispose();
  });

  it('rewrites the entry on start when the setting is on (the AppImage may have moved)', async () => {
    const core = fakeCore({ startAtLogin: true, startAtLoginOffered: true });
    const login = await setupStartAtLogin({ core: core as unknown as SetupCore, parent: () => null, log: capture.log, target: { ...linux, env: { APPIMAGE: '/home/u/New/Verdict.AppImage' } } });
    expect(fs.readFileSync(entryFile(), 'utf8')).toContain('Exec=/home/u/New/Verdict.AppImage --hidden');
    login.dispose();
  });
});
