// Threat response and privacy in the real renderer (Chromium) against the real
// core: quarantine chosen in Settings, the quarantine detail, restoring onto a
// taken path (another location from the save dialog), allowing, bulk actions
// with the keyboard; each quarantine action of the detail panel and the bulk
// bar checked on disk and in the core (allow and restore, delete permanently,
// restore into a chosen folder, allow a threat left in place, a rescan of
// allowed content); and the consent question before a manual scan goes to a
// remote service (a second real local service, configured as the remote one,
// its key in a private gnome-keyring), including a scan the core held back; and
// "Scan again with ClamAV" for a file judged clean by basic checks only.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { openHistory } from '../../electron/history/history.ts';
import { queuedRecord, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { keyringTestsCanRun } from '../support/keyring.ts';
import { startTestService } from '../electron/scans/harness.ts';
import { contrastOf } from './support/app-harness.ts';
import { dropPaths, expectNoProblems, recordFor, rowFor, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';

const canUseKeyring = keyringTestsCanRun();
const { start, writeFiles, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-protect-', engine: true, keyring: canUseKeyring });

describe('quarantine', () => {
  it('moves a threat to quarantine when chosen in Settings; the detail shows where it was; restore onto a taken path asks for another place', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['protect.manualAction']).selectOption('quarantine');
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.threatAction;
    }).toBe('quarantine');
    await page.getByRole('button', { name: en['nav.scans'] }).click();

    const files = await writeFiles({ 'invoice.exe': EICAR_TEST_STRING, 'notes.txt': 'nothing to see' });
    app.pickNext([files['invoice.exe']!, files['notes.txt']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    const threat = rowFor(page, 'invoice.exe');
    await threat.and(page.locator('[data-disposition=quarantined]')).waitFor({ timeout: 60_000 });
    expect(await threat.getAttribute('data-verdict')).toBe('unsafe');
    await rowFor(page, 'notes.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    expect(existsSync(files['invoice.exe']!)).toBe(false);
    expect(existsSync(files['notes.txt']!)).toBe(true);

    await threat.click();
    const detail = page.getByTestId('detail-panel');
    const actions = detail.getByTestId('threat-actions');
    await actions.getByText(en['threat.inQuarantine'], { exact: true }).waitFor();
    await detail.getByTestId('quarantine-entry').getByText(`Original location: ${files['invoice.exe']}`).waitFor();
    await app.screenshot('quarantine-detail');
    const record = await recordFor(real, files['invoice.exe']!);
    expect(record).toMatchObject({ disposition: 'quarantined' });

    // Judged again after an update, the signatures no longer detect it (issue 27 §1): its line says so, beside Restore.
    const judgements = openHistory(real.dataDir);
    judgements.recheck.quarantine.save({ entryId: record!.quarantineId!, signatureKey: 'clamav:e2e', detected: false, names: [], checkedMs: Date.now() });
    judgements.close();
    await rowFor(page, 'notes.txt').click();
    await threat.click();
    const noLonger = detail.getByTestId('no-longer-detected');
    await noLonger.waitFor();
    expect(await noLonger.textContent()).toContain('it is no longer detected');
    await actions.getByRole('button', { name: en['threat.restore'], exact: true }).waitFor();

    // Something new is at the original path: Verdict never replaces it and asks for another place.
    await writeFile(files['invoice.exe']!, 'a new file with the same name');
    const elsewhere = path.join(path.dirname(files['invoice.exe']!), 'invoice (restored).exe');
    app.saveNext(elsewhere);
    await actions.getByRole('button', { name: en['threat.restore'], exact: true }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText(`A file already exists at ${files['invoice.exe']}`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: en['quarantine.chooseLocation'] }).click();
    await threat.and(page.locator('[data-disposition=restored]')).waitFor({ timeout: 30_000 });
    expect(app.saveRequests).toEqual(['invoice.exe']);
    expect(await readFile(elsewhere, 'latin1')).toBe(EICAR_TEST_STRING);
    expect(await readFile(files['invoice.exe']!, 'utf8')).toBe('a new file with the same name');
    await detail.getByText(`You restored this file from quarantine to ${elsewhere}.`).waitFor();
    expect(await recordFor(real, files['invoice.exe']!)).toMatchObject({ disposition: 'restored' });
    expectNoProblems(app);
  });

  it('acts on several threats from the list: tick with the keyboard, move to quarantine, allow one, delete the other', async () => {
    const { real, app, page } = await start();
    const files = await writeFiles({ 'a-dropper.com': EICAR_TEST_STRING, 'b-dropper.com': `${EICAR_TEST_STRING}` });
    // Different names, same content: the second reuses the first one's verdict (both unsafe).
    app.pickNext([files['a-dropper.com']!, files['b-dropper.com']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await expect.poll(() => page.locator('.row[data-verdict=unsafe]').count(), { timeout: 60_000 }).toBe(2);

    // Keyboard: the list is one Tab stop; Space ticks, Shift+ArrowDown extends.
    await page.getByTestId('scan-list').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText('2 selected').waitFor();
    expect(await page.locator('.row[aria-selected=true]').count()).toBe(2);
    await bar.getByRole('button', { name: 'Move to quarantine (2)' }).click();
    await expect.poll(() => page.locator('.row[data-disposition=quarantined]').count(), { timeout: 30_000 }).toBe(2);
    for (const file of Object.values(files)) expect(existsSync(file)).toBe(false);

    // Allow one from the list (checkbox): restored and shown as "Allowed by you", never as clean.
    await rowFor(page, 'a-dropper.com').getByTestId('row-check').click();
    await bar.getByRole('button', { name: 'Allow (1)' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: en['quarantine.allowConfirm'] }).click();
    const allowed = rowFor(page, 'a-dropper.com');
    await allowed.and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
    expect(await allowed.locator('.badge').textContent()).toBe(en['verdict.allowed']);
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    expect(await readFile(files['a-dropper.com']!, 'latin1')).toBe(EICAR_TEST_STRING);
    expect(await contrastOf(page, '.row .badge--allowed')).toBeGreaterThanOrEqual(4.5);

    // Delete the other permanently (a danger confirmation first).
    await rowFor(page, 'b-dropper.com').getByTestId('row-check').click();
    await bar.getByRole('button', { name: 'Delete permanently (1)' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText(en['quarantine.deleteBody']).waitFor();
    await confirm.getByRole('button', { name: en['quarantine.deleteConfirm'] }).click();
    await rowFor(page, 'b-dropper.com').and(page.locator('[data-disposition=deleted]')).waitFor({ timeout: 30_000 });
    const entries = await real.core.quarantine.list({ include: 'all' });
    expect(entries.ok && entries.value.map((entry) => entry.state).sort()).toEqual(['allowed', 'deleted']);

    // The allowed content is listed in Settings and can be removed there.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const allowedList = page.getByTestId('allowed-files');
    await allowedList.getByText('a-dropper.com').waitFor();
    await allowedList.getByRole('button', { name: 'Remove a-dropper.com from the allowed files' }).click();
    await allowedList.getByText(en['allowed.empty']).waitFor();
    const record = await recordFor(real, files['a-dropper.com']!);
    expect(record && verdictOf(record)).toBe('unsafe');
    expectNoProblems(app);
  });
});

/** Every record the core holds for a path, newest first. */
async function recordsFor(real: RealCore, filePath: string): Promise<ScanRecord[]> {
  const list = await real.core.scans.list({ limit: 1000 });
  if (!list.ok) throw new Error(list.error.message);
  return list.value.items.filter((record) => record.path === filePath);
}

const sha256Of = (content: string): string => createHash('sha256').update(content, 'latin1').digest('hex');

/** Where the quarantine keeps an entry's file (its stored name is the entry id). */
const storedFile = (real: RealCore, entryId: string): string => path.join(real.dataDir, 'quarantine', 'files', entryId);

describe('quarantine actions from the detail panel and the list', () => {
  /** Quarantine chosen for manual scans, these files scanned from "Add files", each threat's row `quarantined`. */
  async function quarantinedThreats(names: string[]) {
    const opened = await start();
    expect((await opened.real.core.settings.update({ threatAction: 'quarantine' })).ok).toBe(true);
    const files = await writeFiles(Object.fromEntries(names.map((name) => [name, EICAR_TEST_STRING])));
    opened.app.pickNext(Object.values(files));
    await opened.page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await expect.poll(() => opened.page.locator('.row[data-disposition=quarantined]').count(), { timeout: 60_000 }).toBe(names.length);
    const entries = await Promise.all(
      Object.values(files).map(async (file) => {
        const record = await recordFor(opened.real, file);
        const entry = record && (await opened.real.core.quarantine.forRecord(record.id));
        if (!entry?.ok || !entry.value) throw new Error(`no quarantine entry for ${file}`);
        return entry.value;
      }),
    );
    for (const file of Object.values(files)) expect(existsSync(file)).toBe(false);
    return { ...opened, files, entries };
  }

  it('"Allow and restore" in the detail: the file is back in place, out of quarantine, and a rescan of it reads "allowed", not clean', async () => {
    const { real, app, page, files, entries } = await quarantinedThreats(['tool.exe']);
    const file = files['tool.exe']!;
    const entry = entries[0]!;
    expect(existsSync(storedFile(real, entry.id))).toBe(true);

    await rowFor(page, 'tool.exe').click();
    const actions = page.getByTestId('detail-panel').getByTestId('threat-actions');
    await actions.getByRole('button', { name: en['threat.allowRestore'], exact: true }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText(en['quarantine.allowBody']).waitFor();
    await confirm.getByRole('button', { name: en['quarantine.allowConfirm'] }).click();
    await rowFor(page, 'tool.exe').and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
    await page.getByTestId('notice-info').getByText(`Allowed and restored to ${file}`).waitFor();

    // On disk: back at its place with its content, and no copy left in the quarantine folder.
    expect(await readFile(file, 'latin1')).toBe(EICAR_TEST_STRING);
    expect(existsSync(storedFile(real, entry.id))).toBe(false);
    // In the core: the entry is closed as allowed, the content is on the allowed list, the scan reads "allowed".
    const after = await real.core.quarantine.forRecord(entry.recordId!);
    expect(after.ok && after.value).toMatchObject({ state: 'allowed', restoredTo: file });
    const allowed = await real.core.quarantine.allowed();
    expect(allowed.ok && allowed.value.map((content) => content.sha256)).toEqual([sha256Of(EICAR_TEST_STRING)]);
    expect(await recordFor(real, file)).toMatchObject({ disposition: 'allowed', safe: false });

    // Scan it again: the engine still calls it unsafe, but it reads "allowed" and stays where it is (quarantine is still on).
    await page.getByTestId('detail-panel').getByRole('button', { name: en['detail.rescan'] }).click();
    await expect.poll(() => rowFor(page, 'tool.exe').and(page.locator('[data-verdict=allowed]')).count(), { timeout: 60_000 }).toBe(2);
    const records = await recordsFor(real, file);
    expect(records.map((record) => verdictOf(record))).toEqual(['allowed', 'allowed']);
    expect(records[0]).toMatchObject({ status: 'completed', safe: false, disposition: 'allowed' });
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    await real.core.threatsSettled();
    expect(await readFile(file, 'latin1')).toBe(EICAR_TEST_STRING);
    expectNoProblems(app);
  });

  it('"Delete permanently" in the detail asks first: Cancel keeps the file in quarantine, confirming removes it for good', async () => {
    const { real, app, page, files, entries } = await quarantinedThreats(['payload.dll']);
    const entry = entries[0]!;
    await rowFor(page, 'payload.dll').click();
    const detail = page.getByTestId('detail-panel');
    const actions = detail.getByTestId('threat-actions');
    const confirm = page.getByTestId('confirm-dialog');

    await actions.getByRole('button', { name: en['threat.delete'], exact: true }).click();
    await confirm.getByRole('heading', { name: en['quarantine.deleteTitle'] }).waitFor();
    await confirm.getByText(en['quarantine.deleteBody']).waitFor();
    await confirm.getByRole('button', { name: en['common.cancel'] }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(existsSync(storedFile(real, entry.id))).toBe(true);
    const kept = await real.core.quarantine.forRecord(entry.recordId!);
    expect(kept.ok && kept.value?.state).toBe('quarantined');

    await actions.getByRole('button', { name: en['threat.delete'], exact: true }).click();
    await confirm.getByRole('button', { name: en['quarantine.deleteConfirm'] }).click();
    await rowFor(page, 'payload.dll').and(page.locator('[data-disposition=deleted]')).waitFor({ timeout: 30_000 });
    await detail.getByText(en['threat.deleted']).waitFor();
    await page.getByTestId('notice-info').getByText('Deleted permanently: 1').waitFor();

    // Gone from the quarantine folder, not put back anywhere, and the core says so.
    expect(existsSync(storedFile(real, entry.id))).toBe(false);
    expect(existsSync(files['payload.dll']!)).toBe(false);
    const gone = await real.core.quarantine.forRecord(entry.recordId!);
    expect(gone.ok && gone.value?.state).toBe('deleted');
    const active = await real.core.quarantine.list();
    expect(active.ok && active.value).toEqual([]);
    const record = await recordFor(real, files['payload.dll']!);
    expect(record).toMatchObject({ disposition: 'deleted', safe: false });
    expect(record && verdictOf(record)).toBe('unsafe');
    expectNoProblems(app);
  });

  it('a quarantined file removed outside Verdict: "Restore" says it is lost, and the list and detail say so instead of "You deleted"', async () => {
    const { real, app, page, files, entries } = await quarantinedThreats(['vanished.exe']);
    const entry = entries[0]!;
    await rm(storedFile(real, entry.id));

    await rowFor(page, 'vanished.exe').click();
    const detail = page.getByTestId('detail-panel');
    await detail.getByTestId('threat-actions').getByRole('button', { name: en['threat.restore'], exact: true }).click();
    await page.getByTestId('notice-error').getByText(en['quarantineError.fileLost']).waitFor();
    // The core marked the record deleted with file_lost; the panel and the row word that, not the user's deletion.
    const lost = detail.locator('[data-testid=threat-actions][data-disposition=deleted][data-file-lost=true]');
    expect(await lost.textContent()).toBe(en['quarantineError.fileLost']);
    expect(await detail.getByText(en['threat.deleted']).count()).toBe(0);
    const status = rowFor(page, 'vanished.exe').locator('.status', { hasText: en['disposition.lost'] });
    await status.waitFor();
    expect(await status.textContent()).toBe(en['disposition.lost']);
    expect(await recordFor(real, files['vanished.exe']!)).toMatchObject({ disposition: 'deleted', error: { code: 'file_lost' } });
    const after = await real.core.quarantine.forRecord(entry.recordId!);
    expect(after.ok && after.value?.state).toBe('lost');
    expect(existsSync(files['vanished.exe']!)).toBe(false);
    expectNoProblems(app);
  });

  it('bulk "Restore (2)" from the list: both original places are taken, so the files go into a folder the user chooses', async () => {
    const { real, app, page, files, entries } = await quarantinedThreats(['first.scr', 'second.scr']);
    // New files took both places meanwhile: Verdict must not replace them.
    for (const file of Object.values(files)) await writeFile(file, `the user's new ${path.basename(file)}`);
    const chosen = await mkdtemp(path.join(work(), 'restore-into-'));

    for (const name of ['first.scr', 'second.scr']) await rowFor(page, name).getByTestId('row-check').click();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText('2 selected').waitFor();
    app.pickNext([chosen]);
    await bar.getByRole('button', { name: 'Restore (2)' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText('2 files cannot go back to where they were', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: en['quarantine.chooseFolder'] }).click();
    await expect.poll(() => page.locator('.row[data-disposition=restored]').count(), { timeout: 30_000 }).toBe(2);

    for (const [name, file] of Object.entries(files)) {
      expect(await readFile(path.join(chosen, name), 'latin1')).toBe(EICAR_TEST_STRING);
      expect(await readFile(file, 'utf8')).toBe(`the user's new ${name}`);
    }
    for (const entry of entries) {
      expect(existsSync(storedFile(real, entry.id))).toBe(false);
      const after = await real.core.quarantine.forRecord(entry.recordId!);
      expect(after.ok && after.value).toMatchObject({ state: 'restored', restoredTo: path.join(chosen, entry.fileName) });
    }
    for (const file of Object.values(files)) {
      const record = await recordFor(real, file);
      // Restored is not allowed: still a threat.
      expect(record && [record.disposition, verdictOf(record)]).toEqual(['restored', 'unsafe']);
    }
    const allowed = await real.core.quarantine.allowed();
    expect(allowed.ok && allowed.value).toEqual([]);
    expectNoProblems(app);
  });

  it('bulk restore into one chosen folder where two files share a name (and one is there already): numbered names, nothing replaced, one notice', async () => {
    const { real, app, page } = await start();
    expect((await real.core.settings.update({ threatAction: 'quarantine' })).ok).toBe(true);
    const fromMail = await writeFiles({ 'setup.exe': EICAR_TEST_STRING });
    const fromWeb = await writeFiles({ 'setup.exe': EICAR_TEST_STRING });
    const originals = [fromMail['setup.exe']!, fromWeb['setup.exe']!];
    app.pickNext(originals);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await expect.poll(() => page.locator('.row[data-disposition=quarantined]').count(), { timeout: 60_000 }).toBe(2);
    for (const file of originals) await writeFile(file, 'the user’s new setup.exe');
    const chosen = await mkdtemp(path.join(work(), 'one-folder-'));
    await writeFile(path.join(chosen, 'setup.exe'), 'already in the chosen folder');

    await page.getByTestId('scan-list').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    const bar = page.getByTestId('bulk-bar');
    app.pickNext([chosen]);
    await bar.getByRole('button', { name: 'Restore (2)' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText('A name that is taken there gets a number', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: en['quarantine.chooseFolder'] }).click();
    await expect.poll(() => page.locator('.row[data-disposition=restored]').count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('notice-info').getByText('Restored: 2. Given a new name because theirs was taken in that folder: setup (2).exe, setup (3).exe').waitFor();
    expect(await page.getByTestId('notice-error').textContent()).toBe('');

    // Nothing replaced, nothing lost: the user's files stay, both threats are in the folder under new names.
    expect((await readdir(chosen)).sort()).toEqual(['setup (2).exe', 'setup (3).exe', 'setup.exe']);
    expect(await readFile(path.join(chosen, 'setup.exe'), 'utf8')).toBe('already in the chosen folder');
    for (const name of ['setup (2).exe', 'setup (3).exe']) expect(await readFile(path.join(chosen, name), 'latin1')).toBe(EICAR_TEST_STRING);
    for (const file of originals) expect(await readFile(file, 'utf8')).toBe('the user’s new setup.exe');
    const entries = await real.core.quarantine.list({ include: 'all' });
    expect(entries.ok && entries.value.map((entry) => [entry.state, entry.restoredTo]).sort()).toEqual([
      ['restored', path.join(chosen, 'setup (2).exe')],
      ['restored', path.join(chosen, 'setup (3).exe')],
    ]);
    for (const file of originals) expect((await recordFor(real, file))?.disposition).toBe('restored');
    expectNoProblems(app);
  });

  it('"Allow this file" for a threat that was only notified: it stays where it is, and its content is remembered as allowed', async () => {
    const { real, app, page } = await start();
    const files = await writeFiles({ 'macro.docm': EICAR_TEST_STRING });
    const file = files['macro.docm']!;
    app.pickNext([file]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    const row = rowFor(page, 'macro.docm');
    await row.and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 60_000 });
    expect(await row.getAttribute('data-disposition')).toBeNull();

    await row.click();
    const actions = page.getByTestId('detail-panel').getByTestId('threat-actions');
    await actions.getByText(en['threat.notified']).waitFor();
    await actions.getByRole('button', { name: en['threat.allow'], exact: true }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: en['quarantine.allowConfirm'] }).click();
    await row.and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 30_000 });
    await page.getByTestId('notice-info').getByText(en['quarantine.allowedKept']).waitFor();

    expect(await readFile(file, 'latin1')).toBe(EICAR_TEST_STRING);
    const allowed = await real.core.quarantine.allowed();
    expect(allowed.ok && allowed.value).toMatchObject([{ sha256: sha256Of(EICAR_TEST_STRING), fileName: 'macro.docm', entryId: null }]);
    const entries = await real.core.quarantine.list({ include: 'all' });
    expect(entries.ok && entries.value).toEqual([]);

    // The same content under another name, scanned fresh: "allowed", never clean.
    const copy = await writeFiles({ 'copy-of-macro.docm': EICAR_TEST_STRING });
    app.pickNext([copy['copy-of-macro.docm']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await rowFor(page, 'copy-of-macro.docm').and(page.locator('[data-verdict=allowed]')).waitFor({ timeout: 60_000 });
    const again = await recordFor(real, copy['copy-of-macro.docm']!);
    expect(again && [again.safe, again.disposition, verdictOf(again)]).toEqual([false, 'allowed', 'allowed']);
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    expectNoProblems(app);
  });
});

describe('exclusions and history in Settings', () => {
  it('an extension excluded in Settings makes a file "skipped" with the reason; "Scan anyway" scans it; retention and clear history', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const exclusions = page.getByTestId('exclusion-settings');
    await exclusions.getByLabel(en['exclude.extensions']).fill('iso\nbad ext');
    await exclusions.getByLabel(en['exclude.extensions']).blur();
    await exclusions.getByText(en['exclude.extensionInvalid']).waitFor();
    await exclusions.getByLabel(en['exclude.extensions']).fill('iso');
    await exclusions.getByLabel(en['exclude.extensions']).blur();
    await exclusions.getByLabel(en['exclude.paths']).fill('relative/path');
    await exclusions.getByText(en['exclude.pathRelative']).waitFor();
    await exclusions.getByLabel(en['exclude.paths']).fill('');
    await exclusions.getByTestId('max-auto-size').getByRole('textbox').fill('25');
    await exclusions.getByTestId('max-auto-size').getByRole('textbox').press('Enter');
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && [settings.value.exclusions.extensions, settings.value.maxAutoScanSize];
    }).toEqual([['iso'], 25 * 1024 * 1024]);
    const history = page.getByTestId('history-settings');
    await history.getByTestId('keep-scans').getByRole('textbox').fill('500');
    await history.getByTestId('keep-scans').getByRole('textbox').press('Enter');
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.historyRetention;
    }).toEqual({ keepScans: 500 });
    await page.setViewportSize({ width: 1280, height: 2600 });
    await app.screenshot('protection-settings');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: en['nav.scans'] }).click();
    const files = await writeFiles({ 'disk.iso': 'an image', 'readme.txt': 'read me' });
    app.pickNext(Object.values(files));
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await page.getByTestId('notice-info').getByText('1 queued, 1 skipped by your exclusions').waitFor();
    const skipped = rowFor(page, 'disk.iso');
    await skipped.and(page.locator('[data-verdict=skipped]')).waitFor({ timeout: 30_000 });
    await skipped.click();
    const excluded = page.getByTestId('detail-panel').getByTestId('excluded');
    await excluded.getByText('Not scanned: files ending in .iso are excluded in the global exclusions.').waitFor();
    await excluded.getByRole('button', { name: en['detail.scanAnyway'] }).click();
    await expect.poll(() => rowFor(page, 'disk.iso').count(), { timeout: 30_000 }).toBe(2);
    await rowFor(page, 'disk.iso').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    await rowFor(page, 'readme.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });

    // Clear history: a confirmation, then the list empties (the removal reaches the page as an event).
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await history.getByRole('button', { name: en['history.clear'] }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: en['history.clearConfirm'] }).click();
    await page.getByTestId('notice-info').getByText('Scans removed from the history: 3').waitFor();
    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await page.getByText(en['list.empty']).waitFor();
    expectNoProblems(app);
  });
});

describe('reasons in the UI language', () => {
  it('in German, a skipped file’s rule, a failed file’s specific line and the reason a threat could not be moved are German (the core keeps its English for the CLI)', async () => {
    const { real, app, page } = await start();
    const saved = await real.core.settings.update({ language: 'de', exclusions: { paths: [], globs: [], extensions: ['iso'] } });
    expect(saved.ok).toBe(true);
    await page.reload();
    await app.bridge.subscribed(2);
    // The settings arrive after the subscriptions: German is in use once the navigation speaks it.
    await page.getByRole('button', { name: de['nav.scans'] }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');

    const files = await writeFiles({ 'disk.iso': 'an image', 'dropper.exe': EICAR_TEST_STRING });
    // A named pipe next to them: refused at intake (never opened), a failed scan.
    const fifo = path.join(path.dirname(files['disk.iso']!), 'a-pipe');
    execFileSync('mkfifo', [fifo]);
    app.pickNext([...Object.values(files), fifo]);
    await page.getByRole('button', { name: de['drop.addFiles'] }).click();
    const skipped = rowFor(page, 'disk.iso');
    await skipped.and(page.locator('[data-verdict=skipped]')).waitFor({ timeout: 30_000 });
    await skipped.click();
    const excluded = page.getByTestId('detail-panel').getByTestId('excluded');
    await excluded.getByText(de['detail.excludedTitle']).waitFor();
    expect(await excluded.getByTestId('excluded-reason').textContent()).toBe('Nicht geprüft: Dateien mit der Endung .iso sind ausgeschlossen (globale Ausschlüsse).');
    expect((await recordFor(real, files['disk.iso']!))?.error).toEqual({
      code: 'excluded_extension',
      message: 'Not scanned: files ending in .iso are excluded in the global exclusions.',
      params: { scope: 'global', target: 'file', rule: 'iso' },
    });

    // The failed pipe: the reason and next step above it were German already; now its specific line is too.
    const pipe = rowFor(page, 'a-pipe');
    await pipe.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 30_000 });
    await pipe.click();
    const failure = page.getByTestId('detail-panel').getByTestId('failure');
    await failure.getByText(de['detail.failureTitle']).waitFor();
    expect(await failure.getByTestId('failure-detail').textContent()).toBe(
      `${fifo} ist eine benannte Pipe (FIFO) und keine normale Datei; Verdict hat es nicht geöffnet. · Fehlercode: not_regular_file`,
    );
    expect((await recordFor(real, fifo))?.error).toEqual({
      code: 'not_regular_file',
      message: `${fifo} is a named pipe (FIFO), not a regular file; it was not opened.`,
      params: { cause: 'not_regular', path: fifo, kind: 'fifo' },
    });

    // A threat left in place changes after its verdict: "Move to quarantine" refuses, and says why in German.
    const threat = rowFor(page, 'dropper.exe');
    await threat.and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 60_000 });
    await writeFile(files['dropper.exe']!, 'changed after the scan');
    await threat.click();
    await page.getByTestId('detail-panel').getByRole('button', { name: de['threat.moveToQuarantine'] }).click();
    await threat.and(page.locator('[data-disposition=quarantine_failed]')).waitFor({ timeout: 30_000 });
    const reason = `${files['dropper.exe']} wurde nach der Prüfung geändert und daher nicht verschoben. Prüfen Sie die Datei erneut.`;
    expect(await page.getByTestId('detail-panel').getByTestId('quarantine-failure-reason').textContent()).toBe(reason);
    await page.getByTestId('notice-error').getByText(`0 erledigt; 1 nicht möglich: ${reason}`).waitFor();
    const record = await recordFor(real, files['dropper.exe']!);
    expect(record?.error).toMatchObject({ code: 'hash_mismatch', message: expect.stringContaining('changed since it was scanned'), params: { path: files['dropper.exe'] } });
    expect(await readFile(files['dropper.exe']!, 'utf8')).toBe('changed after the scan');
    await app.screenshot('german-reasons');
    expectNoProblems(app);
  });
});

describe('upload consent before the settings have arrived', () => {
  it('a drop in the first moments after start (settings still on their way) waits for them and asks before anything is sent', async () => {
    const remote = await startTestService(await mkdtemp(path.join(work(), 'remote-')));
    closeAfterTest(remote);
    const { real, app, page } = await start();
    const host = new URL(remote.url).host;
    expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: remote.url } })).ok).toBe(true);
    // The page's settings read waits in the core until released: the drop comes before the renderer knows them.
    const settingsApi = real.core.settings;
    const get = settingsApi.get.bind(settingsApi);
    let release = (): void => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    settingsApi.get = async () => {
      await answered;
      return get();
    };
    await page.reload();
    await app.bridge.subscribed(2);
    const files = await writeFiles({ 'early.txt': 'dropped early' });
    await dropPaths(page, [files['early.txt']!]);
    const submits = () => app.bridge.calls.filter((call) => call.channel === 'scans:submit');
    expect(submits()).toEqual([]);
    release();
    settingsApi.get = get;

    const dialog = page.getByTestId('upload-dialog');
    await dialog.getByRole('heading', { name: `Send to ${host} for scanning?` }).waitFor();
    await dialog.getByRole('button', { name: en['upload.cancel'] }).click();
    await page.getByTestId('notice-info').getByText(en['upload.cancelled']).waitFor();
    expect(submits()).toEqual([]);
    expect(remote.scanCount()).toBe(0);
    expectNoProblems(app);
  });
});

describe.runIf(canUseKeyring)('upload consent for a remote service', () => {
  it('asks before the first upload ("This file will be sent to <host>"), sends nothing on Cancel, and remembers "don\'t ask again"', async () => {
    const remote = await startTestService(await mkdtemp(path.join(work(), 'remote-')));
    closeAfterTest(remote);
    const { real, app, page } = await start();
    const origin = new URL(remote.url).origin;
    const host = new URL(remote.url).host;
    expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: remote.url } })).ok).toBe(true);
    expect((await real.core.settings.setApiKey(remote.key)).ok).toBe(true);
    await page.reload();
    await app.bridge.subscribed(2);
    const files = await writeFiles({ 'contract.pdf': '%PDF-1.4 contract', 'second.txt': 'second', 'third.txt': 'third', 'held.txt': 'held back' });
    const submits = () => app.bridge.calls.filter((call) => call.channel === 'scans:submit');

    // 1. Cancel: nothing is queued, nothing reaches the service.
    await dropPaths(page, [files['contract.pdf']!]);
    const dialog = page.getByTestId('upload-dialog');
    await dialog.getByRole('heading', { name: `Send to ${host} for scanning?` }).waitFor();
    await dialog.getByText('1 item: contract.pdf').waitFor();
    await dialog.getByText(en['upload.notSent']).waitFor();
    await app.screenshot('upload-consent-dialog');
    await dialog.getByRole('button', { name: en['upload.cancel'] }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('notice-info').getByText(en['upload.cancelled']).waitFor();
    expect(submits()).toEqual([]);
    expect(remote.scanCount()).toBe(0);

    // 2. A scan the core held back (here: handed in without asking, as "opened with Verdict" is) waits, and is sent from its detail.
    const held = await real.core.submit([files['held.txt']!], { origin: 'second-instance' });
    if (!held.ok) throw new Error(held.error.message);
    const heldRow = rowFor(page, 'held.txt');
    await heldRow.getByText(en['pending.awaiting_upload_consent']).waitFor({ timeout: 30_000 });
    expect(remote.scanCount()).toBe(0);
    await heldRow.click();
    await page.getByTestId('awaiting-consent').getByRole('button', { name: `Send to ${host}…` }).click();
    await dialog.getByRole('button', { name: en['upload.send'] }).click();
    await heldRow.and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    expect(remote.scanCount()).toBe(1);

    // 3. Send with "don't ask again": queued with the consent, the host is remembered.
    await dropPaths(page, [files['second.txt']!]);
    await dialog.getByLabel(`Don’t ask again for ${host}`).check();
    await dialog.getByRole('button', { name: en['upload.send'] }).click();
    await rowFor(page, 'second.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    expect(submits().map((call) => call.args)).toEqual([[[files['second.txt']], { consent: origin }]]);
    const saved = await real.core.settings.get();
    expect(saved.ok && saved.value.remoteUploadConsentHosts).toEqual([origin]);
    expect((await recordFor(real, files['second.txt']!))?.backend).toBe(origin);

    // 4. The next drop goes without a question.
    await dropPaths(page, [files['third.txt']!]);
    await rowFor(page, 'third.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    expect(await dialog.count()).toBe(0);
    expect(remote.scanCount()).toBe(3);

    // Settings show what is sent and what is not, and the remembered host with "Ask again".
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const privacy = page.getByTestId('privacy-settings');
    await privacy.getByText(en['privacy.sentName']).waitFor();
    await privacy.getByText(en['privacy.notSentPath']).waitFor();
    await privacy.getByTestId('consent-hosts').getByText(host).waitFor();
    await privacy.getByRole('button', { name: `Ask again before sending files to ${host}` }).click();
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.remoteUploadConsentHosts;
    }).toEqual([]);
    await app.screenshot('privacy-settings');
    expectNoProblems(app);
  });

  it('a watched folder kept on the built-in engine: chosen in Settings, its files are scanned locally without asking', async () => {
    const remote = await startTestService(await mkdtemp(path.join(work(), 'remote-')));
    closeAfterTest(remote);
    const { real, app, page } = await start();
    const host = new URL(remote.url).host;
    expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: remote.url } })).ok).toBe(true);
    expect((await real.core.settings.setApiKey(remote.key)).ok).toBe(true);
    const files = await writeFiles({ 'payslip.pdf': '%PDF-1.4 payslip' });
    const folderPath = path.dirname(files['payslip.pdf']!);
    expect((await real.core.watch.add({ path: folderPath })).ok).toBe(true);
    await page.reload();
    await app.bridge.subscribed(2);

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const select = page.getByTestId('watched-folders').getByLabel(en['watch.backend']);
    await expect.poll(() => select.inputValue()).toBe('default');
    await page.getByTestId('watched-folders').getByRole('option', { name: `The remote service (${host})` }).waitFor({ state: 'attached' });
    await select.selectOption('local');
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.watchedFolders.map((folder) => folder.backend);
    }).toEqual(['local']);

    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await dropPaths(page, [files['payslip.pdf']!]);
    await rowFor(page, 'payslip.pdf').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('upload-dialog').count()).toBe(0);
    expect((await recordFor(real, files['payslip.pdf']!))?.backend).toBe('local');
    expect(remote.scanCount()).toBe(0);
    expectNoProblems(app);
  });
});

describe('files judged by basic checks only, once ClamAV scans', () => {
  it('"Scan again with ClamAV (1 file)" sends the file again; ClamAV\'s verdict names its engine and the button goes', async (context) => {
    const files = await writeFiles({ 'old-notes.txt': 'judged by basic checks only' });
    const file = files['old-notes.txt']!;
    const { real, page } = await start({
      // A verdict from a day when only the built-in engine was there.
      prepare: (dataDir) => {
        const history = openHistory(dataDir);
        const id = randomUUID();
        history.insert({
          ...queuedRecord({ id, path: file, fileName: 'old-notes.txt', origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: '2026-11-20T10:00:00.000Z' }),
          status: 'completed',
          safe: true,
          detailed: 'clean (basic checks only; ClamAV not available)',
          engine: { name: 'builtin', version: null, signatures: null },
          completedAt: '2026-11-20T10:00:01.000Z',
        });
        history.close();
      },
    });
    const view = await real.core.protection.status();
    if (!view.ok || view.value.status?.engine.name !== 'clamav') return context.skip('clamd is not installed');
    const offer = page.getByTestId('basic-only-rescan');
    await offer.getByRole('button', { name: 'Scan again with ClamAV (1 file)' }).click();
    await page.getByText('1 file queued again for ClamAV.').waitFor();
    await expect.poll(async () => {
      const listed = await real.core.scans.list({ statuses: ['completed'], order: 'newest', limit: 1 });
      return listed.ok ? listed.value.items[0]?.engine?.name : null;
    }, { timeout: 60_000 }).toBe('clamav');
    await rowFor(page, 'old-notes.txt').first().click();
    await expect.poll(() => page.getByTestId('detail-engine').textContent()).toMatch(/^ClamAV \d+\.\d+\.\d+ · signatures without a version/);
    await offer.waitFor({ state: 'detached' });
  });
});

describe('a file that waited for ClamAV in vain', () => {
  it('offers "Scan with basic checks only" with its explanation; pressed from the keyboard, the file is checked again', async () => {
    const files = await writeFiles({ 'waited.txt': 'waited for ClamAV in vain' });
    const file = files['waited.txt']!;
    const { app, real, page } = await start({
      prepare: (dataDir) => {
        const history = openHistory(dataDir);
        const id = randomUUID();
        history.insert({
          ...queuedRecord({ id, path: file, fileName: 'waited.txt', origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: '2026-11-20T10:00:00.000Z' }),
          status: 'failed',
          error: { code: 'clamav_unavailable', message: 'ClamAV did not answer within 600 s' },
          completedAt: '2026-11-20T10:10:00.000Z',
        });
        history.close();
      },
    });
    await rowFor(page, 'waited.txt').first().click();
    const choice = page.getByTestId('detail-panel').getByTestId('basic-checks-choice');
    await choice.waitFor();
    expect(await choice.textContent()).toContain(en['basicChecks.hint']);
    expect(en['basicChecks.hint']).toMatch(/only the EICAR test file/);
    const button = choice.getByRole('button', { name: en['basicChecks.action'] });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByText(en['basicChecks.started']).waitFor();
    await expect.poll(async () => {
      const listed = await real.core.scans.list({ search: 'waited.txt', statuses: ['completed'] });
      return listed.ok ? listed.value.items.map((record) => record.origin) : null;
    }, { timeout: 60_000 }).toEqual(['rescan']);
    expectNoProblems(app);
  });
});
