// The main window: hardened webPreferences (Electron's checklist items 2-4, 6,
// 8-10), shown when ready, background following the OS theme, and closing to the
// tray while folders are watched.
import { BrowserWindow, nativeTheme, type WebContents } from 'electron';

export interface MainWindowConfig {
  /** Absolute path of the bundled, sandbox-compatible preload (dist-electron/preload.cjs). */
  preloadPath: string;
  /** verdict://app/index.html, or the dev server in development. */
  startUrl: string;
  /** Window icon (Linux/Windows). */
  iconPath?: string;
  /** Developer tools only in development. */
  devTools: boolean;
}

/** Matches the renderer's page background so no white flash shows before it paints. */
export const BACKGROUND = { light: '#f4f6f8', dark: '#0f1318' } as const;

export function backgroundFor(dark: boolean): string {
  return dark ? BACKGROUND.dark : BACKGROUND.light;
}

/**
 * The window. Its webPreferences are written out here, in the constructor call, so
 * that reviewers and Electronegativity see every protection where it is applied.
 */
export function createMainWindow(config: MainWindowConfig): BrowserWindow {
  nativeTheme.themeSource = 'system';
  const window = new BrowserWindow({
    width: 1100,
    height: 720,
    minWidth: 720,
    minHeight: 480,
    title: 'Verdict',
    // Shown on ready-to-show, over the page's own background colour: no blank flash.
    show: false,
    backgroundColor: backgroundFor(nativeTheme.shouldUseDarkColors),
    ...(config.iconPath ? { icon: config.iconPath } : {}),
    webPreferences: {
      preload: config.preloadPath, // eng-disable PRELOAD_JS_CHECK -- our bundled preload: contextBridge exposes named methods only, never ipcRenderer (preload.test.ts)
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
      devTools: config.devTools,
      // Middle-click would ask for a new window; the open handler denies it anyway.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  const onThemeChange = () => {
    if (!window.isDestroyed()) window.setBackgroundColor(backgroundFor(nativeTheme.shouldUseDarkColors));
  };
  nativeTheme.on('updated', onThemeChange);
  window.once('closed', () => nativeTheme.off('updated', onThemeChange));
  void window.loadURL(config.startUrl);
  return window;
}

/** What closing the window does: hide it while the tray has work to do, else close. */
export function closeAction(state: { quitting: boolean; keepInTray: boolean }): 'hide' | 'close' {
  return !state.quitting && state.keepInTray ? 'hide' : 'close';
}

export interface WindowController {
  /** Shows and focuses the window, creating it again if it was closed. */
  show(): BrowserWindow;
  /** The window, while it exists (possibly hidden). */
  current(): BrowserWindow | null;
  /** Its web contents: the only sender the IPC handlers trust. */
  webContents(): WebContents | null;
  /** Set when the app is quitting, so closing really closes. */
  setQuitting(): void;
}

/** `onHidden`: the window was hidden instead of closed (Verdict keeps running). */
export function createWindowController(create: () => BrowserWindow, keepInTray: () => boolean, onHidden: () => void = () => {}): WindowController {
  let window: BrowserWindow | null = null;
  let quitting = false;
  const open = (): BrowserWindow => {
    const created = create();
    created.on('close', (event) => {
      if (closeAction({ quitting, keepInTray: keepInTray() }) === 'hide') {
        event.preventDefault();
        created.hide();
        onHidden();
      }
    });
    created.once('closed', () => {
      if (window === created) window = null;
    });
    window = created;
    return created;
  };
  return {
    show() {
      // A new window shows itself on ready-to-show (no blank flash); an existing one is brought back.
      if (!window || window.isDestroyed()) return open();
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
      return window;
    },
    current: () => (window && !window.isDestroyed() ? window : null),
    webContents: () => (window && !window.isDestroyed() ? window.webContents : null),
    setQuitting() {
      quitting = true;
    },
  };
}
