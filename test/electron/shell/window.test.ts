import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, nativeTheme, resetFakeElectron } from './fake-electron.ts';
import { BACKGROUND, closeAction, createMainWindow, createWindowController, type MainWindowConfig } from '../../../electron/shell/window.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const config: MainWindowConfig = { preloadPath: '/app/dist-electron/preload.cjs', startUrl: 'verdict://app/index.html', devTools: false };

beforeEach(() => resetFakeElectron());

describe('main window options', () => {
  const created = () => createMainWindow(config) as unknown as BrowserWindow;

  it('turns on every renderer protection', () => {
    const prefs = created().options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: false,
      preload: '/app/dist-electron/preload.cjs',
    });
    expect(prefs.enableBlinkFeatures).toBeUndefined();
    expect(prefs.disableBlinkFeatures).toBe('Auxclick');
  });

  it('allows developer tools only when asked (development)', () => {
    const window = createMainWindow({ ...config, devTools: true }) as unknown as BrowserWindow;
    expect((window.options.webPreferences as Record<string, unknown>).devTools).toBe(true);
  });

  it('does not show the window before it is ready, on the OS theme background', () => {
    expect(created().options).toMatchObject({ show: false, backgroundColor: BACKGROUND.light });
    nativeTheme.shouldUseDarkColors = true;
    expect(created().options.backgroundColor).toBe(BACKGROUND.dark);
  });
});

describe('createMainWindow', () => {
  it('follows the OS theme, loads the start URL and shows on ready-to-show', () => {
    nativeTheme.shouldUseDarkColors = true;
    const window = createMainWindow(config) as unknown as BrowserWindow;
    expect(nativeTheme.themeSource).toBe('system');
    expect(window.options.backgroundColor).toBe(BACKGROUND.dark);
    expect((window.options.webPreferences as Record<string, unknown>).sandbox).toBe(true);
    expect(window.loadedUrl).toBe('verdict://app/index.html');
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('repaints its background when the OS theme changes', () => {
    const window = createMainWindow(config) as unknown as BrowserWindow;
    nativeTheme.shouldUseDarkColors = true;
    nativeTheme.emit('updated');
    expect(window.backgroundColor).toBe(BACKGROUND.dark);
    window.emit('closed');
    expect(nativeTheme.listenerCount('updated')).toBe(0);
  });
});

describe('closing the window', () => {
  it('hides while the tray has work, closes otherwise or when quitting', () => {
    expect(closeAction({ quitting: false, keepInTray: true })).toBe('hide');
    expect(closeAction({ quitting: false, keepInTray: false })).toBe('close');
    expect(closeAction({ quitting: true, keepInTray: true })).toBe('close');
  });

  it('the controller hides instead of closing while folders are watched, and recreates a closed window', () => {
    let watching = true;
    const controller = createWindowController(() => createMainWindow(config), () => watching);
    const first = controller.show() as unknown as BrowserWindow;
    first.emit('ready-to-show');
    expect(controller.webContents()).toBe(first.webContents);

    expect(first.userClose().defaultPrevented).toBe(true);
    expect(first.visible).toBe(false);
    expect(controller.show()).toBe(first);
    expect(first.visible).toBe(true);

    watching = false;
    expect(first.userClose().defaultPrevented).toBe(false);
    expect(controller.webContents()).toBeNull();
    const second = controller.show() as unknown as BrowserWindow;
    expect(second).not.toBe(first);
    expect(BrowserWindow.instances).toHaveLength(2);
  });

  it('closes for real once the app is quitting', () => {
    const controller = createWindowController(() => createMainWindow(config), () => true);
    const window = controller.show() as unknown as BrowserWindow;
    controller.setQuitting();
    expect(window.userClose().defaultPrevented).toBe(false);
  });
});

describe('background colours', () => {
  it('match the renderer page background (--bg) in both themes', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const css = readFileSync(join(import.meta.dirname, '../../../renderer/styles/app.css'), 'utf8');
    const darkStart = css.indexOf('prefers-color-scheme: dark');
    expect(darkStart).toBeGreaterThan(0);
    expect(/--bg:\s*(#[0-9a-f]{6})/i.exec(css.slice(0, darkStart))?.[1]?.toLowerCase()).toBe(BACKGROUND.light);
    expect(/--bg:\s*(#[0-9a-f]{6})/i.exec(css.slice(darkStart))?.[1]?.toLowerCase()).toBe(BACKGROUND.dark);
  });
});
