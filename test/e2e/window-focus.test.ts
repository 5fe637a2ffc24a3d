// Focus after each action goes where the user's attention is (issue 30), keyboard only,
// in Chromium against the real core: the clean-file search's Next and Previous keep focus
// and their results stay while the next page loads; Escape closes the detail panel and
// gives focus back to the row or the job's file it was opened from; Cancel on a running
// job, expanded or collapsed, leaves focus on that job's own toggle; Look again, when
// protection becomes protected, leaves it on the status line, not on "Add files".
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { en } from '../../renderer/i18n/en.ts';
import { writeTree } from '../electron/jobs/job-kit.ts';
import { datedVersionLine, startClamdStandIn } from '../support/clamd-stand-in.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import { focused, openWithKeyboard, tabTo } from './support/keyboard.ts';

const { start, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-focus-', engine: false });

/** Keeps hold of an element, to tell later whether it is still in the page (never removed meanwhile). */
const keepHold = (page: Page, selector: string): Promise<void> => page.evaluate(`window.__held = document.querySelector(${JSON.stringify(selector)})`);
const stillHeld = (page: Page): Promise<boolean> => page.evaluate('window.__held?.isConnected === true');

/** The scan job whose toggle has focus now (its row's id), or null. */
const focusedJob = (page: Page): Promise<string | null> =>
  page.evaluate(`document.activeElement?.classList.contains('job__toggle') ? document.activeElement.closest('[data-job-id]')?.getAttribute('data-job-id') ?? null : null`);

describe('focus after each action', () => {
  it('clean-file search pages keep focus and their results; Escape in the detail panel returns to its opener', async () => {
    const root = path.join(work(), 'chosen');
    await writeTree(root, 60);
    await writeFile(path.join(root, 'eicar.com'), EICAR_TEST_STRING);
    const { app, page } = await start();
    app.pickNext([root]);
    await page.getByTestId('start-custom').click();
    const row = page.getByTestId('job-row').and(page.locator('[data-status=completed]'));
    await row.waitFor({ timeout: 60_000 });

    await row.locator('.job__toggle').focus();
    await page.keyboard.press('Enter');
    await row.getByLabel(en['jobs.clean.label']).focus();
    await page.keyboard.type('f-');
    const search = row.getByTestId('job-clean-search');
    await search.getByText('1–10 of 60').waitFor();
    await keepHold(page, '[data-testid=job-clean-search] [role=status]');

    // Next, three times: focus stays on Next, the results (pager included) are never removed.
    await tabTo(page, 'Next', (element) => element.text === en['jobs.clean.next']);
    for (const page10 of ['11–20', '21–30', '31–40']) {
      await page.keyboard.press('Enter');
      await search.getByText(`${page10} of 60`).waitFor();
      expect(await focused(page)).toMatchObject({ tag: 'button', text: en['jobs.clean.next'] });
    }
    expect(await stillHeld(page)).toBe(true);
    // Previous likewise.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['jobs.clean.previous'] });
    await page.keyboard.press('Enter');
    await search.getByText('21–30 of 60').waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['jobs.clean.previous'] });
    expect(await stillHeld(page)).toBe(true);

    // The job's threat opened from its expanded row; Escape inside the panel brings focus back to it.
    const threat = row.getByTestId('job-files-threats').getByRole('button', { name: 'eicar.com' });
    await threat.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('detail-panel');
    await panel.locator('#detail-title', { hasText: 'eicar.com' }).waitFor();
    await tabTo(page, 'Close details', (element) => element.label === en['detail.close']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', text: 'eicar.com' });
    expect(await page.evaluate(`document.activeElement?.closest('[data-testid=job-files-threats]') !== null`)).toBe(true);

    // Opened from the list: Escape gives focus back to the list, its cursor on that row.
    await page.getByTestId('scan-list').focus();
    await openWithKeyboard(page, 'eicar.com');
    await tabTo(page, 'Close details', (element) => element.label === en['detail.close']);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect((await focused(page)).id).toBe('scan-list');
    const cursor = await page.evaluate<string | null>(`document.getElementById(document.activeElement?.getAttribute('aria-activedescendant') ?? '')?.querySelector('.row__filename')?.textContent ?? null`);
    expect(cursor).toBe('eicar.com');
    expectNoProblems(app);
  });

  it('Cancel on a running job, expanded or collapsed, leaves focus on that job’s own toggle', async () => {
    const first = path.join(work(), 'first');
    const second = path.join(work(), 'second');
    await writeTree(first, 30);
    await writeTree(second, 30);
    // Each scan takes a minute: both jobs run until they are cancelled.
    const { app, page } = await start({ localService: { scanDelayMs: 60_000 } });
    for (const root of [first, second]) {
      app.pickNext([root]);
      await page.getByTestId('start-custom').click();
      await page.getByTestId('notice-info').getByText(en['jobs.started.custom']).waitFor();
    }
    const rows = page.getByTestId('job-row').and(page.locator('[data-status=running]'));
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    const [newest, older] = (await page.evaluate(`[...document.querySelectorAll('[data-testid=job-row][data-status=running]')].map((row) => row.getAttribute('data-job-id'))`)) as [string, string];

    // Expanded: focus would have gone into its clean-file search.
    const expanded = page.locator(`[data-job-id="${newest}"]`);
    await expanded.locator('.job__toggle').focus();
    await page.keyboard.press('Enter');
    await expanded.getByTestId('job-clean-search').waitFor();
    await expanded.getByRole('button', { name: en['jobs.cancel'] }).focus();
    await page.keyboard.press('Enter');
    await expanded.and(page.locator('[data-status=cancelled]')).waitFor({ timeout: 30_000 });
    await expect.poll(() => focusedJob(page)).toBe(newest);

    // Collapsed: focus would have gone to the next job's toggle.
    const collapsed = page.locator(`[data-job-id="${older}"]`);
    await collapsed.getByRole('button', { name: en['jobs.cancel'] }).focus();
    await page.keyboard.press('Enter');
    await collapsed.and(page.locator('[data-status=cancelled]')).waitFor({ timeout: 30_000 });
    await expect.poll(() => focusedJob(page)).toBe(older);
    expectNoProblems(app);
  });

  it('Look again, when protection becomes protected: its button goes and focus stays on the status line', async () => {
    const own = path.join(work(), 'own-clamd');
    const fresh = datedVersionLine(26).line;
    let standIn = await startClamdStandIn(own, fresh);
    const prepare = (dataDir: string) => writeFile(path.join(dataDir, 'clamd.conf'), `LocalSocket ${standIn.socketPath}\n`);
    const { app, page } = await start({ prepare, localService: { engine: 'clamd', clamdSocket: standIn.socketPath }, tuning: { engine: { autoUpdate: false } } });
    const line = page.getByTestId('protection-line');
    await line.locator('[data-state=protected]').waitFor({ timeout: 30_000 });

    // ClamAV gone: Look again says so, and offers itself again.
    await standIn.close();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByRole('button', { name: en['engine.lookAgain'] }).click();
    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await line.locator('[data-state=not_running]').waitFor({ timeout: 30_000 });
    const action = page.getByTestId('protection-action');
    expect(await action.innerText()).toBe(en['protection.action.look_again']);

    // Back: Look again finds it protected, and its button goes.
    await rm(standIn.socketPath, { force: true });
    standIn = await startClamdStandIn(own, fresh);
    closeAfterTest(standIn);
    await action.focus();
    await page.keyboard.press('Enter');
    await line.locator('[data-state=protected]').waitFor({ timeout: 30_000 });
    await expect.poll(() => focused(page)).toMatchObject({ testId: 'protection-line' });
    expect((await focused(page)).text).toContain(en['protection.state.protected']);
    await app.screenshot('focus-look-again-protected');
    expectNoProblems(app);
  });
});
