// Settings › File manager in Chromium, with the real handlers writing into a test home (an
// AppImage's): "Add Scan with Verdict to my file manager" writes the four entries and lists
// them, the section reads in German, "Remove" takes them away and leaves the home as it was,
// and axe finds nothing (screenshot: file-manager-menus.png). A .deb install only lists the
// system-wide files; elsewhere the section is not shown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileManagerMenuHandlers, type MenuHost } from '../../electron/file-manager-menus/menu-handlers.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { buildRenderer, launchChromium, openApp, type AppHarness } from './support/app-harness.ts';
import { expectNoProblems } from './support/e2e-app.ts';
import { startRealCore, type RealCore } from './support/real-core.ts';

const en = translator('en');
const de = translator('de');

let built: Awaited<ReturnType<typeof buildRenderer>>;
let browser: Browser;
let home: string;
beforeAll(async () => {
  [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-e2e-home-'));
  fs.mkdirSync(path.join(home, '.local/share'), { recursive: true });
  fs.mkdirSync(path.join(home, '.config'));
});
afterAll(async () => {
  await browser?.close();
  await built?.remove();
  fs.rmSync(home, { recursive: true, force: true });
});

async function open(host: Partial<MenuHost>): Promise<{ real: RealCore; app: AppHarness }> {
  const real = await startRealCore({ clamd: null });
  const fileManagerMenus = createFileManagerMenuHandlers({ platform: 'linux', env: { APPIMAGE: '/home/u/Apps/Verdict.AppImage' }, home, execPath: '/tmp/.mount_V/verdict', defaultApp: false, appPath: '/tmp/.mount_V/resources/app.asar', ...host });
  const app = await openApp(browser, { core: real.core, staticDir: built.dir, fileManagerMenus });
  await app.page.getByRole('button', { name: en.t('nav.settings') }).click();
  await app.page.getByTestId('settings-view').waitFor();
  return { real, app };
}

describe('Settings › File manager', () => {
  it('adds the entries, lists their files, reads in German, and removes them again', async () => {
    const { real, app } = await open({});
    const { page } = app;
    try {
      const section = page.getByTestId('file-manager-menus');
      await section.getByRole('heading', { name: en.t('settings.fileManager') }).waitFor();
      await section.getByText(en.t('settings.fileManager.none')).waitFor();
      await section.getByRole('button', { name: en.t('settings.fileManager.add') }).click();
      const files = section.getByTestId('file-manager-files').locator('li');
      await expect.poll(() => files.count()).toBe(4);
      expect(await files.allInnerTexts()).toEqual([
        `GNOME Files: ${path.join(home, '.local/share/nautilus/scripts/Scan with Verdict')}`,
        `Nemo: ${path.join(home, '.local/share/nemo/actions/verdict-scan.nemo_action')}`,
        `Dolphin: ${path.join(home, '.local/share/kio/servicemenus/verdict-scan.desktop')}`,
        `Thunar: ${path.join(home, '.config/Thunar/uca.xml')}`,
      ]);
      expect(fs.readFileSync(path.join(home, '.local/share/kio/servicemenus/verdict-scan.desktop'), 'utf8')).toContain('Exec=/home/u/Apps/Verdict.AppImage %F');
      expect(describeViolations(await axeViolations(page))).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await app.screenshot('file-manager-menus');

      expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
      await page.reload();
      await page.locator('html[lang=de]').waitFor();
      await page.getByRole('button', { name: de.t('nav.settings') }).click();
      await section.getByRole('heading', { name: de.t('settings.fileManager') }).waitFor();
      // Written again in German: the GNOME Files script is named in the language chosen.
      await section.getByRole('button', { name: de.t('settings.fileManager.again') }).click();
      await section.getByText(`GNOME Dateien: ${path.join(home, '.local/share/nautilus/scripts/Mit Verdict prüfen')}`).waitFor();
      expect(describeViolations(await axeViolations(page))).toEqual([]);

      await section.getByRole('button', { name: de.t('settings.fileManager.remove') }).click();
      await section.getByText(de.t('settings.fileManager.none')).waitFor();
      expect(fs.readdirSync(path.join(home, '.local/share'))).toEqual([]);
      expect(fs.readdirSync(path.join(home, '.config'))).toEqual([]);
      expectNoProblems(app);
    } finally {
      await app.close();
      await real.close();
    }
  });

  it('is not shown where Settings has nothing to add (Windows, macOS)', async () => {
    const { real, app } = await open({ platform: 'win32' });
    try {
      await app.page.getByRole('heading', { name: en.t('settings.startup') }).waitFor();
      await expect.poll(() => app.bridge.calls.some((call) => call.channel === 'fileManagerMenus:status')).toBe(true);
      // Past the answer's render.
      await app.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
      expect(await app.page.getByTestId('file-manager-menus').count()).toBe(0);
      expectNoProblems(app);
    } finally {
      await app.close();
      await real.close();
    }
  });
});
