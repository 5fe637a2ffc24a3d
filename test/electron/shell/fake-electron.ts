// A stand-in for the `electron` module, which cannot run here (no binary). Test
// files install it with `vi.mock('electron', () => import('./fake-electron.ts'))`
// and inspect what the shell did to it. It models only what the shell uses.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/** An Electron-style event: preventDefault is observable. */
export class FakeEvent {
  defaultPrevented = false;
  url: string;
  constructor(url = '') {
    this.url = url;
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextId = 1;

export class FakeWebContents extends EventEmitter {
  id = nextId++;
  url = '';
  loading = false;
  destroyed = false;
  sent: Array<[string, unknown]> = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | null = null;
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isLoading(): boolean {
    return this.loading;
  }
  getURL(): string {
    return this.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void {
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  options: Record<string, unknown>;
  webContents = new FakeWebContents();
  visible = false;
  destroyed = false;
  minimized = false;
  focused = false;
  loadedUrl: string | null = null;
  backgroundColor: string | null = null;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    BrowserWindow.instances.push(this);
    events.push('new BrowserWindow');
  }
  async loadURL(url: string): Promise<void> {
    events.push(`loadURL ${url}`);
    this.loadedUrl = url;
    this.webContents.url = url;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  setBackgroundColor(color: string): void {
    this.backgroundColor = color;
  }
  /** Simulates the user closing the window: 'close' can be prevented, else it is destroyed. */
  userClose(): FakeEvent {
    const event = new FakeEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) {
      this.destroyed = true;
      this.emit('closed');
    }
    return event;
  }
}

/** Order of notable calls across the fake (e.g. IPC registered before the window loads). */
export const events: string[] = [];

type Handler = (event: unknown, ...args: unknown[]) => unknown;
export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    events.push(`ipcMain.handle ${channel}`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
};

class FakeIpcRenderer extends EventEmitter {
  invoke = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null }));
  send = vi.fn();
}
export const ipcRenderer = new FakeIpcRenderer();

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

export const webUtils = { getPathForFile: vi.fn((file: { name: string }) => `/dropped/${file.name}`) };

export const shell = { openExternal: vi.fn(async (_url: string) => {}), showItemInFolder: vi.fn((_path: string) => {}), openPath: vi.fn(async (_path: string) => '') };
export const clipboard = { writeText: vi.fn((_text: string) => {}) };
export const dialog = {
  showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePaths: [] as string[] })),
  showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePath: '' as string | undefined })),
  showErrorBox: vi.fn((_title: string, _content: string) => {}),
  /** Answers with the first button unless a test says otherwise. */
  showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 0, checkboxChecked: false })),
};

class FakeNativeTheme extends EventEmitter {
  themeSource = 'light';
  shouldUseDarkColors = false;
}
export const nativeTheme = new FakeNativeTheme();

class FakeApp extends EventEmitter {
  isPackaged = false;
  lock = true;
  requestSingleInstanceLock = vi.fn((_data?: unknown) => this.lock);
  quit = vi.fn(() => {});
  exit = vi.fn((_code?: number) => {});
  enableSandbox = vi.fn(() => {});
  setAppUserModelId = vi.fn((_id: string) => {});
  getPath = vi.fn((name: string) => `/fake/${name}`);
  getAppPath = vi.fn(() => '/fake/app');
  getVersion = vi.fn(() => '0.1.0');
  getName = vi.fn(() => 'Verdict');
  whenReady = vi.fn(async () => {});
  setLoginItemSettings = vi.fn((_settings: { openAtLogin?: boolean; args?: string[] }) => {});
  getLoginItemSettings = vi.fn(() => ({ openAtLogin: false, wasOpenedAtLogin: false }));
}
export const app = new FakeApp();

/** Battery or mains (`onBattery`), and 'resume' emitted by a test as a wake-up from sleep. */
class FakePowerMonitor extends EventEmitter {
  onBattery = false;
  isOnBatteryPower = () => this.onBattery;
}
export const powerMonitor = new FakePowerMonitor();

export const protocol = { registerSchemesAsPrivileged: vi.fn((_schemes: unknown[]) => {}) };

export class FakeSession extends EventEmitter {
  permissionRequestHandler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void) | null = null;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null;
  devicePermissionHandler: ((...args: unknown[]) => boolean) | null = null;
  headersListener: ((details: { url: string; responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: Record<string, string[]> }) => void) => void) | null = null;
  protocolHandlers = new Map<string, (request: { url: string }) => Promise<Response> | Response>();
  webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  protocol = {
    handle: (scheme: string, handler: (request: { url: string }) => Promise<Response> | Response) => {
      this.protocolHandlers.set(scheme, handler);
    },
  };
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: FakeSession['devicePermissionHandler']): void {
    this.devicePermissionHandler = handler;
  }
}
export const session = { defaultSession: new FakeSession() };

export class Notification extends EventEmitter {
  static supported = true;
  static shown: Notification[] = [];
  static isSupported(): boolean {
    return Notification.supported;
  }
  options: { title: string; body: string; icon?: string };
  closed = false;
  constructor(options: { title: string; body: string; icon?: string }) {
    super();
    this.options = options;
  }
  show(): void {
    Notification.shown.push(this);
  }
  close(): void {
    this.closed = true;
  }
}

export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
}
export const Menu = { buildFromTemplate: (template: FakeMenuItem[]) => ({ items: template }) };

export const nativeImage = { createFromPath: (path: string) => ({ path }) };

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  image: { path: string };
  tooltip = '';
  menu: { items: FakeMenuItem[] } | null = null;
  destroyed = false;
  constructor(image: { path: string }) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setImage(image: { path: string }): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** Back to a fresh state between tests. */
export function resetFakeElectron(): void {
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.shown = [];
  Notification.supported = true;
  events.length = 0;
  ipcMain.handlers.clear();
  ipcRenderer.removeAllListeners();
  ipcRenderer.invoke.mockClear();
  contextBridge.exposed.clear();
  app.removeAllListeners();
  app.isPackaged = false;
  app.lock = true;
  nativeTheme.removeAllListeners();
  powerMonitor.removeAllListeners();
  powerMonitor.onBattery = false;
  nativeTheme.shouldUseDarkColors = false;
  nativeTheme.themeSource = 'light';
  session.defaultSession = new FakeSession();
  for (const fn of [shell.openExternal, shell.showItemInFolder, shell.openPath, clipboard.writeText, dialog.showOpenDialog, dialog.showSaveDialog, dialog.showErrorBox, dialog.showMessageBox, app.setLoginItemSettings, webUtils.getPathForFile, protocol.registerSchemesAsPrivileged, app.requestSingleInstanceLock, app.quit, app.exit]) fn.mockClear();
}
