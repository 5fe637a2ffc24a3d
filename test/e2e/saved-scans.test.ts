// Saved scans in the real renderer (Chromium) over the real core: Settings › Saved scans saves
// a custom scan (a folder added with the folder dialog, one left out, an option, a daily time), lists it,
// runs it (a custom job of the core, which finds the threat and leaves the folder out), exports it to a file and imports a file with a problem (named, nothing
// changed); axe-clean, and in German.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { buildRenderer, launchChromium, openApp } from './support/app-harness.ts';
import { expectNoProblems } from './support/e2e-app.ts';
import { startRealCore } from './support/real-core.ts';

let built: Awaited<ReturnType<typeof buildRenderer>>;
let browser: Browser;
beforeAll(async () => {
  [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await built?.remove();
});

describe('Settings › Saved scans', () => {
  it('saves, lists, runs, exports and imports (a problem named), in English and German', async () => {
    const real = await startRealCore({ clamd: null });
    // The scanned folder and the exported and imported files, in a folder of their own that the test removes.
    const work = await mkdtemp(path.join(tmpdir(), 'verdict-saved-e2e-'));
    const root = path.join(work, 'scanned');
    await mkdir(path.join(root, 'skip me'), { recursive: true });
    await writeFile(path.join(root, 'eicar.com'), EICAR_TEST_STRING);
    await writeFile(path.join(root, 'skip me', 'also-eicar.com'), EICAR_TEST_STRING);
    const exported = path.join(work, 'export.json');
    const bad = path.join(work, 'bad.json');
    await writeFile(bad, JSON.stringify({ verdict: 'saved-scans', version: 1, scans: [{ name: 'X', folders: ['relative'] }] }));
    const files = [exported, bad];
    const app = await openApp(browser, { core: real.core, staticDir: built.dir, savedScanFiles: { exportTo: async () => files[0] ?? null, importFrom: async () => files[1] ?? null } });
    const { page } = app;
    try {
      await page.getByRole('button', { name: en['nav.settings'] }).click();
      const section = page.getByTestId('saved-scans');
      await section.getByText(en['savedScans.none']).waitFor();
      await section.getByLabel(en['savedScans.name']).fill('Work');
      app.pickNext([root]);
      await section.getByRole('button', { name: en['savedScans.addFolder'] }).click();
      await expect.poll(() => section.getByLabel(en['savedScans.folders']).inputValue()).toBe(root);
      await section.getByLabel(en['savedScans.excluded']).fill(path.join(root, 'skip me'));
      await section.getByLabel(en['savedScans.force']).check();
      await section.getByLabel(en['settings.schedules.repeat']).selectOption('daily');
      await section.getByRole('button', { name: en['savedScans.save'] }).click();
      await section.getByTestId('saved-scan').filter({ hasText: 'Work' }).waitFor();
      expect(await real.core.savedScans.list()).toMatchObject({ ok: true, value: [{ name: 'Work', folders: [root], excluded: [path.join(root, 'skip me')], force: true, schedule: { repeat: 'daily', time: '09:00' } }] });
      await section.getByTestId('saved-scan').getByText(`${root} · ${en['settings.schedules.repeat.daily']}, 09:00`).waitFor();
      // Scheduled scans' "Next scan" includes the saved scans' schedules (the quick and full scans are off).
      await page.getByTestId('schedule-next').getByText('Next scan: “Work”, ', { exact: false }).waitFor();
      expect(describeViolations(await axeViolations(page))).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await app.screenshot('saved-scans');

      await section.getByRole('button', { name: en['savedScans.runLabel'].replace('{name}', 'Work') }).click();
      await page.getByText(en['savedScans.started'].replace('{name}', 'Work')).waitFor();
      await expect.poll(async () => { const list = await real.core.scanJobs.list(); return list.ok ? list.value[0]?.job.status : undefined; }, { timeout: 30_000 }).toBe('completed');
      const jobs = await real.core.scanJobs.list();
      expect(jobs).toMatchObject({ ok: true, value: [{ job: { kind: 'custom', roots: [root], counts: { threats: 1, skipped: 1 }, savedScan: { name: 'Work', excluded: [path.join(root, 'skip me')] } } }] });
      // Its job row is named after the saved scan.
      await page.getByRole('button', { name: en['nav.scans'] }).click();
      await page.getByTestId('job-row').locator('.job__kind').getByText('Saved scan “Work”', { exact: true }).waitFor();
      await page.getByRole('button', { name: en['nav.settings'] }).click();

      await section.getByRole('button', { name: en['savedScans.export'] }).click();
      await page.getByText(en['savedScans.exported'].replace('{count}', '1')).waitFor();
      expect(JSON.parse(await readFile(exported, 'utf8'))).toMatchObject({ verdict: 'saved-scans', version: 1, scans: [{ name: 'Work' }] });
      await section.getByRole('button', { name: en['savedScans.import'] }).click();
      await page.getByText('scans[0].folders[0]: an absolute path', { exact: false }).waitFor();
      expect(await real.core.savedScans.list()).toMatchObject({ ok: true, value: [{ name: 'Work' }] });

      expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
      await page.reload();
      await page.locator('html[lang=de]').waitFor();
      await page.getByRole('button', { name: de['nav.settings'] }).click();
      await section.getByRole('heading', { name: de['savedScans.title'] }).waitFor();
      await section.getByRole('button', { name: de['savedScans.runLabel'].replace('{name}', 'Work') }).waitFor();
      await page.getByTestId('schedule-next').getByText('Nächste Prüfung: „Work“, ', { exact: false }).waitFor();
      expect(describeViolations(await axeViolations(page))).toEqual([]);
      expectNoProblems(app);
    } finally {
      await app.close();
      await real.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
