// The protection state on screen, in Chromium against the real core: the status line
// above the list and Settings › Malware engine, in each state (limited: the built-in
// engine; outdated: a real clamd with the test's undated database; protected: dated
// signatures a day old; outdated with Verdict's own signatures 10 days old; not
// running: that clamd gone; failing: Verdict's own clamd on a database blind to EICAR,
// with the last self-test in Settings), in English and German, each with a screenshot
// (test-results/screenshots/protection-*.png), the visible text asserted, and axe
// over the line and the section. "Update now" runs the real freshclam (offline: no
// connection) and says so in words.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import { translator, type Locale } from '../../renderer/i18n/messages.ts';
import { headline, reasonText, updateOutcomeText } from '../../renderer/protection/protection-text.ts';
import { findClamd } from '../../electron/engine/own-clamd/find-clamav.ts';
import { writeCustomSignature } from '../support/clamav-db.ts';
import { startClamd } from '../support/clamd.ts';
import { datedVersionLine, startClamdStandIn, type ClamdStandIn } from '../support/clamd-stand-in.ts';
import type { AppHarness } from './support/app-harness.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';

const { start, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-protection-state-', engine: false });

// No automatic update at start (a stand-in named as Verdict's own clamd would start one, and the line would
// read "Updating signatures…"): "Update now" is the user's, and runs freshclam offline.
const FRESHCLAM_OFFLINE = { engine: { autoUpdate: false, freshclam: { mirror: '127.0.0.1:9', maxAttempts: 1 } } };

/** A clamd stand-in in a folder of its own, which the core's data dir names as Verdict's own clamd. */
async function standInFor(versionLine: string): Promise<{ standIn: ClamdStandIn; prepare: (dataDir: string) => Promise<void> }> {
  const standIn = await startClamdStandIn(path.join(work(), `clamd-${Math.random().toString(36).slice(2)}`), versionLine);
  closeAfterTest(standIn);
  return { standIn, prepare: (dataDir) => writeFile(path.join(dataDir, 'clamd.conf'), `LocalSocket ${standIn.socketPath}\n`) };
}

async function setLanguage(real: RealCore, app: AppHarness, language: Locale): Promise<void> {
  expect((await real.core.settings.update({ language })).ok).toBe(true);
  await app.page.reload();
  await app.page.locator(`html[lang=${language}]`).waitFor();
}

/** One row in the list (an empty list is a listbox without options, which axe flags on its own). */
async function oneRow(real: RealCore, page: Page): Promise<void> {
  const file = path.join(work(), `notes-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, 'quarterly numbers');
  expect((await real.core.submit([file], { origin: 'drop' })).ok).toBe(true);
  await page.locator('.row[data-scan-id]').first().waitFor();
}

/** The line shows this state with the reason worded from the core's own status, in `language`; a screenshot each, and axe finds nothing. */
async function expectState(real: RealCore, app: AppHarness, name: string): Promise<ProtectionStatus> {
  const { page } = app;
  const view = await real.core.protection.status();
  if (!view.ok || !view.value.status) throw new Error('no protection state');
  const status = view.value.status;
  if ((await page.locator('.row[data-scan-id]').count()) === 0) await oneRow(real, page);
  for (const language of ['en', 'de'] as const) {
    await setLanguage(real, app, language);
    const tr = translator(language);
    const line = page.getByTestId('protection-line');
    await line.locator(`[data-state=${status.state}]`).waitFor();
    expect(await line.locator('strong').innerText()).toBe(headline(status, tr));
    expect(await line.getByTestId('protection-reason').innerText()).toBe(reasonText(status, tr));
    await app.screenshot(`protection-${name}-${language}`);
    const found = await axeViolations(page);
    expect(describeViolations(found), `${name}, ${language}: the list with the line`).toEqual([]);
    await openSettings(page, language);
    await page.getByTestId('engine-settings').locator(`.engine-state[data-state=${status.state}]`).waitFor();
    await page.getByTestId('engine-settings').scrollIntoViewIfNeeded();
    await app.screenshot(`protection-${name}-settings-${language}`);
    expect(describeViolations(await axeViolations(page)), `${name}, ${language}: Settings`).toEqual([]);
    await page.getByRole('button', { name: tr.t('nav.scans') }).click();
  }
  await setLanguage(real, app, 'en');
  await page.getByTestId('protection-line').locator(`[data-state=${status.state}]`).waitFor();
  return status;
}

async function openSettings(page: Page, language: Locale): Promise<void> {
  await page.getByRole('button', { name: translator(language).t('nav.settings') }).click();
  await page.getByTestId('engine-settings').waitFor();
}

const en = translator('en');

describe('the protection state, on the first screen and in Settings', () => {
  it('failing: Verdict\'s own clamd on a database that does not know EICAR; the self-test says so, and Settings shows it', async (context) => {
    if (findClamd() === null) return context.skip();
    const db = path.join(work(), 'blind-db');
    await mkdir(db);
    await writeCustomSignature(db, work(), 'not-eicar');
    const { real, app, page } = await start({ localService: { engine: 'auto', clamavDb: db }, tuning: { engine: { autoUpdate: false } } });
    const state = async () => {
      const view = await real.core.protection.status();
      return view.ok ? view.value.status?.state : null;
    };
    await expect.poll(state, { timeout: 60_000 }).toBe('failing');
    const status = await expectState(real, app, 'failing');
    expect(status).toMatchObject({ reason: { code: 'self_test_failed' }, action: 'update_signatures', selfTest: { result: 'failed', engine: { source: 'own' } } });
    expect(await page.getByTestId('protection-action').innerText()).toBe(en.t('protection.action.update_signatures'));
    await openSettings(page, 'en');
    expect(await page.getByTestId('engine-self-test').innerText()).toMatch(/^Failed .+: the EICAR test file was not detected$/);
    // Its scan limits, and that what lies beyond them reads "Scanned in part" (issue 27 §3).
    expect(await page.getByTestId('engine-scan-limits').innerText()).toBe(
      'MaxFileSize 120M, MaxScanSize 400M, MaxRecursion 17, MaxFiles 10000. Files beyond them, and encrypted archives, read “Scanned in part”, never clean.',
    );
    expectNoProblems(app);
  });

  it('limited with the built-in engine: a warning with its reason and the way back to ClamAV', async () => {
    const { real, app, page } = await start();
    const status = await expectState(real, app, 'limited');
    expect(status).toMatchObject({ state: 'limited', reason: { code: 'builtin_requested' } });
    expect(await page.getByTestId('protection-line').innerText()).toContain('Start Verdict without “--engine builtin” to use ClamAV.');
    expect(await page.getByTestId('protection-action').innerText()).toBe(en.t('protection.action.look_again'));
    // Automatic signature updates: on by default, and the checkbox turns the setting off.
    await openSettings(page, 'en');
    const autoUpdate = page.getByTestId('engine-auto-update');
    expect(await autoUpdate.isChecked()).toBe(true);
    // A controlled checkbox: it changes once the core has saved the setting.
    await autoUpdate.click();
    await expect.poll(() => real.core.settings.get().then((got) => got.ok && got.value.autoUpdateSignatures)).toBe(false);
    await expect.poll(() => autoUpdate.isChecked()).toBe(false);
    expectNoProblems(app);
  });

  it('outdated with a real clamd and the test database: no dated signatures, the system updates them', async (context) => {
    const clamd = await startClamd();
    if (!clamd) return context.skip();
    closeAfterTest({ close: () => clamd.stop() });
    const { real, app, page } = await start({ localService: { engine: 'clamd', clamdSocket: clamd.socketPath } });
    const status = await expectState(real, app, 'outdated-undated');
    expect(status).toMatchObject({ state: 'outdated', reason: { code: 'signatures_undated' }, engine: { source: 'configured' } });
    // Settings: Update signatures now answers that the system keeps them; freshclam is not run.
    await openSettings(page, 'en');
    await page.getByTestId('engine-update').click();
    await page.getByTestId('engine-update-status').locator('[data-outcome=system_database]').waitFor();
    expect(await page.getByTestId('engine-update-status').innerText()).toBe(en.t('engine.update.system_database'));
    expectNoProblems(app);
  });

  it('protected with dated signatures a day old: calm, no action; ten days old: Update now, which says there is no connection', async () => {
    const { standIn, prepare } = await standInFor(datedVersionLine(26).line);
    const { real, app, page } = await start({ prepare, localService: { engine: 'clamd', clamdSocket: standIn.socketPath }, tuning: FRESHCLAM_OFFLINE });
    const status = await expectState(real, app, 'protected');
    expect(status).toMatchObject({ state: 'protected', engine: { source: 'own', version: '1.4.6', signatures: { version: 27467, ageDays: 1 } } });
    expect(await page.getByTestId('protection-action').count()).toBe(0);

    standIn.setVersion(datedVersionLine(240, 27400).line);
    await openSettings(page, 'en');
    await page.getByRole('button', { name: en.t('engine.lookAgain') }).click();
    await page.getByTestId('engine-settings').locator('.engine-state[data-state=outdated]').waitFor();
    await page.getByRole('button', { name: en.t('nav.scans') }).click();
    const old = await expectState(real, app, 'outdated-old');
    expect(old).toMatchObject({ state: 'outdated', reason: { code: 'signatures_old', params: { ageDays: 10 } }, action: 'update_signatures' });

    // "Update now" on the line: freshclam runs for real and finds no mirror; focus stays on the button.
    const action = page.getByTestId('protection-action');
    expect(await action.innerText()).toBe(en.t('protection.action.update_signatures'));
    await action.focus();
    await page.keyboard.press('Enter');
    await openSettings(page, 'en');
    const outcome = page.getByTestId('engine-update-status').locator('[data-outcome=no_connection]');
    await outcome.waitFor({ timeout: 60_000 });
    // The outcome in words; freshclam's own error lines, if any, under it in English.
    expect((await outcome.innerText()).split('\n')[0]).toBe(updateOutcomeText({ code: 'no_connection', params: {}, at: '' }, en));
    for (const said of await outcome.getByTestId('tool-words').locator('samp').all()) expect(await said.getAttribute('lang')).toBe('en');
    await app.screenshot('protection-update-no-connection-en');
    expectNoProblems(app);
  });

  it('not running once that clamd is gone: Look again finds it missing, in words', async () => {
    const { standIn, prepare } = await standInFor(datedVersionLine(26).line);
    const { real, app, page } = await start({ prepare, localService: { engine: 'clamd', clamdSocket: standIn.socketPath }, tuning: FRESHCLAM_OFFLINE });
    await page.getByTestId('protection-line').locator('[data-state=protected]').waitFor();
    await standIn.close();
    await openSettings(page, 'en');
    await page.getByRole('button', { name: en.t('engine.lookAgain') }).click();
    await page.getByTestId('engine-settings').locator('.engine-state[data-state=not_running]').waitFor();
    await page.getByRole('button', { name: en.t('nav.scans') }).click();
    const status = await expectState(real, app, 'not-running');
    expect(status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_not_answering' }, action: 'start_clamav' });
    expect(await page.getByTestId('protection-action').innerText()).toBe(en.t('protection.action.look_again'));
    expectNoProblems(app);
  });
});
