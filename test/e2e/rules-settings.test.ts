// Settings › your own YARA rules (issue 28 §4), in Chromium against the real core and ClamAV's
// real loader (clamscan): a rule file with a good rule, a broken one and one using the `pe` module
// is imported; the good rule is listed, each bad one says its file, line and why with ClamAV's own
// words (marked English); removing the rule empties the list; in German too; axe finds nothing
// (screenshot: rules-settings.png). Detection through the engine: test/electron/cli/rules-cli.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { translator } from '../../renderer/i18n/messages.ts';
import { RULE_WORDS } from '../../shared/rules/rules-api.ts';
import { findClamscan } from '../../electron/feeds/check-feed-file.ts';
import { writeEicarDatabase } from '../support/clamav-db.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';

const { start, work } = useE2eApp({ prefix: 'verdict-e2e-rules-', engine: false });
const en = RULE_WORDS.en;
const de = RULE_WORDS.de;

const RULES = `import "pe"
rule WindowGood
{
    strings:
        $a = "VERDICT-WINDOW-GOOD"
    condition:
        $a
}
rule WindowBroken
{
    strings:
        $a = "VERDICT-WINDOW-BROKEN"
    condition:
        $a or or
}
rule WindowPe
{
    condition:
        pe.is_dll()
}
`;

describe.skipIf(findClamscan() === null)('your own YARA rules, in Settings', () => {
  it('imports a rule file: the good rule listed, the bad ones refused with file, line and why; removal; en and de', async () => {
    const { real, app, page } = await start();
    // Verdict's own folder holds a database of its own (rules never stand alone there).
    await writeEicarDatabase(join(real.dataDir, 'clamav-db'));
    const file = join(work(), 'window.yar');
    await writeFile(file, RULES);
    await page.getByRole('button', { name: translator('en').t('nav.settings') }).click();
    const section = page.getByTestId('rules-settings');
    await section.getByRole('heading', { name: en.title }).waitFor();
    await section.getByTestId('rules-none').waitFor();

    app.pickNext([file]);
    await section.getByTestId('rules-import-files').click();
    await section.getByTestId('rules-outcome').getByText(en.accepted(1)).waitFor();
    const refused = section.getByTestId('rules-refused').locator('li');
    expect(await refused.count()).toBe(2);
    expect(await refused.nth(0).innerText()).toBe(`WindowBroken (${en.where(file, 14)}): ${en.why.syntax}. ${en.clamav} syntax error, unexpected _OR_`);
    expect(await refused.nth(1).innerText()).toBe(`WindowPe (${en.where(file, 19)}): ${en.why.module}. ${en.clamav} undefined identifier "pe"`);
    expect(await refused.nth(1).locator('[lang=en]').innerText()).toBe('undefined identifier "pe"');
    await section.getByTestId('rules-list').getByText('WindowGood').waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await app.screenshot('rules-settings');

    await section.getByRole('button', { name: en.remove('WindowGood') }).click();
    await section.getByTestId('rules-none').waitFor();

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: translator('de').t('nav.settings') }).click();
    const german = page.getByTestId('rules-settings');
    await german.getByRole('heading', { name: de.title }).waitFor();
    app.pickNext([file]);
    await german.getByRole('button', { name: de.importFiles }).click();
    await german.getByTestId('rules-outcome').getByText(de.accepted(1)).waitFor();
    expect(await german.getByTestId('rules-refused').locator('li').nth(1).innerText()).toContain(de.why.module);
    expectNoProblems(app);
  });
});
