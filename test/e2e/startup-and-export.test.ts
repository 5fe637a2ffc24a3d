// The production renderer in Chromium against the real core (issues 7 and 8):
// a damaged settings file in the data directory is announced at start in a
// dismissible banner, in English and in German; "Export…" writes the scans
// matching the current filter to the file the (test bridge's) save dialog names,
// and the file holds exactly those rows.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../electron/history/export-format.ts';
import { openHistory } from '../../electron/history/history.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';

// No engine: nothing is scanned here (the built-in one stands by).
const { start, work } = useE2eApp({ prefix: 'verdict-e2e-export-', engine: false });

describe('start-up warnings', () => {
  it('a damaged settings file: a banner says so in English, then in German, and goes away on Dismiss (keyboard)', async () => {
    const { real, app, page } = await start({ prepare: (dataDir) => writeFile(path.join(dataDir, 'settings.json'), '{"language": "de", "mode": ') });
    const [warning] = real.core.startupWarnings;
    expect(warning).toMatchObject({ code: 'settings_damaged', file: expect.stringMatching(/^settings\.json\.corrupt-/) });
    const file = warning!.file!;

    const banner = page.getByTestId('startup-warnings');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('alert');
    await banner.getByText(en['startup.title']).waitFor();
    expect(await banner.locator('li[data-code=settings_damaged]').textContent()).toBe(en['startup.settings_damaged'].replace('{file}', file));
    // The core's own sentence is there for a support request, behind "Details".
    await banner.getByText(en['startup.details']).click();
    await banner.getByText(warning!.message, { exact: false }).waitFor();
    await app.screenshot('startup-warning-en');

    // The defaults are in use and can be saved again: switch to German, the banner follows.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByTestId('language-select').selectOption('de');
    await banner.getByText(de['startup.title']).waitFor();
    expect(await banner.locator('li[data-code=settings_damaged]').textContent()).toBe(de['startup.settings_damaged'].replace('{file}', file));
    await app.screenshot('startup-warning-de');

    // Keyboard: the dismiss button is reachable and works with Enter.
    const dismiss = banner.getByRole('button', { name: de['startup.dismiss'] });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await banner.waitFor({ state: 'detached' });
    expectNoProblems(app);
  });

  it('a clean start shows no banner', async () => {
    const { app, page } = await start();
    await page.getByText(en['list.empty']).waitFor();
    expect(await page.getByTestId('startup-warnings').count()).toBe(0);
    expectNoProblems(app);
  });
});

/** A finished scan, `i` seconds after a fixed start; a threat when `threat`. */
function seeded(i: number, fileName: string, threat: boolean): ScanRecord {
  const queuedAt = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
  return {
    id: randomUUID(),
    path: `/data/seeded/${fileName}`,
    fileName,
    size: 100 + i,
    md5: null,
    sha1: null,
    sha256: null,
    mode: 'sync',
    origin: 'drop',
    backend: 'local',
    externalReferenceId: `verdict/seed/${i}`,
    serviceScanId: randomUUID(),
    status: 'completed',
    pendingReason: null,
    safe: !threat,
    detailed: threat ? 'infected' : 'clean',
    findings: threat ? [{ name: 'Eicar-Test-Signature', engine: 'clamd' }] : [],
    fileType: 'text/plain',
    queuedAt,
    submittedAt: queuedAt,
    completedAt: queuedAt,
    durationMs: 5,
    error: null,
    reusedFromId: null,
  };
}

const SEEDED = [
  seeded(1, 'notes.txt', false),
  seeded(2, 'invoice, "final".exe', true),
  seeded(3, 'photo.jpg', false),
  seeded(4, '=cmd.exe', true),
  seeded(5, 'readme.md', false),
];

/** RFC 4180 rows (quoted fields may hold commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((match) => (match[1] !== undefined ? match[1].replaceAll('""', '"') : (match[2] ?? ''))));
}

describe('export', () => {
  const seed = (dataDir: string) => {
    const history = openHistory(dataDir);
    history.insertMany(SEEDED);
    history.close();
  };

  it('exports the threats shown by the filter as CSV, says how many went where, and the file holds exactly those rows', async () => {
    const { app, page } = await start({ prepare: seed });
    await page.locator('.row[data-scan-id]').first().waitFor();
    await page.getByLabel(en['filter.verdict']).selectOption('unsafe');
    await page.locator('.row[data-scan-id]').nth(1).waitFor();
    expect(await page.locator('.row[data-scan-id]').count()).toBe(2);

    const target = path.join(work(), 'threats.csv');
    app.exportNext(target);
    await page.getByRole('button', { name: en['export.button'] }).click();
    await app.screenshot('export-choices');
    await page.getByRole('button', { name: en['export.csv'] }).click();
    await page.getByTestId('notice-info').getByText('Exported 2 scans to threats.csv').waitFor();
    await app.screenshot('export-done');
    expect(app.exportRequests).toEqual(['csv']);

    const [header, ...rows] = parseCsv(await readFile(target, 'utf8'));
    expect(header).toEqual(CSV_HEADER);
    const column = (name: string) => rows.map((row) => row[CSV_HEADER.indexOf(name)]);
    // Newest first, as the list shows them; the hostile name is defused for spreadsheets.
    expect(column('file_name')).toEqual(["'=cmd.exe", 'invoice, "final".exe']);
    expect(column('verdict')).toEqual(['unsafe', 'unsafe']);
    expect(column('id').sort()).toEqual(SEEDED.filter((record) => record.safe === false).map((record) => record.id).sort());
    expectNoProblems(app);
  });

  it('exports everything as JSON with the keyboard; Escape and a cancelled dialog write nothing', async () => {
    const { app, page } = await start({ prepare: seed });
    await page.locator('.row[data-scan-id]').nth(4).waitFor();
    const trigger = page.getByRole('button', { name: en['export.button'] });

    // Escape closes the choices and gives focus back to the button.
    await trigger.focus();
    await page.keyboard.press('Enter');
    expect(await trigger.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate('document.activeElement?.dataset.testid')).toBe('export-button');

    // Opening moves focus to the first choice; Tab reaches JSON; Enter exports.
    const target = path.join(work(), 'everything.json');
    app.exportNext(target);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('notice-info').getByText('Exported 5 scans to everything.json').waitFor();
    const records = JSON.parse(await readFile(target, 'utf8')) as ScanRecord[];
    expect(records.map((record) => record.id)).toEqual([...SEEDED].reverse().map((record) => record.id));

    // Cancelled in the dialog: no file, no notice.
    const before = await readdir(work());
    app.exportNext(null);
    await trigger.click();
    await page.getByRole('button', { name: en['export.csv'] }).click();
    await expect.poll(() => app.exportRequests.length).toBe(2);
    expect(await readdir(work())).toEqual(before);
    expect(await page.getByTestId('notice-error').textContent()).toBe('');
    expectNoProblems(app);
  });

  it('a place that cannot be written: a clear error in the UI’s language, and no file', async () => {
    const { app, page } = await start({ prepare: seed });
    await page.locator('.row[data-scan-id]').first().waitFor();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByTestId('language-select').selectOption('de');
    await page.getByRole('button', { name: de['nav.scans'] }).click();

    const target = path.join(work(), 'no-such-folder', 'scans.csv');
    app.exportNext(target);
    await page.getByRole('button', { name: de['export.button'] }).click();
    await page.getByRole('button', { name: de['export.csv'] }).click();
    const error = page.getByTestId('notice-error');
    // The sentence in German; the system's words (naming the folder) under it, marked English.
    await error.getByText(de['export.failed']).waitFor();
    const said = error.getByTestId('tool-words').locator('samp[lang=en]');
    expect(await said.innerText()).toMatch(/no-such-folder/);
    await expect(readdir(path.dirname(target))).rejects.toMatchObject({ code: 'ENOENT' });
    expectNoProblems(app);
  });
});
