// Removable drives in the window (issue 29 §2), in Chromium against the real core: Settings ›
// Removable drives saves ask / scan / never, the size cap and the removal of a drive kept by
// *Always for this drive*; a drive job reads by its drive's label, and one its drive's removal
// ended says so; in German too; axe finds nothing (screenshot: drive-settings.png).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { translator } from '../../renderer/i18n/messages.ts';
import type { DriveSettings } from '../../shared/settings/drives.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-drives-', engine: false });
const en = translator('en');
const de = translator('de');

const saved = async (real: RealCore): Promise<DriveSettings> => {
  const settings = await real.core.settings.get();
  if (!settings.ok) throw new Error('no settings');
  return settings.value.drives;
};

describe('removable drives in the window', () => {
  it('saves the choice, the cap and the always-scanned drives; names a drive job by its label and its removal', async () => {
    const { real, app, page } = await start();
    expect((await real.core.settings.update({ drives: { when: 'ask', autoScanMaxGb: 64, alwaysScan: [{ uuid: '3A2F-1C0D', label: 'HOLIDAY' }] } })).ok).toBe(true);
    // A drive job whose drive went mid-scan (the mounts themselves: test/electron/drives/drive-mount.test.ts).
    const stick = await mkdtemp(join(tmpdir(), 'verdict-e2e-stick-'));
    onTestFinished(() => rm(stick, { recursive: true, force: true }));
    await writeFile(join(stick, 'notes.txt'), 'notes\n');
    const job = await real.core.jobs.start({ kind: 'drive', roots: [stick], origin: 'dialog', drive: { label: 'STICK', uuid: null } });
    real.core.jobs.cancel(job.id, 'drive_removed');
    await real.core.jobs.finished(job.id);

    const row = page.getByTestId('job-row');
    await row.getByText('Drive “STICK”').waitFor();
    await row.getByText(en.t('jobs.status.driveRemoved')).waitFor();

    await page.getByRole('button', { name: en.t('nav.settings') }).click();
    const section = page.getByTestId('drive-settings');
    await section.getByRole('heading', { name: en.t('drives.title') }).waitFor();
    await section.getByLabel(en.t('drives.when.auto'), { exact: true }).click();
    await expect.poll(async () => (await saved(real)).when).toBe('auto');
    const cap = section.getByLabel(en.t('drives.sizeCap'));
    await cap.fill('128');
    await cap.press('Enter');
    await expect.poll(async () => (await saved(real)).autoScanMaxGb).toBe(128);
    await section.getByText('HOLIDAY').waitFor();

    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await app.screenshot('drive-settings');

    await section.getByRole('button', { name: en.t('drives.always.removeLabel', { label: 'HOLIDAY' }) }).click();
    await expect.poll(async () => (await saved(real)).alwaysScan).toEqual([]);
    await section.getByText(en.t('drives.always.empty')).waitFor();

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByTestId('job-row').getByText('Laufwerk „STICK“').waitFor();
    await page.getByTestId('job-row').getByText(de.t('jobs.status.driveRemoved')).waitFor();
    await page.getByRole('button', { name: de.t('nav.settings') }).click();
    await page.getByTestId('drive-settings').getByLabel(de.t('drives.when.never'), { exact: true }).click();
    await expect.poll(async () => (await saved(real)).when).toBe('never');
    expectNoProblems(app);
  });
});
