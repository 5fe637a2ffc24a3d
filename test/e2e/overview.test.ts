// The protection overview (issue 29 §5) in the real renderer (Chromium) over the real core: the
// Overview tab shows the last 30 days from the history (files scanned and threats per day, the
// verdict mix, the top detections) as SVG charts with a table for screen readers holding the same
// figures, coloured from the theme in light and dark, in English and German; axe finds nothing.
import { describe, expect, it } from 'vitest';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from './support/axe.ts';
import { overflowsOf } from './support/layout-checks.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import { judgedRecord as judged, seedHistory } from './support/seeded-history.ts';
import { openHistory } from '../../electron/history/history.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-overview-', engine: false });

// Noon (UTC) some days ago: the same day in any time zone Chromium runs in here.
const daysAgo = (days: number, minute = 0) => {
  const at = new Date();
  at.setUTCHours(12, minute, 0, 0);
  return new Date(at.getTime() - days * 86_400_000).toISOString();
};
const threat = (name: string, at: string, detection: string) => judged(name, at, { safe: false, detailed: `${detection} FOUND`, findings: [{ name: detection }] });

const SEEDED = [
  ...Array.from({ length: 6 }, (_, i) => judged(`clean-${i}.txt`, daysAgo(2, i), {})),
  ...Array.from({ length: 3 }, (_, i) => judged(`old-${i}.txt`, daysAgo(20, i), {})),
  threat('a.exe', daysAgo(2, 10), 'Win.Trojan.Alpha'),
  threat('b.exe', daysAgo(1, 11), 'Win.Trojan.Alpha'),
  threat('c.doc', daysAgo(1, 12), 'Doc.Macro.Beta'),
  judged('gone.bin', daysAgo(1, 13), { status: 'failed', safe: null, error: { code: 'engine_error', message: 'engine failed' } }),
  // Older than the 30 days: not counted.
  judged('ancient.txt', daysAgo(45), {}),
];

/** Midnight (UTC) some days ago: a build date whose age today is exactly that many days. */
const midnightDaysAgo = (days: number) => Date.parse(daysAgo(days)) - 12 * 3_600_000;
/** Signature updates noticed 40 (before the 30 days), 25, 12 and 3 days ago, each built the day before. */
const UPDATES = [40, 25, 12, 3].map((days, i) => ({
  noticedMs: Date.parse(daysAgo(days)),
  engine: 'clamav',
  engineVersion: '1.4.2',
  identity: `version:${27_400 + i}`,
  signatureVersion: 27_400 + i,
  databases: null,
  signatureDate: new Date(midnightDaysAgo(days + 1)).toISOString(),
}));
const seedUpdates = (dataDir: string) => {
  seedHistory(SEEDED)(dataDir);
  const history = openHistory(dataDir);
  try {
    for (const update of UPDATES) history.signatureUpdates.notice(update);
  } finally {
    history.close();
  }
};

/** The hidden table of a chart, as [label, value] rows. */
const tableOf = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator('table tbody tr')
    .evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent ?? '', row.querySelector('td')?.textContent ?? '']));
/** A hidden table (the nth of a chart), every cell of each row. */
const cellsOf = (page: Page, testId: string, nth = 0) =>
  page
    .getByTestId(testId)
    .locator('table')
    .nth(nth)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')));

const fillOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => (globalThis as unknown as { getComputedStyle(target: unknown): { fill: string } }).getComputedStyle(element).fill);

describe('the protection overview', () => {
  it('draws the last 30 days with tables for screen readers, themed, in en and de, axe-clean', async () => {
    const { real, app, page } = await start({ prepare: seedUpdates }, 'light', { viewport: { width: 1000, height: 1400 } });
    await page.getByRole('button', { name: en['nav.overview'] }).click();
    const view = page.getByTestId('overview-view');
    await view.locator('[data-testid=overview-facts]').waitFor();
    await page.getByRole('heading', { level: 1, name: en['overview.title'] }).waitFor();

    // Thirty bars a chart; the tables hold the figures the bars draw.
    expect(await page.getByTestId('overview-scanned').locator('svg .overview-bar').count()).toBe(30);
    const scanned = await tableOf(page, 'overview-scanned');
    expect(scanned).toHaveLength(30);
    const counts = scanned.map(([, value]) => Number(value));
    // Two days ago: six clean and a threat; yesterday two threats (the failure is not "scanned"); 20 days ago three.
    expect(counts.slice(-3)).toEqual([7, 2, 0]);
    expect(counts[9]).toBe(3);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    expect((await tableOf(page, 'overview-threats')).map(([, value]) => Number(value)).slice(-3)).toEqual([1, 2, 0]);
    expect(await tableOf(page, 'overview-mix')).toEqual([
      [en['verdict.safe'], '9'],
      [en['verdict.unsafe'], '3'],
      [en['verdict.could-not-scan'], '1'],
    ]);
    expect(await tableOf(page, 'overview-top')).toEqual([
      ['Win.Trojan.Alpha', '2'],
      ['Doc.Macro.Beta', '1'],
    ]);
    expect(await page.getByTestId('overview-facts').textContent()).toContain(en['overview.facts.noSchedule']);
    // Signature updates: a dot a day with one (three in the 30 days), the age each day in the table; today's signatures were built 4 days ago.
    const signatures = page.getByTestId('overview-signatures');
    expect(await signatures.locator('svg .overview-update').count()).toBe(3);
    expect(await signatures.locator('svg .overview-age').count()).toBeGreaterThan(0);
    const ages = await cellsOf(page, 'overview-signatures');
    expect(ages).toHaveLength(30);
    expect(ages.map((row) => Number(row[1])).reduce((a, b) => a + b, 0)).toBe(3);
    expect(ages.at(-1)?.[2]).toBe('4');
    // Two days ago: the signatures noticed the day before were built at the start of the day before that,
    // so at that day's end they were three whole days old.
    expect(ages.at(-3)?.[2]).toBe('3');
    expect((await cellsOf(page, 'overview-signatures', 1)).map((row) => row[1])).toEqual(['27401', '27402', '27403']);
    expect(await signatures.textContent()).toContain('3 updates noticed in these days.');

    // Coloured from the theme: the files' bars are the accent colour, threats the danger colour, each per scheme.
    const lightFill = await fillOf(page, '[data-testid=overview-scanned] .overview-bar');
    expect(lightFill).toBe('rgb(10, 88, 176)');
    expect(await fillOf(page, '[data-testid=overview-threats] .overview-bar')).toBe('rgb(180, 35, 27)');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('overview-light-en');

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => fillOf(page, '[data-testid=overview-scanned] .overview-bar')).toBe('rgb(108, 176, 255)');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('overview-dark-en');

    // German: its own words and day names, the same figures.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: de['nav.overview'] }).click();
    await page.getByRole('heading', { level: 1, name: de['overview.title'] }).waitFor();
    expect(await tableOf(page, 'overview-mix')).toEqual([
      [de['verdict.safe'], '9'],
      [de['verdict.unsafe'], '3'],
      [de['verdict.could-not-scan'], '1'],
    ]);
    expect(await page.getByTestId('overview-signatures').textContent()).toContain('3 Updates in diesen Tagen bemerkt.');
    expect((await cellsOf(page, 'overview-signatures')).at(-1)?.[2]).toBe('4');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('overview-dark-de');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => fillOf(page, '[data-testid=overview-scanned] .overview-bar')).toBe(lightFill);
    await app.screenshot('overview-light-de');
    // A narrow window (or 200 % zoom): nothing scrolls sideways or leaves the window, in the longer German words,
    // once the charts have taken their new width (a ResizeObserver answers a frame after the resize).
    await page.setViewportSize({ width: 480, height: 900 });
    await expect.poll(() => overflowsOf(page)).toEqual([]);
    await app.screenshot('overview-narrow-de');
    expectNoProblems(app);
  });
});
