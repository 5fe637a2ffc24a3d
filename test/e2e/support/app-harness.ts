// Runs the production renderer in Debian's Chromium against a CoreApi through
// the test bridge: builds the renderer once per test file, serves it with the
// bridge on one loopback origin, and collects page errors and CSP violations
// (a test fails on any). Screenshots go to test-results/screenshots/.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { rendererConfig } from '../../../vite.config.ts';
import type { CoreApi, VerdictApi } from '../../../shared/bridge/api.ts';
import { ok, type Result } from '../../../shared/result.ts';
import { installTestBridge } from '../../support/test-bridge/browser-bridge.ts';
import { BRIDGE_PREFIX, createTestBridge, type TestBridge } from '../../support/test-bridge/bridge-server.ts';
import { startTestServer, type TestServer } from '../../support/test-bridge/test-server.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCREENSHOT_DIR = path.join(REPO, 'test-results', 'screenshots');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Builds the renderer for production into a temp folder (never a stale dist/). */
export async function buildRenderer(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'verdict-renderer-'));
  // The renderer part of vite.config.ts only: the Electron main/preload builds write to the repo.
  // vitest sets NODE_ENV=test, which Vite and the React plugin would honour (React's
  // development build and JSX): build as `vite build` does, then put it back.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ ...rendererConfig, configFile: false, mode: 'production', logLevel: 'warn', build: { ...rendererConfig.build, outDir: dir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  // A development bundle would not be what ships; make sure this one is not (the app is split into chunks: check each).
  const chunks = (await readdir(path.join(dir, 'assets'))).filter((name) => name.endsWith('.js'));
  const texts = await Promise.all(chunks.map((name) => readFile(path.join(dir, 'assets', name), 'utf8')));
  if (chunks.length === 0 || texts.some((text) => text.includes('jsxDEV'))) throw new Error('the renderer build is not a production build');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** playwright's launch() gives every browser a fresh temporary profile (user data dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface OpenAppOptions {
  core: CoreApi;
  staticDir: string;
  colorScheme?: 'light' | 'dark';
  /** files.pathFor: dropped file name → path. */
  paths?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** Device pixels per CSS pixel: 2 with a half-size viewport is the window at 200 % zoom. */
  deviceScaleFactor?: number;
  /** "Scan with Verdict" in the file manager (the real handlers on a test home); without it the section is not shown. */
  fileManagerMenus?: VerdictApi['fileManagerMenus'];
  /** The files saved scans' export writes and import reads (the app's dialogs); without it both are cancelled. */
  savedScanFiles?: { exportTo(): Promise<string | null>; importFrom(): Promise<string | null> };
}

export interface AppHarness {
  page: Page;
  context: BrowserContext;
  bridge: TestBridge;
  server: TestServer;
  /** The paths the next "Add files" / "Add folder" dialog returns (then: cancelled). */
  pickNext(paths: string[]): void;
  /** What the next save dialog (restore elsewhere) answers: a path, or null for cancel (then: cancelled). */
  saveNext(path: string | null): void;
  /** The names the save dialogs were opened with. */
  saveRequests: string[];
  /** Where the next export's save dialog writes: a path, or null for cancel (then: cancelled). */
  exportNext(path: string | null): void;
  /** The formats the export dialogs were opened for. */
  exportRequests: string[];
  copied: string[];
  revealed: string[];
  /** Uncaught page errors, console errors and CSP violations so far. */
  problems: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

// Chromium's notice that a <meta> CSP cannot carry frame-ancestors (the app's header does).
const EXPECTED_CONSOLE = [/frame-ancestors' is ignored when delivered via a <meta> element/];

export async function openApp(browser: Browser, options: OpenAppOptions): Promise<AppHarness> {
  const picks: string[][] = [];
  const saves: Array<string | null> = [];
  const saveRequests: string[] = [];
  const exports: Array<string | null> = [];
  const exportRequests: string[] = [];
  const copied: string[] = [];
  const revealed: string[] = [];
  const problems: string[] = [];
  const bridge = createTestBridge(options.core, {
    pick: async (): Promise<Result<string[]>> => ok(picks.shift() ?? []),
    pickSaveLocation: async (defaultName): Promise<Result<string | null>> => {
      saveRequests.push(defaultName);
      return ok(saves.shift() ?? null);
    },
    pickExportLocation: async (format): Promise<Result<string | null>> => {
      exportRequests.push(format);
      return ok(exports.shift() ?? null);
    },
    reveal: async (target) => {
      revealed.push(target);
      return ok(null);
    },
    copyText: async (text) => {
      copied.push(text);
      return ok(null);
    },
    ...(options.fileManagerMenus ? { fileManagerMenus: options.fileManagerMenus } : {}),
    ...(options.savedScanFiles ? { savedScanFiles: options.savedScanFiles } : {}),
  });
  const server = await startTestServer({ staticDir: options.staticDir, bridge });
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.deviceScaleFactor === undefined ? {} : { deviceScaleFactor: options.deviceScaleFactor }),
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !EXPECTED_CONSOLE.some((expected) => expected.test(text))) problems.push(`console error: ${text}`);
  });
  // A CSP violation also fires this event in the page; report it in the same list.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  await page.addInitScript(installTestBridge, { prefix: BRIDGE_PREFIX, paths: options.paths ?? {} });
  await page.goto(server.url);
  await bridge.subscribed();
  return {
    page,
    context,
    bridge,
    server,
    pickNext: (paths) => picks.push(paths),
    saveNext: (target) => saves.push(target),
    saveRequests,
    exportNext: (target) => exports.push(target),
    exportRequests,
    copied,
    revealed,
    problems,
    async screenshot(name) {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async close() {
      await context.close();
      await server.close();
    },
  };
}

/** WCAG contrast ratio between an element's text colour and its own background colour. */
export async function contrastOf(page: Page, selector: string): Promise<number> {
  const [text, background] = await page
    .locator(selector)
    .first()
    .evaluate((element) => {
      // Runs in the page (this file is typechecked without the DOM lib).
      const view = globalThis as unknown as { getComputedStyle(target: unknown): { color: string; backgroundColor: string } };
      const style = view.getComputedStyle(element);
      return [style.color, style.backgroundColor] as const;
    });
  const channels = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = (css: string): number => {
    const [r = 0, g = 0, b = 0] = channels(css).map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}
