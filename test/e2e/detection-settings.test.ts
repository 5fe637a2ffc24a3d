// Settings › Malware engine › what ClamAV detects (issue 28 §2), in Chromium against the real core:
// each setting with what it trades; a value out of bounds says why beside its field and keeps
// "Save" off; PUA on except Tool with a 50 MB file limit is saved whole (the core's settings say
// so); "Desktop defaults" brings them back; in German too; axe finds nothing (screenshot:
// detection-settings.png). The restart of Verdict's own clamd a save sets off, with a real clamd:
// test/electron/core/core-own-clamd-detection.test.ts.
import { describe, expect, it } from 'vitest';
import { translator } from '../../renderer/i18n/messages.ts';
import { DEFAULT_DETECTION, type DetectionSettings } from '../../shared/settings/detection.ts';
import { DETECTION_WORDS } from '../../shared/settings/detection-text.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-detection-', engine: false });
const en = DETECTION_WORDS.en;
const de = DETECTION_WORDS.de;

const saved = async (real: RealCore): Promise<DetectionSettings> => {
  const settings = await real.core.settings.get();
  if (!settings.ok) throw new Error('no settings');
  return settings.value.detection;
};

describe('what ClamAV detects, in Settings', () => {
  it('checks each value as typed, saves PUA except Tool and a 50 MB limit, and brings back the defaults; en and de', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: translator('en').t('nav.settings') }).click();
    const section = page.getByTestId('detection-settings');
    await section.getByRole('heading', { name: en.title }).waitFor();
    await section.getByText(en.fields.scanArchives.trade).waitFor();

    const fileSize = section.getByTestId('detection-maxFileSizeMb');
    await fileSize.fill('5000');
    await section.getByRole('alert').getByText(en.problems.max(en.fields.maxFileSizeMb.label, 2000)).waitFor();
    expect(await section.getByTestId('detection-save').isDisabled()).toBe(true);
    expect(await fileSize.getAttribute('aria-invalid')).toBe('true');
    await fileSize.fill('50');
    await section.getByTestId('detection-pua').check();
    await section.getByTestId('detection-pua-mode').selectOption('except');
    await section.getByTestId('detection-pua-categories').fill('Tool;');
    await section.getByRole('alert').getByText(en.problems.category).waitFor();
    await section.getByTestId('detection-pua-categories').fill('Tool');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await app.screenshot('detection-settings');

    await section.getByTestId('detection-save').click();
    await expect.poll(() => saved(real)).toEqual({ ...DEFAULT_DETECTION, pua: { enabled: true, mode: 'except', categories: ['Tool'] }, maxFileSizeMb: 50 });
    await section.getByTestId('detection-status').getByText(en.saved).waitFor();

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: translator('de').t('nav.settings') }).click();
    const german = page.getByTestId('detection-settings');
    await german.getByRole('heading', { name: de.title }).waitFor();
    expect(await german.getByTestId('detection-maxFileSizeMb').inputValue()).toBe('50');
    await german.getByRole('button', { name: de.defaults }).click();
    await german.getByRole('button', { name: de.save }).click();
    await expect.poll(() => saved(real)).toEqual(DEFAULT_DETECTION);
    expectNoProblems(app);
  });
});
