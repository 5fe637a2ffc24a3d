// "Checked only by basic rules" is never shown as clean, in the real renderer (Chromium) over
// the real core: a file the built-in engine judged clean reads "Basic checks only" with its own
// icon and look (not "Clean"), has a filter of its own, and its detail says what it means and
// what to do; ClamAV's clean verdict beside it still reads "Clean"; axe finds nothing, in
// English and in German.
import { describe, expect, it } from 'vitest';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { contrastOf } from './support/app-harness.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';
import { judgedRecord as judged, seedHistory } from './support/seeded-history.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-basic-only-', engine: false });

const SEEDED = [
  judged('basic.txt', '2026-11-20T10:00:00.000Z', { detailed: 'clean (basic checks only; ClamAV not available)', engine: { name: 'builtin', version: null, signatures: null } }),
  judged('clamav.txt', '2026-11-20T10:00:01.000Z', { detailed: 'clean', engine: { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: '2026-11-20T09:00:00.000Z' } } }),
  judged('eicar.com', '2026-11-20T10:00:02.000Z', { safe: false, detailed: 'infected', findings: [{ name: 'EICAR-Test-File' }], engine: { name: 'builtin', version: null, signatures: null } }),
];

const seed = seedHistory(SEEDED);

describe('basic checks only', () => {
  it('reads "Basic checks only", never "Clean": its badge, its filter and its detail, axe-clean', async () => {
    const { real, app, page } = await start({ prepare: seed });
    const basic = rowFor(page, 'basic.txt');
    await basic.and(page.locator('[data-verdict=basic-only]')).waitFor();
    const badge = basic.locator('.badge');
    expect(await badge.textContent()).toBe(en['verdict.basic-only']);
    expect(await badge.textContent()).not.toBe(en['verdict.safe']);
    expect(await badge.getAttribute('class')).toContain('badge--basic-only');
    expect(await badge.locator('svg').count()).toBe(1);
    // ClamAV's clean verdict is clean; the built-in engine's EICAR is a threat.
    expect(await rowFor(page, 'clamav.txt').locator('.badge').textContent()).toBe(en['verdict.safe']);
    expect(await rowFor(page, 'eicar.com').getAttribute('data-verdict')).toBe('unsafe');
    expect(await contrastOf(page, '.row .badge--basic-only')).toBeGreaterThanOrEqual(4.5);

    // A filter of its own; the clean filter leaves it out.
    const filter = page.getByLabel(en['filter.verdict']);
    expect(await filter.locator('option[value="basic-only"]').textContent()).toBe(en['verdict.basic-only']);
    await filter.selectOption('basic-only');
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(1);
    expect(await page.locator('.row[data-scan-id]').getAttribute('data-verdict')).toBe('basic-only');
    await filter.selectOption('safe');
    await rowFor(page, 'clamav.txt').waitFor();
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(1);
    await filter.selectOption('all');

    // The detail says what it means (ClamAV was not available) and what to do (scan again with ClamAV).
    await rowFor(page, 'basic.txt').click();
    const detail = page.getByTestId('detail-panel');
    const note = detail.getByTestId('basic-only');
    await note.waitFor();
    expect(await note.textContent()).toContain(en['detail.basicOnlyTitle']);
    expect(await note.textContent()).toContain(en['detail.basicOnlyHint']);
    expect(await note.textContent()).toContain(en['detail.basicOnlyNext']);
    expect(await detail.locator('.detail__verdict .badge').textContent()).toBe(en['verdict.basic-only']);
    expect(await detail.getByRole('button', { name: en['detail.rescan'] }).count()).toBe(1);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('basic-only-detail-en');

    // German: its own word, and the detail in German.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    const german = rowFor(page, 'basic.txt');
    await german.waitFor();
    expect(await german.locator('.badge').textContent()).toBe(de['verdict.basic-only']);
    await german.click();
    await page.getByTestId('detail-panel').getByTestId('basic-only').getByText(de['detail.basicOnlyTitle']).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expectNoProblems(app);
  });
});
