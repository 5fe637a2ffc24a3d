// The window in real use (issue 30), in Chromium against the real core: with a scan
// job expanded and its clean-file search open, and with a job's threat opened in the
// detail panel, the list keeps at least a third of the window (or ten rows), a job's
// panel scrolls within itself, the window itself never scrolls and the top bar stays
// in view. Measured from the DOM at 1280 × 800 and 1024 × 700, in English and German,
// light and dark; a screenshot of each (test-results/screenshots/window-*.png).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { translator, type Locale } from '../../renderer/i18n/messages.ts';
import { writeTree } from '../electron/jobs/job-kit.ts';
import type { AppHarness } from './support/app-harness.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';
import { languageOf, layoutOf, layoutProblems } from './support/window-checks.ts';

const { start, work } = useE2eApp({ prefix: 'verdict-e2e-window-', engine: false });

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const;

async function setLanguage(real: RealCore, page: Page, language: Locale): Promise<void> {
  expect((await real.core.settings.update({ language })).ok).toBe(true);
  await page.reload();
  await page.locator(`html[lang=${language}]`).waitFor();
}

/** The finished job's row expanded, its clean files searched and paged once. */
async function expandJob(page: Page, language: Locale): Promise<void> {
  const t = translator(language).t;
  const row = page.getByTestId('job-row').and(page.locator('[data-status=completed]'));
  await row.locator('.job__toggle').click();
  const search = row.getByLabel(t('jobs.clean.label'));
  await search.fill('f-');
  await row.getByTestId('job-clean-search').getByRole('button', { name: t('jobs.clean.next') }).click();
  await row.getByTestId('job-clean-search').getByText(/11–20/).waitFor();
}

/** At each size, light and dark: the layout holds, with a screenshot of each. */
async function checkEverySize(app: AppHarness, name: string, failures: string[]): Promise<void> {
  const { page } = app;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Two frames: the virtualizer measures its new height after a resize.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      const label = `${name} ${size.width}×${size.height} ${scheme}`;
      failures.push(...layoutProblems(await layoutOf(page)).map((problem) => `${label}: ${problem}`));
      await app.screenshot(`window-${name}-${size.width}x${size.height}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES[0]);
}

describe('the window in use keeps the list in view and never scrolls itself', () => {
  it('an empty list under an expanded job with its clean-file search open: the list keeps its share, the sentence whole', async () => {
    const root = path.join(work(), 'clean-only');
    await writeTree(root, 40);
    const { real, app, page } = await start();
    app.pickNext([root]);
    await page.getByTestId('start-custom').click();
    await page.getByTestId('job-row').and(page.locator('[data-status=completed]')).waitFor({ timeout: 60_000 });
    const failures: string[] = [];
    for (const language of ['en', 'de'] as const) {
      await setLanguage(real, page, language);
      await page.locator('.list__empty').waitFor();
      await expandJob(page, language);
      // The job's panel is a box of its own that scrolls (40 clean files, 10 a page, three lists above).
      expect(await page.evaluate(`getComputedStyle(document.querySelector('.job__details:not([hidden])')).overflowY`)).toBe('auto');
      await checkEverySize(app, `empty-list-job-open-${language}`, failures);
    }
    expect(failures).toEqual([]);
    expectNoProblems(app);
  });

  it('a job’s threat opened from its expanded row: the detail panel beside the list, the top bar in view', async () => {
    const root = path.join(work(), 'with-threat');
    await writeTree(root, 60);
    await writeFile(path.join(root, 'eicar.com'), EICAR_TEST_STRING);
    const { real, app, page } = await start();
    app.pickNext([root]);
    await page.getByTestId('start-custom').click();
    await page.getByTestId('job-row').and(page.locator('[data-status=completed]')).waitFor({ timeout: 60_000 });
    const failures: string[] = [];
    for (const language of ['en', 'de'] as const) {
      await setLanguage(real, page, language);
      await expandJob(page, language);
      const threats = page.getByTestId('job-files-threats');
      await threats.getByRole('button', { name: 'eicar.com' }).click();
      await page.getByTestId('detail-panel').locator('#detail-title', { hasText: 'eicar.com' }).waitFor();
      // The engine's signature name is its own word, marked English in a German window too.
      expect(await languageOf(page.getByTestId('finding-name'))).toBe('en');
      expect(await languageOf(page.getByTestId('detail-panel'))).toBe(language);
      // Focus in the panel's last control pulls nothing into view but the panel's own scroll.
      await page.getByTestId('detail-panel').locator('button').last().focus();
      await checkEverySize(app, `job-threat-detail-${language}`, failures);
      expect(await page.locator('.topbar').getByRole('button', { name: translator(language).t('nav.settings') }).isVisible()).toBe(true);
    }
    expect(failures).toEqual([]);
    expectNoProblems(app);
  });
});
