// A run-time stand-in for the `electron` module, for the app smoke test: the BUILT main
// process runs in Node 24 against it. Its window is a page in Debian's Chromium whose
// requests go to the app's own `verdict://` protocol handler; the real preload.cjs runs
// here, against this module's contextBridge and ipcRenderer, and the page's
// `window.verdict` forwards to the API it exposed; ipcMain dispatches to the app's real
// handlers, with a sender and frame like Electron's. Tray, notifications and dialogs are
// recorded. Plain TypeScript that Node runs as is (types stripped).
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const APP_URL = 'verdict://app';
/** The page's origin in Chromium; every request to it is answered by the app's protocol handler. */
const PAGE_ORIGIN = 'http://verdict.invalid';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

type Handler = (...args: unknown[]) => unknown;

// A packaged app finds its tray and window icons under process.resourcesPath (electron/shell/icons.ts).
(process as { resourcesPath?: string }).resourcesPath = path.join(process.env.STAND_IN_APP ?? '.', 'build');
// `node script args…` has the layout of `electron app args…`: the arguments start at argv[2].
(process as { defaultApp?: boolean }).defaultApp = true;
interface MenuItem {
  label?: string;
  click?: () => void;
}

export const control = {
  page: null as Page | null,
  browser: null as Browser | null,
  protocolHandler: null as ((request: { url: string }) => Promise<Response> | Response) | null,
  exposed: new Map<string, Record<string, Record<string, Handler>>>(),
  trays: [] as Tray[],
  notifications: [] as Array<{ title: string; body: string }>,
  errorBoxes: [] as string[],
  problems: [] as string[],
  /** What the driver found; printed when the app exits. */
  report: {} as Record<string, unknown>,
  windowLoaded: null as Promise<Page> | null,
};

class StandInEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

async function shutdown(code: number): Promise<never> {
  await control.browser?.close().catch(() => {});
  process.stdout.write(`SMOKE_REPORT ${JSON.stringify({ ...control.report, exitCode: code, problems: control.problems, errorBoxes: control.errorBoxes })}\n`);
  process.exit(code);
}

class App extends EventEmitter {
  isPackaged = true;
  private quitting = false;
  getPath(name: string): string {
    return path.join(process.env.STAND_IN_HOME!, name);
  }
  getAppPath(): string {
    return process.env.STAND_IN_APP!;
  }
  getVersion(): string {
    return '0.1.0';
  }
  getName(): string {
    return 'Verdict';
  }
  getLocale(): string {
    return 'en-US';
  }
  getPreferredSystemLanguages(): string[] {
    return ['en-US'];
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  enableSandbox(): void {}
  setAppUserModelId(): void {}
  setLoginItemSettings(): void {}
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false };
  }
  whenReady(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
  /** Electron's order: before-quit, will-quit (either may be prevented), then the process ends. */
  quit(): void {
    if (this.quitting) return;
    const before = new StandInEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    const will = new StandInEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.quitting = true;
    this.emit('quit');
    void shutdown(0);
  }
  exit(code = 0): void {
    void shutdown(code);
  }
}
export const app = new App();

class WebContents extends EventEmitter {
  id = 1;
  url = '';
  send(channel: string, payload: unknown): void {
    // As over IPC: the payload is copied, never shared.
    ipcRenderer.emit(channel, {}, structuredClone(payload));
  }
  isDestroyed(): boolean {
    return false;
  }
  isLoading(): boolean {
    return false;
  }
  getURL(): string {
    return this.url;
  }
  setWindowOpenHandler(): void {}
}

export class BrowserWindow extends EventEmitter {
  webContents = new WebContents();
  visible = false;
  private preload: string;
  constructor(options: { webPreferences: { preload: string } }) {
    super();
    this.preload = options.webPreferences.preload;
    windows.push(this);
    app.emit('web-contents-created', new StandInEvent(), this.webContents);
  }
  loadURL(url: string): Promise<void> {
    control.windowLoaded = openPage(this, url);
    return control.windowLoaded.then(() => {
      this.emit('ready-to-show');
    });
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {}
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return false;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  setBackgroundColor(): void {}
  get preloadPath(): string {
    return this.preload;
  }
}
const windows: BrowserWindow[] = [];

/** Builds `window.verdict` in the page: every method forwards to the preload's API in this process. */
function installPageApi(shape: Record<string, string[]>): void {
  type Listener = (payload: unknown) => void;
  const page = globalThis as unknown as Record<string, unknown> & {
    __standInInvoke(ns: string, method: string, args: unknown[]): Promise<unknown>;
    __standInSubscribe(ns: string, method: string, id: number): Promise<void>;
    __standInUnsubscribe(id: number): Promise<void>;
  };
  const listeners = new Map<number, Listener>();
  const paths: Record<string, string> = {};
  let nextId = 1;
  page.__standInDeliver = (id: number, payload: unknown) => listeners.get(id)?.(payload);
  page.__standInPaths = paths;
  const api: Record<string, Record<string, unknown>> = {};
  for (const [ns, methods] of Object.entries(shape)) {
    api[ns] = {};
    for (const method of methods) {
      if (method === 'pathFor') api[ns]![method] = (file: { name: string }) => paths[file.name] ?? '';
      else if (/^on[A-Z]/.test(method))
        api[ns]![method] = (listener: Listener) => {
          const id = nextId++;
          listeners.set(id, listener);
          void page.__standInSubscribe(ns, method, id);
          return () => {
            listeners.delete(id);
            void page.__standInUnsubscribe(id);
          };
        };
      else api[ns]![method] = (...args: unknown[]) => page.__standInInvoke(ns, method, args);
    }
  }
  page.verdict = Object.freeze(api);
}

async function openPage(window: BrowserWindow, url: string): Promise<Page> {
  // The real preload, as Electron runs it (CommonJS, `electron` from this stand-in).
  createRequire(import.meta.url)(window.preloadPath);
  const api = control.exposed.get('verdict');
  if (!api) throw new Error('the preload exposed no window.verdict');
  control.browser ??= await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await control.browser.newPage();
  page.on('pageerror', (error) => control.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') control.problems.push(`console: ${message.text()}`);
  });
  await page.route(`${PAGE_ORIGIN}/**`, async (route) => {
    const requested = new URL(route.request().url());
    const response = await control.protocolHandler!({ url: `${APP_URL}${requested.pathname}` });
    await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) });
  });
  const unsubscribers = new Map<number, () => void>();
  await page.exposeFunction('__standInInvoke', (ns: string, method: string, args: unknown[]) => api[ns]![method]!(...args));
  await page.exposeFunction('__standInSubscribe', (ns: string, method: string, id: number) => {
    const stop = api[ns]![method]!((payload: unknown) => void page.evaluate(([to, value]) => (globalThis as unknown as { __standInDeliver(id: number, payload: unknown): void }).__standInDeliver(to as number, value), [id, payload]).catch(() => {}));
    unsubscribers.set(id, stop as () => void);
  });
  await page.exposeFunction('__standInUnsubscribe', (id: number) => unsubscribers.get(id)?.());
  const shape = Object.fromEntries(Object.entries(api).map(([ns, methods]) => [ns, Object.keys(methods)]));
  await page.addInitScript(installPageApi, shape);
  window.webContents.url = url;
  await page.goto(`${PAGE_ORIGIN}${new URL(url).pathname}`);
  control.page = page;
  return page;
}

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
  on(): void {},
};

class IpcRenderer extends EventEmitter {
  /** As Electron: the main process sees our window's web contents and its main frame at the app URL; arguments and results are copied. */
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const sender = windows[0]!.webContents;
    const event = { sender, senderFrame: { url: sender.url, parent: null } };
    return structuredClone(await handler(event, ...structuredClone(args)));
  }
  send(): void {}
}
export const ipcRenderer = new IpcRenderer();

export const contextBridge = {
  exposeInMainWorld(key: string, api: Record<string, Record<string, Handler>>): void {
    control.exposed.set(key, api);
  },
};
export const webUtils = { getPathForFile: (file: { name: string }) => file.name };

export const session = {
  defaultSession: Object.assign(new EventEmitter(), {
    protocol: {
      handle(_scheme: string, handler: (request: { url: string }) => Promise<Response> | Response) {
        control.protocolHandler = handler;
      },
    },
    webRequest: { onHeadersReceived() {} },
    setPermissionRequestHandler() {},
    setPermissionCheckHandler() {},
    setDevicePermissionHandler() {},
  }),
};
export const protocol = { registerSchemesAsPrivileged() {} };

export class Tray extends EventEmitter {
  image: { path: string };
  tooltip = '';
  menu: { items: MenuItem[] } | null = null;
  destroyed = false;
  constructor(image: { path: string }) {
    super();
    this.image = image;
    control.trays.push(this);
  }
  setImage(image: { path: string }): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: { items: MenuItem[] }): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}
export const Menu = { buildFromTemplate: (items: MenuItem[]) => ({ items }) };
export const nativeImage = { createFromPath: (file: string) => ({ path: file }) };
export const nativeTheme = Object.assign(new EventEmitter(), { themeSource: 'system', shouldUseDarkColors: false });

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }
  private options: { title: string; body: string };
  constructor(options: { title: string; body: string }) {
    super();
    this.options = options;
  }
  show(): void {
    control.notifications.push({ title: this.options.title, body: this.options.body });
  }
  close(): void {}
}

export const dialog = {
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  // Declines offers (start at login): the smoke test changes nothing outside its folders.
  showMessageBox: async () => ({ response: 1, checkboxChecked: false }),
  showErrorBox: (title: string, content: string) => void control.errorBoxes.push(`${title}: ${content}`),
};
export const shell = { openExternal: async () => {}, showItemInFolder: () => {} };
export const clipboard = { writeText: () => {} };
/** Mains power: the scan schedules ask before a job (skip on battery) and listen for wake-ups. */
export const powerMonitor = Object.assign(new EventEmitter(), { isOnBatteryPower: () => false });
