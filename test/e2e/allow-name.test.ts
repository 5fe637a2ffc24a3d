// Allowing a detection name (issue 28 §1) in the real renderer (Chromium) over the real core: a
// threat's detail offers "Always allow “EICAR-Test-File”", the confirmation says how many files in
// the history it changes (a threat with another finding is not one of them), the rows read allowed,
// the detail says "by detection name", Settings lists the name and removes it (the rows read as
// threats again). By keyboard, axe-clean, in English and German.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openHistory } from '../../electron/history/history.ts';
import { queuedRecord, type ScanRecord } from '../../shared/scans/record.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-allow-name-', engine: false });
const NAME = 'EICAR-Test-File';

function threat(fileName: string, at: string, names: string[]): ScanRecord {
  const id = randomUUID();
  return {
    ...queuedRecord({ id, path: `/home/user/${fileName}`, fileName, origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: at }),
    status: 'completed',
    safe: false,
    detailed: 'infected',
    findings: names.map((name) => ({ name })),
    completedAt: at,
  };
}

const SEEDED = [
  threat('first.com', '2026-11-20T10:00:00.000Z', [NAME]),
  threat('second.com', '2026-11-20T10:00:01.000Z', [NAME]),
  threat('mixed.bin', '2026-11-20T10:00:02.000Z', [NAME, 'Win.Tool.Foo-123']),
];

const seed = (dataDir: string) => {
  const history = openHistory(dataDir);
  history.insertMany(SEEDED);
  history.close();
};

const withName = (text: string) => text.replace('{name}', NAME);

describe('allow by detection name', () => {
  it('from the detail, confirmed with the history count; Settings lists and removes it; keyboard, axe, German', async () => {
    const { real, app, page } = await start({ prepare: seed });
    await rowFor(page, 'first.com').and(page.locator('[data-verdict=unsafe]')).waitFor();
    await rowFor(page, 'first.com').click();
    const actions = page.getByTestId('allow-by-name');
    const allow = actions.getByRole('button', { name: withName(en['threat.allowName']) });
    await allow.waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await allow.focus();
    await page.keyboard.press('Enter');

    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByText(withName(en['allowName.title'])).waitFor();
    // Two of the three threats: the mixed one keeps a finding that is not allowed.
    expect(await dialog.textContent()).toContain(en['allowName.body'].replace('{count}', '2').replace('{inQuarantine}', '0'));
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await dialog.getByRole('button', { name: en['allowName.confirm'] }).focus();
    await page.keyboard.press('Enter');

    await rowFor(page, 'first.com').and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
    await rowFor(page, 'second.com').and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
    expect(await rowFor(page, 'mixed.bin').getAttribute('data-verdict')).toBe('unsafe');
    await page.getByTestId('threat-actions').getByText(en['threat.allowedByName']).waitFor();
    expect(await page.getByTestId('stop-allowing-by-name').getByRole('button', { name: withName(en['threat.stopAllowingName']) }).count()).toBe(1);
    // The allowed filter holds them, as allowed content.
    await page.getByLabel(en['filter.verdict']).selectOption('allowed');
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(2);
    await page.getByLabel(en['filter.verdict']).selectOption('all');

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const section = page.getByTestId('allowed-names');
    await section.getByText(NAME, { exact: true }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // German: the section and the detail's action in German.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: de['nav.settings'] }).click();
    await section.getByRole('heading', { name: de['allowedNames.title'] }).waitFor();
    const remove = section.getByRole('button', { name: de['allowedNames.removeLabel'].replace('{name}', NAME) });
    await remove.focus();
    await page.keyboard.press('Enter');
    await section.getByText(de['allowedNames.empty']).waitFor({ timeout: 30_000 });
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expect((await real.core.quarantine.allowedNames()).ok && (await real.core.quarantine.allowedNames())).toEqual({ ok: true, value: [] });

    await page.getByRole('button', { name: de['nav.scans'] }).click();
    await rowFor(page, 'first.com').and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 30_000 });
    await rowFor(page, 'first.com').click();
    await page.getByTestId('allow-by-name').getByRole('button', { name: de['threat.allowName'].replace('{name}', NAME) }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expectNoProblems(app);
  });
});
