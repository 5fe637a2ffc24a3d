// Scan jobs in the window, in Chromium against the real core (built-in engine): a quick
// scan started with "Scan this computer" shows as one running row with its counts and
// controls; a custom scan ends as a finished row with its summary, expands with the
// keyboard to its threats, skipped files and a paged search of its clean files, and
// its clean files never appear as rows of the list. axe over both, en and de, screenshots.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { writeTree } from '../electron/jobs/job-kit.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';
import { focused } from './support/keyboard.ts';

const { start, work } = useE2eApp({ prefix: 'verdict-e2e-jobs-', engine: false });

const fact = (row: Locator, name: string) => row.locator(`[data-fact=${name}] dd`);

describe('scan jobs in the window', () => {
  it('a quick scan is one running row: counts, pace, time left, pause and resume', async () => {
    const home = path.join(work(), 'home-running');
    await writeTree(path.join(home, 'Downloads'), 40);
    // Each scan takes a minute: the job is still running whenever the test looks (it closes with the core).
    const { app, page } = await start({
      localService: { scanDelayMs: 60_000 },
      tuning: { jobPlaces: { platform: 'linux', home, env: { TMPDIR: path.join(home, 'no-tmp') } } },
    });
    await page.getByTestId('start-quick').click();
    const row = page.getByTestId('job-row');
    await row.and(page.locator('[data-status=running]')).waitFor();
    await page.getByTestId('notice-info').getByText(en['jobs.started.quick']).waitFor();
    await expect.poll(() => fact(row, 'found').textContent(), { timeout: 20_000 }).toBe('40');
    expect(await row.locator('.job__kind').textContent()).toBe(en['jobs.kind.quick']);
    expect(await row.locator('.job__status').textContent()).toBe(en['jobs.status.running']);
    expect(await fact(row, 'scanned').textContent()).toBe('0');
    expect(await fact(row, 'threats').textContent()).toBe('0');
    expect(await fact(row, 'speed').textContent()).toMatch(/files\/s$/);
    expect(await fact(row, 'eta').count()).toBe(1);
    expect(await row.locator('progress').count()).toBe(1);
    // The job's files are waiting for the engine; none of them is a row of the list.
    expect(await page.locator('.row[data-scan-id]').count()).toBe(0);

    await row.getByRole('button', { name: en['jobs.pause'] }).click();
    await row.and(page.locator('[data-status=paused]')).waitFor();
    await row.getByRole('button', { name: en['jobs.resume'] }).click();
    await row.and(page.locator('[data-status=running]')).waitFor();
    // A second quick scan while this one runs is refused, and says where the running one is.
    await page.getByTestId('start-quick').click();
    await page.getByTestId('notice-info').getByText(en['jobs.running.quick']).waitFor();
    expect(await page.getByTestId('job-row').count()).toBe(1);

    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('job-running-en');
    expectNoProblems(app);
  });

  it('a custom scan ends as a finished row with its summary; its details open with the keyboard', async () => {
    const root = path.join(work(), 'chosen');
    await writeTree(root, 60);
    await writeFile(path.join(root, 'eicar.com'), EICAR_TEST_STRING);
    await mkdir(path.join(work(), 'elsewhere'), { recursive: true });
    await writeFile(path.join(work(), 'elsewhere', 'secret.txt'), 'outside the chosen folder');
    await symlink(path.join(work(), 'elsewhere', 'secret.txt'), path.join(root, 'link-out.txt'));
    const { real, app, page } = await start();

    app.pickNext([root]);
    await page.getByTestId('start-custom').click();
    const row = page.getByTestId('job-row');
    await row.and(page.locator('[data-status=completed]')).waitFor({ timeout: 60_000 });
    const summary = page.getByTestId('job-summary');
    expect(await summary.textContent()).toBe(`${en['jobs.kind.custom']} finished. Scanned: 61 · Threats: 1 · Could not scan: 0 · Skipped: 1 · Duration: ${await fact(row, 'duration').textContent()}`);
    expect(await fact(row, 'found').textContent()).toBe('62');
    expect(await fact(row, 'scanned').textContent()).toBe('61');
    expect(await fact(row, 'threats').textContent()).toBe('1');
    expect(await fact(row, 'skipped').textContent()).toBe('1');
    expect(await row.getByRole('button', { name: en['jobs.pause'] }).count()).toBe(0);

    // The list shows the job's threat as a row of its own, and none of its 60 clean files.
    await rowFor(page, 'eicar.com').and(page.locator('[data-verdict=unsafe]')).waitFor();
    expect(await page.locator('.row[data-scan-id]').count()).toBe(1);
    const core = await real.core.scans.list({ limit: 1 });
    expect(core.ok && core.value.total).toBe(62);

    // Keyboard: focus the row's toggle, Enter opens the details, Space closes them again.
    const toggle = row.locator('.job__toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    expect((await focused(page)).tag).toBe('button');
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const details = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await details.getByTestId('job-files-threats').getByRole('button', { name: 'eicar.com' }).waitFor();
    await details.getByTestId('job-files-skipped').getByRole('button', { name: 'link-out.txt' }).waitFor();
    expect(await details.getByTestId('job-files-could-not-scan').textContent()).toContain(en['jobs.files.none']);
    // The built-in engine judged its 60 other files (engine: false): listed as basic checks only, a page at a time, never as clean.
    const basic = details.getByTestId('job-files-basic-only');
    await basic.getByRole('heading', { name: `${en['jobs.files.basicOnly']} (60)` }).waitFor();
    expect(await basic.locator('li').count()).toBe(20);
    expect(await basic.locator('.badge').first().textContent()).toBe(en['verdict.basic-only']);
    expect(await details.getByTestId('job-clean-search').textContent()).toContain('0 clean files, and 60 with basic checks only.');

    // Clean files: found by name, ten at a time, never listed all at once.
    const search = details.getByLabel(en['jobs.clean.label']);
    await search.fill('f-');
    const results = details.getByTestId('job-clean-search').locator('[role=status]');
    await results.getByText('60 matches').waitFor();
    expect(await results.locator('li').count()).toBe(10);
    await results.getByRole('button', { name: en['jobs.clean.next'] }).click();
    await results.getByText('11–20 of 60').waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await row.scrollIntoViewIfNeeded();
    await app.screenshot('job-finished-en');

    // A clean file found by its name opens in the detail panel.
    await search.fill('f-42.txt');
    await results.getByText('1 match').waitFor();
    await results.getByRole('button', { name: 'f-42.txt' }).click();
    await page.getByTestId('detail-panel').locator('#detail-title', { hasText: 'f-42.txt' }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await details.isHidden()).toBe(true);

    // German: the same row in the user's language.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    const germanRow = page.getByTestId('job-row');
    await germanRow.locator('.job__status', { hasText: de['jobs.status.completed'] }).waitFor();
    expect(await germanRow.locator('.job__kind').textContent()).toBe(de['jobs.kind.custom']);
    expect(await page.getByRole('heading', { name: de['jobs.start.label'] }).count()).toBe(1);
    expect(await germanRow.locator('[data-fact=couldNotScan], [data-fact=could-not-scan]').locator('dt').textContent()).toBe(de['jobs.fact.couldNotScan']);
    await germanRow.locator('.job__toggle').click();
    await germanRow.getByLabel(de['jobs.clean.label']).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('job-finished-de');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await app.screenshot('job-finished-de-dark');
    expectNoProblems(app);
  });
});
