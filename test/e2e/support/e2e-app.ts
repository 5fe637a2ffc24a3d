// The set-up the Chromium e2e files share: the production renderer built once,
// one browser, optionally a real clamd and a private keyring for the file, and
// per test a real core with the app opened over it, closed after the test.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CoreApi } from '../../../shared/bridge/api.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { RunningClamd } from '../../support/clamd.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { startKeyring, type Keyring } from '../../support/keyring.ts';
import { buildRenderer, launchChromium, openApp, type AppHarness, type OpenAppOptions } from './app-harness.ts';
import { startEngine, startRealCore, type RealCore } from './real-core.ts';

type CoreSetup = Omit<Parameters<typeof startRealCore>[0], 'clamd'>;

export interface E2eApp {
  /** A real core (with the file's engine) and the app opened over it; both close after the test. */
  start(
    core?: CoreSetup,
    colorScheme?: 'light' | 'dark',
    view?: Pick<OpenAppOptions, 'viewport' | 'deviceScaleFactor'>,
    /** What the window talks to instead of the core itself (a test that shows a state the core cannot be brought to). */
    wrap?: (core: CoreApi) => CoreApi,
  ): Promise<{ real: RealCore; app: AppHarness; page: Page }>;
  /** Files with these names and contents (latin1) in a new folder of their own; returns their paths by name. */
  writeFiles(files: Record<string, string>): Promise<Record<string, string>>;
  /** This file's scratch folder (removed after the file). */
  work(): string;
  /** Closes `thing` after the current test (after the app and core it was opened after). */
  closeAfterTest(thing: { close(): Promise<unknown> }): void;
}

/** Registers the hooks; call at the top of an e2e test file. */
export function useE2eApp(options: { prefix: string; engine: boolean; keyring?: boolean }): E2eApp {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let browser: Browser;
  let clamd: RunningClamd | null = null;
  let keyring: Keyring | null = null;
  let work = '';
  const onCleanup = useCleanups();
  const closeAfterTest = (thing: { close(): Promise<unknown> }) => onCleanup(() => thing.close());

  beforeAll(async () => {
    if (options.keyring) keyring = await startKeyring();
    [built, browser, clamd] = await Promise.all([buildRenderer(), launchChromium(), options.engine ? startEngine() : null]);
    work = await mkdtemp(path.join(tmpdir(), options.prefix));
  });
  afterAll(async () => {
    await browser?.close();
    await clamd?.stop();
    await built?.remove();
    await keyring?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  return {
    async start(core = {}, colorScheme = 'light', view = {}, wrap = (api) => api) {
      const real = await startRealCore({ clamd, ...core });
      closeAfterTest(real);
      const app = await openApp(browser, { core: wrap(real.core), staticDir: built.dir, colorScheme, ...view });
      closeAfterTest(app);
      return { real, app, page: app.page };
    },
    async writeFiles(files) {
      const dir = await mkdtemp(path.join(work, 'set-'));
      const paths: Record<string, string> = {};
      for (const [name, content] of Object.entries(files)) {
        paths[name] = path.join(dir, name);
        await writeFile(paths[name], content, 'latin1');
      }
      return paths;
    },
    work: () => work,
    closeAfterTest,
  };
}

/**
 * Drops paths on the drop zone the way a file manager would: a File per name, which the
 * bridge's files.pathFor maps back to its path (names must differ). One page call for
 * the lot, so 10,000 files are one drop.
 */
export async function dropPaths(page: Page, paths: readonly string[]): Promise<void> {
  const entries = JSON.stringify(paths.map((file) => [path.basename(file), file]));
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const [name, file] of ${entries}) {
      window.__verdictTestBridge.setPath(name, file);
      transfer.items.add(new File(['x'], name));
    }
    return transfer;
  })()`);
  const zone = page.getByTestId('dropzone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** The list row of the file with this name. */
export const rowFor = (page: Page, fileName: string) => page.locator('.row[data-scan-id]', { has: page.locator('.row__filename', { hasText: fileName }) });

/** The core's own record for a path (what the UI shows must agree with it). */
export async function recordFor(real: RealCore, filePath: string): Promise<ScanRecord | undefined> {
  const list = await real.core.scans.list({ limit: 1000 });
  if (!list.ok) throw new Error(list.error.message);
  return list.value.items.find((record) => record.path === filePath);
}

/** No page error, console error or CSP violation happened. */
export function expectNoProblems(app: AppHarness): void {
  expect(app.problems, 'page errors, console errors or CSP violations').toEqual([]);
}
