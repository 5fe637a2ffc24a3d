// Accessibility of the production renderer in Chromium against the real core
// (issue 19): axe-core's WCAG 2.1 A/AA rules over every view (the list with
// clean, threat, quarantined, failed and skipped rows, the detail of each, the
// bulk bar, the export choices, every Settings section with its error states,
// both dialogs, the start-up warning) in light and dark, English and German;
// keyboard-only walks that assert where focus lands after each action, close
// and removal; and the layout at 200 % zoom and with reduced motion.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { SCREENSHOT_DIR, type AppHarness } from './support/app-harness.ts';
import { axeViolations, describeViolations, type AxeViolation } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';
import { focused, isButton, openWithKeyboard, tabTo } from './support/keyboard.ts';
import { overflowsOf } from './support/layout-checks.ts';
import type { RealCore } from './support/real-core.ts';
import { datedVersionLine, startClamdStandIn } from '../support/clamd-stand-in.ts';

// No clamd: the built-in engine knows EICAR, which is all these views need.
const { start, writeFiles, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-a11y-', engine: false });
const RESULTS = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'test-results');

type Texts = Record<keyof typeof en, string>;

/** The rows every view is checked with, by the kind of verdict they show. */
const ROWS = { clean: 'notes.txt', threat: 'eicar.com', quarantined: 'dropper.exe', allowed: 'allowed.bin', failed: 'vanished.txt', skipped: 'disk.iso' } as const;

/**
 * A core with a damaged settings file (the start-up warning), one row of each kind in the
 * list, and Settings with something in every list: a watched folder that went missing,
 * an allowed file, a remembered upload host.
 */
async function startWithEveryKindOfRow(view: Parameters<typeof start>[2] = {}): Promise<{ real: RealCore; app: AppHarness; page: Page; files: Record<string, string> }> {
  const { real, app, page } = await start({ prepare: (dataDir) => writeFile(path.join(dataDir, 'settings.json'), '{"language": "en", "mode": ') }, 'light', view);
  expect((await real.core.settings.update({ exclusions: { paths: [], globs: [], extensions: ['iso'] }, remoteUploadConsentHosts: ['https://other.example.invalid'] })).ok).toBe(true);
  await page.reload();
  await app.bridge.subscribed(2);
  const files = await writeFiles({ [ROWS.clean]: 'quarterly numbers', [ROWS.threat]: EICAR_TEST_STRING, [ROWS.quarantined]: EICAR_TEST_STRING, [ROWS.allowed]: EICAR_TEST_STRING, [ROWS.skipped]: 'an image', [ROWS.failed]: 'soon gone' });
  await rm(files[ROWS.failed]!);
  app.pickNext(Object.values(files));
  await page.getByRole('button', { name: en['drop.addFiles'] }).click();
  for (const [name, verdict] of [
    // The built-in engine (engine: false): a file it finds nothing in reads "Basic checks only", never clean.
    [ROWS.clean, 'basic-only'],
    [ROWS.threat, 'unsafe'],
    [ROWS.quarantined, 'unsafe'],
    [ROWS.allowed, 'unsafe'],
    [ROWS.failed, 'could-not-scan'],
    [ROWS.skipped, 'skipped'],
  ] as const) {
    await rowFor(page, name).and(page.locator(`[data-verdict="${verdict}"]`)).waitFor({ timeout: 60_000 });
  }
  await rowFor(page, ROWS.quarantined).click();
  await page.getByTestId('threat-actions').getByRole('button', { name: en['threat.moveToQuarantine'] }).click();
  await page.locator('[data-testid=threat-actions][data-disposition=quarantined]').waitFor({ timeout: 30_000 });
  await rowFor(page, ROWS.allowed).click();
  await page.getByTestId('threat-actions').getByRole('button', { name: en['threat.allow'], exact: true }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: en['quarantine.allowConfirm'] }).click();
  await rowFor(page, ROWS.allowed).and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: en['detail.close'] }).click();
  await page.getByTestId('detail-panel').waitFor({ state: 'detached' });

  const gone = path.join(work(), 'Gone');
  await mkdir(gone);
  await page.getByRole('button', { name: en['nav.settings'] }).click();
  app.pickNext([gone]);
  await page.getByTestId('watched-folders').getByRole('button', { name: en['watch.add'] }).click();
  await page.locator('.watched__item[data-watch-state=watching]').waitFor({ timeout: 30_000 });
  await rm(gone, { recursive: true });
  await page.locator('.watched__item[data-watch-state=missing]').waitFor({ timeout: 30_000 });
  await page.getByTestId('allowed-files').getByText(ROWS.allowed).waitFor();
  return { real, app, page, files };
}

/** Runs axe in each view of the app, in its current scheme and language; returns the violations by view. */
async function auditViews(app: AppHarness, t: Texts, files: Record<string, string>): Promise<Record<string, AxeViolation[]>> {
  const { page } = app;
  const found: Record<string, AxeViolation[]> = {};
  const check = async (view: string): Promise<void> => {
    found[view] = await axeViolations(page);
  };
  const detail = page.getByTestId('detail-panel');

  await page.getByRole('button', { name: t['nav.scans'] }).click();
  await rowFor(page, ROWS.clean).waitFor();
  // The protection line is back to the embedded service's engine (the last round ended on a remote service and back),
  // so the list no longer moves under the pointer.
  await page.getByTestId('protection-line').locator('[data-state=limited]').waitFor({ timeout: 30_000 });
  await check('list');
  await rowFor(page, ROWS.threat).getByTestId('row-check').click();
  await page.getByTestId('bulk-bar').waitFor();
  await check('list, a row ticked (bulk bar)');
  await page.getByTestId('bulk-bar').getByRole('button', { name: t['bulk.clear'] }).click();

  for (const [kind, name] of Object.entries(ROWS)) {
    await rowFor(page, name).click();
    await detail.locator('#detail-title', { hasText: name }).waitFor();
    if (kind === 'quarantined') await page.locator('[data-testid=threat-actions][data-disposition=quarantined] button:enabled').first().waitFor();
    await check(`detail: ${kind}`);
  }
  await rowFor(page, ROWS.quarantined).click();
  await page.getByTestId('threat-actions').getByRole('button', { name: t['threat.delete'], exact: true }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await confirm.waitFor();
  await check('dialog: delete permanently');
  await confirm.getByRole('button', { name: t['common.cancel'] }).click();
  await confirm.waitFor({ state: 'detached' });
  await detail.getByRole('button', { name: t['detail.close'] }).click();
  await detail.waitFor({ state: 'detached' });

  await page.getByTestId('export-button').click();
  await page.getByRole('button', { name: t['export.csv'] }).waitFor();
  await check('export choices');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: t['nav.settings'] }).click();
  await page.getByTestId('settings-view').waitFor();
  await check('settings');

  // Each section in its error state.
  await page.getByLabel(t['settings.backend.remote']).check();
  await page.getByLabel(t['settings.baseUrl']).fill('ftp://scan.example.invalid');
  await page.getByRole('button', { name: t['settings.apply'] }).click();
  await page.getByRole('alert').getByText(t['settings.baseUrl.not_http']).waitFor();
  await page.getByTestId('api-key-input').fill('vk_a11y key');
  await page.getByRole('button', { name: t['settings.apiKeySave'], exact: true }).click();
  await page.getByTestId('api-key-error').waitFor();
  const relative = page.getByTestId('exclude-paths-global').getByRole('textbox');
  await relative.fill('relative/folder');
  await relative.blur();
  await page.getByTestId('exclusion-settings').getByText(t['exclude.pathRelative']).waitFor();
  const keepScans = page.getByTestId('keep-scans').getByRole('textbox');
  await keepScans.fill('many');
  await keepScans.press('Enter');
  await page.getByTestId('keep-scans').getByRole('alert').waitFor();
  await check('settings: field errors');

  // A remote service that cannot be reached: the connection report, then the upload question.
  await page.getByLabel(t['settings.baseUrl']).fill('https://scan.example.invalid');
  await page.getByRole('button', { name: t['settings.apply'] }).click();
  await page.getByTestId('privacy-settings').getByText(t['privacy.remoteNow'].replace('{host}', 'scan.example.invalid')).waitFor();
  await page.getByRole('button', { name: t['settings.test'] }).click();
  await page.getByTestId('connection-report').locator('strong').waitFor({ timeout: 30_000 });
  await check('settings: remote service unreachable');

  await page.getByRole('button', { name: t['nav.scans'] }).click();
  app.pickNext([files[ROWS.clean]!]);
  await page.getByRole('button', { name: t['drop.addFiles'] }).click();
  const upload = page.getByTestId('upload-dialog');
  await upload.waitFor();
  await check('dialog: upload question');
  await upload.getByRole('button', { name: t['upload.cancel'] }).click();
  await upload.waitFor({ state: 'detached' });

  // Back to the start: the local service, and the fields without their errors.
  await page.getByRole('button', { name: t['nav.settings'] }).click();
  await page.getByLabel(t['settings.backend.local']).check();
  await relative.fill('');
  await relative.blur();
  await keepScans.fill('');
  await keepScans.press('Enter');
  await page.getByTestId('keep-scans').getByRole('alert').waitFor({ state: 'detached' });
  return found;
}

describe('axe-core (WCAG 2.1 A and AA) in every view', () => {
  it('finds no violation in any view, light and dark, English and German', async () => {
    const { real, app, page, files } = await startWithEveryKindOfRow();
    const banner = page.getByTestId('startup-warnings');
    await banner.getByText(en['startup.details']).click();

    const counts: Record<string, number> = {};
    const failures: string[] = [];
    for (const [scheme, language] of [
      ['light', 'en'],
      ['dark', 'en'],
      ['dark', 'de'],
      ['light', 'de'],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      if (language === 'de' && (await page.locator('html').getAttribute('lang')) !== 'de') {
        await page.getByRole('button', { name: en['nav.settings'] }).click();
        await page.getByTestId('language-select').selectOption('de');
        await page.getByRole('button', { name: de['nav.scans'] }).waitFor();
      }
      const found = await auditViews(app, language === 'de' ? de : en, files);
      for (const [view, violations] of Object.entries(found)) {
        const label = `${scheme}, ${language}: ${view}`;
        counts[label] = violations.reduce((sum, violation) => sum + violation.targets.length, 0);
        failures.push(...describeViolations(violations).map((line) => `${label}: ${line}`));
      }
      await app.screenshot(`a11y-settings-${scheme}-${language}`);
    }
    // The start-up warning's "Dismiss" with the keyboard: the banner goes, and focus moves on to the next control, not to <body>.
    await banner.getByRole('button', { name: de['startup.dismiss'] }).focus();
    await page.keyboard.press('Enter');
    await banner.waitFor({ state: 'detached' });
    expect((await focused(page)).tag).toMatch(/^(button|select|input|textarea)$/);
    expect(Object.keys(counts)).toHaveLength(4 * 14);
    // The figures for the report: the offending elements per view.
    await mkdir(RESULTS, { recursive: true });
    await writeFile(path.join(RESULTS, 'axe-counts.json'), `${JSON.stringify(counts, null, 2)}\n`);
    expect(failures).toEqual([]);
    expect((await real.core.settings.get()).ok).toBe(true);
    expectNoProblems(app);
  });
});

describe('focus is never lost (keyboard only)', () => {
  it('closing the details, a move to quarantine, a dialog, the bulk bar and a removed folder each leave focus on a sensible control', async () => {
    const { real, app, page } = await start();
    const files = await writeFiles({ 'notes.txt': 'notes', 'eicar.com': EICAR_TEST_STRING, 'other.txt': 'other' });
    const folder = path.join(work(), 'Watched');
    await mkdir(folder, { recursive: true });

    // Add files: Tab to the button, Enter.
    app.pickNext(Object.values(files));
    await tabTo(page, 'Add files', isButton(en['drop.addFiles']));
    await page.keyboard.press('Enter');
    await rowFor(page, 'eicar.com').and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('.row[data-verdict=basic-only]').count(), { timeout: 60_000 }).toBe(2);

    // 1. "Close details" (Enter on the button): focus goes to the list.
    await tabTo(page, 'the list', (element) => element.id === 'scan-list');
    await openWithKeyboard(page, 'notes.txt');
    await tabTo(page, 'Close details', (element) => element.label === en['detail.close']);
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
    expect((await focused(page)).id).toBe('scan-list');

    // 2. "Move to quarantine": its button goes; focus lands on the next action, "Restore".
    await openWithKeyboard(page, 'eicar.com');
    await tabTo(page, 'Move to quarantine', isButton(en['threat.moveToQuarantine']));
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=threat-actions][data-disposition=quarantined] button:enabled').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: en['threat.restore'] });

    // 3. A dialog gives focus back to the button that opened it: Escape, then Cancel.
    await tabTo(page, 'Delete permanently', isButton(en['threat.delete']));
    await page.keyboard.press('Enter');
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['common.cancel'] });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['threat.delete'] });
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['threat.delete'] });
    // Confirmed: the file is deleted and no action is left; focus stays on what the actions became.
    await tabTo(page, 'Delete permanently', isButton(en['threat.delete']));
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['quarantine.deleteConfirm'] });
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=threat-actions][data-disposition=deleted]').waitFor({ timeout: 30_000 });
    await expect.poll(() => focused(page)).toMatchObject({ testId: 'threat-actions' });
    // On to "Close details" (Tab passes the page's end and starts again): focus is on the list once more.
    await tabTo(page, 'Close details', (element) => element.label === en['detail.close'], 80);
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('scan-list');

    // 4. The bulk bar: Space ticks a row; "Clear selection" removes the bar and focus returns to the list.
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await page.getByTestId('bulk-bar').waitFor();
    await app.screenshot('a11y-row-ticked');
    // What a screen reader gets from the list: each row an option named by its cells (name, size, status, verdict, time) and its selection.
    const tree = await page.locator('#scan-list').ariaSnapshot();
    expect(tree).toMatch(/^- listbox "Scans, newest first":$/m);
    expect(tree).toMatch(/^ {2}- option "other\.txt 5 B Completed Basic checks only [^"]+" \[selected\]:$/m);
    expect(tree).toMatch(/^ {2}- option "eicar\.com 68 B Deleted Threat [^"]+":$/m);
    expect(tree).not.toMatch(/checkbox/);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['bulk.clear'] });
    await page.keyboard.press('Enter');
    await page.getByTestId('bulk-bar').waitFor({ state: 'detached' });
    expect((await focused(page)).id).toBe('scan-list');

    // 5. Settings: "Remove" on the only watched folder leaves focus on "Add folder".
    await tabTo(page, 'Settings', isButton(en['nav.settings']), 80);
    await page.keyboard.press('Enter');
    app.pickNext([folder]);
    await tabTo(page, 'Add folder', isButton(en['watch.add']));
    await page.keyboard.press('Enter');
    await page.locator('.watched__item[data-watch-state=watching]').waitFor({ timeout: 30_000 });
    await tabTo(page, 'Remove', (element) => element.label === `Remove ${folder} from the watched folders`);
    await page.keyboard.press('Enter');
    await page.getByText(en['watch.empty']).waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['watch.add'] });
    expect((await real.core.watch.list()).ok).toBe(true);

    // 6. The upload question: Escape gives focus back to "Add files".
    await page.getByLabel(en['settings.backend.remote']).focus();
    await page.keyboard.press('Space');
    await page.getByLabel(en['settings.baseUrl']).focus();
    await page.keyboard.type('https://scan.example.invalid');
    await page.keyboard.press('Enter');
    await page.getByTestId('privacy-settings').getByText(en['privacy.remoteNow'].replace('{host}', 'scan.example.invalid')).waitFor();
    await tabTo(page, 'Scans', isButton(en['nav.scans']), 80);
    await page.keyboard.press('Enter');
    app.pickNext([files['other.txt']!]);
    await tabTo(page, 'Add files', isButton(en['drop.addFiles']));
    await page.keyboard.press('Enter');
    const upload = page.getByTestId('upload-dialog');
    await upload.waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['upload.cancel'] });
    await page.keyboard.press('Escape');
    await upload.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['drop.addFiles'] });
    expectNoProblems(app);
  });
});

describe('the protection status line and Settings › Malware engine', () => {
  it('pass axe in light and dark, English and German, in the warning states; Look again keeps focus', async () => {
    // Verdict's own clamd with signatures 10 days old (a stand-in answering VERSION): outdated, "Update now".
    const standIn = await startClamdStandIn(path.join(work(), 'own-clamd'), datedVersionLine(240).line);
    closeAfterTest(standIn);
    const prepare = (dataDir: string) => writeFile(path.join(dataDir, 'clamd.conf'), `LocalSocket ${standIn.socketPath}\n`);
    const { real, app, page } = await start({ prepare, localService: { engine: 'clamd', clamdSocket: standIn.socketPath } });
    const file = path.join(work(), 'protection-notes.txt');
    await writeFile(file, 'notes');
    expect((await real.core.submit([file], { origin: 'drop' })).ok).toBe(true);
    await page.locator('.row[data-scan-id]').first().waitFor();
    const line = page.getByTestId('protection-line');
    const failures: string[] = [];
    const audit = async (label: string): Promise<void> => {
      for (const [scheme, language] of [['light', 'en'], ['dark', 'de']] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect((await real.core.settings.update({ language })).ok).toBe(true);
        await page.reload();
        await page.locator(`html[lang=${language}]`).waitFor();
        await line.locator(`[data-state=${label.replace(' ', '_')}]`).waitFor();
        const t = language === 'de' ? de : en;
        await page.getByRole('button', { name: t['nav.scans'] }).click();
        failures.push(...describeViolations(await axeViolations(page)).map((v) => `${label}, ${scheme}, ${language}, list: ${v}`));
        await page.getByRole('button', { name: t['nav.settings'] }).click();
        await page.getByTestId('engine-settings').waitFor();
        failures.push(...describeViolations(await axeViolations(page)).map((v) => `${label}, ${scheme}, ${language}, settings: ${v}`));
      }
      expect((await real.core.settings.update({ language: 'en' })).ok).toBe(true);
      await page.reload();
      await page.locator('html[lang=en]').waitFor();
      await page.getByRole('button', { name: en['nav.scans'] }).click();
    };
    await line.locator('[data-state=outdated]').waitFor();
    await audit('outdated');

    // The clamd goes away; "Look again" (Enter on the line's button after Settings' one) finds it not running.
    await standIn.close();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const lookAgain = page.getByTestId('engine-settings').getByRole('button', { name: en['engine.lookAgain'] });
    await lookAgain.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('engine-settings').locator('.engine-state[data-state=not_running]').waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: en['engine.lookAgain'] });
    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await line.locator('[data-state=not_running]').waitFor();
    const action = line.getByRole('button', { name: en['protection.action.look_again'] });
    await action.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: en['protection.action.look_again'] });
    await audit('not running');
    await app.screenshot('a11y-protection-not-running');
    expect(failures).toEqual([]);
    expectNoProblems(app);
  });
});

describe('200 % zoom and reduced motion', () => {
  it('at 200 % of a 1280 px window nothing scrolls sideways and nothing is pushed out; with reduced motion nothing moves', async () => {
    // 200 % zoom of a 1280 × 800 window: a 640 × 400 CSS-pixel viewport at twice the pixel density.
    const { app, page } = await startWithEveryKindOfRow({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.evaluate('window.devicePixelRatio')).toBe(2);
    expect(await page.evaluate('window.innerWidth')).toBe(640);

    const views = (t: Texts): Array<[string, () => Promise<void>]> => [
      ['list', async () => {
        await page.getByRole('button', { name: t['nav.scans'] }).click();
        await rowFor(page, ROWS.clean).waitFor();
      }],
      ['detail', async () => {
        await rowFor(page, ROWS.quarantined).click();
        await page.locator('[data-testid=threat-actions][data-disposition=quarantined] button:enabled').first().waitFor();
      }],
      ['dialog', async () => {
        await page.getByTestId('threat-actions').getByRole('button', { name: t['threat.delete'], exact: true }).click();
        await page.getByTestId('confirm-dialog').waitFor();
      }],
      ['settings', async () => {
        await page.getByTestId('confirm-dialog').getByRole('button', { name: t['common.cancel'] }).click();
        await page.getByRole('button', { name: t['nav.settings'] }).click();
        await page.getByTestId('settings-view').waitFor();
      }],
    ];
    for (const [language, t] of [['en', en], ['de', de]] as const) {
      if (language === 'de') {
        await page.getByTestId('language-select').selectOption('de');
        await page.getByRole('button', { name: de['nav.scans'] }).waitFor();
      }
      for (const [view, show] of views(t)) {
        await show();
        // The whole page, scrolled: what the window shows one screen at a time.
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `zoom-200-${view}-${language}.png`), fullPage: true });
        expect(await overflowsOf(page), `${view}, ${language}`).toEqual([]);
        // Every row still shows its time (under the name when there is no column for it).
        if (view !== 'settings') expect(await page.locator('.row[data-scan-id] .row__time:visible').count(), view).toBe(Object.keys(ROWS).length);
        // Reduced motion: no animation or transition runs, and scrolling jumps.
        expect(await page.evaluate('document.getAnimations().length'), view).toBe(0);
        expect(await page.evaluate('getComputedStyle(document.documentElement).scrollBehavior'), view).toBe('auto');
      }
    }
    expectNoProblems(app);
  });
});
