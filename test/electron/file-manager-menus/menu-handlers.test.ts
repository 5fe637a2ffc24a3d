// The IPC side: who provides the entries on which system, add / status / remove through the
// registered IPC handlers (arguments checked with the shared schema, an untrusted sender
// dropped), real files in a temporary home, and failures as Results with words to show.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileManagerMenuHandlers, menuProvider, type MenuHost } from '../../../electron/file-manager-menus/menu-handlers.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { registerIpcHandlers } from '../../../electron/shell/ipc.ts';
import { FakeWebContents, ipcMain, resetFakeElectron } from '../shell/fake-electron.ts';
import { captureLog, type LogCapture } from '../shell/log-capture.ts';
import { createTestCore } from '../shell/test-core.ts';
import { treeOf } from './menu-fixture.ts';

vi.mock('electron', () => import('../shell/fake-electron.ts'));

let home: string;
let capture: LogCapture;
let window: FakeWebContents;
const host = (overrides: Partial<MenuHost> = {}): MenuHost => ({
  platform: 'linux',
  env: { APPIMAGE: '/home/u/Apps/Verdict.AppImage' },
  home,
  execPath: '/tmp/.mount_V/verdict',
  defaultApp: false,
  appPath: '/tmp/.mount_V/resources/app.asar',
  ...overrides,
});

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-home-'));
  resetFakeElectron();
  capture = captureLog();
  window = new FakeWebContents();
});
afterEach(() => {
  capture.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
});

function register(menus = createFileManagerMenuHandlers(host())): void {
  registerIpcHandlers({ core: createTestCore(), files: createFileHandlers(() => null), fileManagerMenus: menus, trustedWebContents: () => window as never, origins: appOrigins(null), log: capture.log });
}

function invoke(channel: string, args: unknown[], sender: FakeWebContents = window): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ sender, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...args));
}

describe('who provides the entries', () => {
  it('Settings for the AppImage and a checkout, the package for the .deb, nothing on Windows and macOS', () => {
    expect(menuProvider(host())).toBe('user');
    expect(menuProvider(host({ env: {}, defaultApp: true, execPath: '/c/node_modules/electron/dist/electron' }))).toBe('user');
    expect(menuProvider(host({ env: {}, execPath: '/opt/Verdict/verdict' }))).toBe('package');
    expect(menuProvider(host({ platform: 'win32' }))).toBe('none');
    expect(menuProvider(host({ platform: 'darwin' }))).toBe('none');
  });
});

describe('fileManagerMenus over IPC', () => {
  it('adds the entries in the language asked for, lists them, and removes them', async () => {
    register();
    await expect(invoke('fileManagerMenus:status', [])).resolves.toEqual({ ok: true, value: { provider: 'user', files: [] } });
    const added = (await invoke('fileManagerMenus:add', ['de'])) as { ok: true; value: { files: Array<{ manager: string; path: string }> } };
    expect(added.value.files).toEqual([
      { manager: 'nautilus', path: path.join(home, '.local/share/nautilus/scripts/Mit Verdict prüfen') },
      { manager: 'nemo', path: path.join(home, '.local/share/nemo/actions/verdict-scan.nemo_action') },
      { manager: 'dolphin', path: path.join(home, '.local/share/kio/servicemenus/verdict-scan.desktop') },
      { manager: 'thunar', path: path.join(home, '.config/Thunar/uca.xml') },
    ]);
    // The AppImage file itself runs, not its mount point, which changes every start.
    expect(fs.readFileSync(path.join(home, '.local/share/nautilus/scripts/Mit Verdict prüfen'), 'utf8')).toContain(`exec '/home/u/Apps/Verdict.AppImage' "$@"`);
    await expect(invoke('fileManagerMenus:remove', [])).resolves.toEqual({ ok: true, value: { provider: 'user', files: [] } });
    // The XDG base folders stay (a desktop session has them anyway); nothing of ours is left in them.
    expect(treeOf(home)).toEqual({ '.config/': '', '.local/': '', '.local/share/': '' });
  });

  it('checks the arguments with the shared schema and drops a stranger\'s call', async () => {
    register();
    await expect(invoke('fileManagerMenus:add', ['fr'])).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    await expect(invoke('fileManagerMenus:remove', ['extra'])).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    await expect(invoke('fileManagerMenus:add', ['en'], new FakeWebContents())).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it('refuses to add where Settings does not provide them, and says what failed', async () => {
    register(createFileManagerMenuHandlers(host({ env: {}, execPath: '/opt/Verdict/verdict' })));
    await expect(invoke('fileManagerMenus:add', ['en'])).resolves.toMatchObject({ ok: false, error: { code: 'file_manager_menus_unavailable' } });
    resetFakeElectron();
    register();
    fs.mkdirSync(path.join(home, '.config/Thunar'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config/Thunar/uca.xml'), 'not Thunar\'s\n');
    const failed = (await invoke('fileManagerMenus:add', ['en'])) as { ok: false; error: { code: string; message: string } };
    expect(failed.error.code).toBe('file_manager_menus_failed');
    expect(failed.error.message).toMatch(/uca\.xml/);
  });
});
