// Settings › Scheduled scans in Chromium against the real core: each choice is saved
// as the core's setting (weekly on Sunday at 19:30, then off), the time applies on
// Enter, the next run is shown, the battery option toggles from the keyboard, the
// section reads in German, and axe finds nothing (screenshot: schedule-settings.png).
// The recheck after a signature update (issue 27 §1) beside it: labelled, its window saved, in en/de.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { translator } from '../../renderer/i18n/messages.ts';
import { weekdayName } from '../../renderer/settings/schedule-form.ts';
import type { ScanSchedules } from '../../shared/settings/schedules.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-schedules-', engine: false });
const en = translator('en');
const de = translator('de');

const saved = async (real: RealCore): Promise<ScanSchedules> => {
  const settings = await real.core.settings.get();
  if (!settings.ok) throw new Error('no settings');
  return settings.value.scanSchedules;
};

const quick = (page: Page) => page.getByTestId('schedule-quick');

describe('scheduled scans in Settings', () => {
  it('saves a weekly quick scan, its day and time, shows its next run, and turns it off again', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en.t('nav.settings') }).click();
    const section = page.getByTestId('schedule-settings');
    await section.getByRole('heading', { name: en.t('settings.schedules') }).waitFor();
    expect(await quick(page).getByTestId('schedule-quick-next').count()).toBe(0);

    await quick(page).getByLabel(en.t('settings.schedules.repeat')).selectOption('weekly');
    await expect.poll(async () => (await saved(real)).quick).toEqual({ repeat: 'weekly', weekday: 1, time: '09:00' });
    await quick(page).getByLabel(en.t('settings.schedules.weekday')).selectOption({ label: weekdayName('en', 0) });
    await expect.poll(async () => (await saved(real)).quick).toEqual({ repeat: 'weekly', weekday: 0, time: '09:00' });

    const time = quick(page).getByLabel(en.t('settings.schedules.time'));
    await time.fill('19:30');
    await time.press('Enter');
    await expect.poll(async () => (await saved(real)).quick).toEqual({ repeat: 'weekly', weekday: 0, time: '19:30' });
    const next = quick(page).getByTestId('schedule-quick-next');
    await next.waitFor();
    expect(await next.innerText()).toMatch(/^Next: Sunday \d+ \w+ at 19:30$/);
    // The full scan stays off.
    expect((await saved(real)).full).toEqual({ repeat: 'off' });

    const battery = page.getByTestId('schedule-skip-on-battery');
    expect(await battery.isChecked()).toBe(true);
    await battery.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await saved(real)).skipOnBattery).toBe(false);

    // The recheck after a signature update (issue 27 §1): a region named by its heading, each control by its label.
    const recheck = page.getByRole('region', { name: en.t('settings.recheck') });
    expect(await recheck.getByLabel(en.t('settings.recheckOn')).isChecked()).toBe(true);
    const days = recheck.getByLabel(en.t('settings.recheckDays'));
    expect(await days.inputValue()).toBe('14');
    await days.fill('7');
    await days.press('Enter');
    await expect.poll(async () => ((await real.core.settings.get()) as { ok: true; value: { recheckAfterUpdateDays: number } }).value.recheckAfterUpdateDays).toBe(7);

    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await app.screenshot('schedule-settings');

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: de.t('nav.settings') }).click();
    await quick(page).getByText(de.t('settings.schedules.kind.quick')).waitFor();
    expect(await quick(page).getByLabel(de.t('settings.schedules.weekday')).locator('option:checked').innerText()).toBe('Sonntag');

    await quick(page).getByLabel(de.t('settings.schedules.repeat')).selectOption('off');
    await expect.poll(async () => (await saved(real)).quick).toEqual({ repeat: 'off' });
    expect(await quick(page).getByLabel(de.t('settings.schedules.time')).count()).toBe(0);
    const recheckDe = page.getByRole('region', { name: de.t('settings.recheck') });
    expect(await recheckDe.getByLabel(de.t('settings.recheckDays')).inputValue()).toBe('7');
    expect(await recheckDe.getByLabel(de.t('settings.recheckOn')).isChecked()).toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expectNoProblems(app);
  });
});
