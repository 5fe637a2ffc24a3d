// Bad input through the real UI (production renderer in Chromium, real core,
// built-in engine): odd and hostile file names, an empty file, the 10 MB sync
// limit, a dropped folder with a link out of it, a file gone after it was queued,
// 10,000 files in one drop, a remote "service" that answers HTML, a non-ASCII API
// key and a settings file from a newer version. Each gets a clear state of its own
// in the list or the detail, and never disturbs the files next to it.
// (Pipes, sockets, devices, loops, broken links, unreadable and oversize files are
// in scans.test.ts; a damaged settings file in startup-and-export.test.ts.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { SETTINGS_VERSION } from '../../shared/settings/settings.ts';
import { MAX_SYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { en } from '../../renderer/i18n/en.ts';
import { keyringTestsCanRun } from '../support/keyring.ts';
import { dropPaths, expectNoProblems, recordFor, rowFor, useE2eApp } from './support/e2e-app.ts';
import type { AppHarness } from './support/app-harness.ts';
import type { RealCore } from './support/real-core.ts';

const canUseKeyring = keyringTestsCanRun();
// The built-in engine: nothing here needs clamd's signatures, and 10,000 files scan faster.
const { start, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-bad-input-', engine: false, keyring: canUseKeyring });

/** A new folder of this file's scratch space. */
const folder = (prefix: string) => mkdtemp(path.join(work(), prefix));
const queueCounts = async (page: Page) => (await page.getByTestId('queue-counts').locator('dd').allTextContents()).join(',');

/** Points the core at a remote service with no key, which holds the queue before any file is read (nothing is ever sent). */
async function holdQueueForKey(real: RealCore, app: AppHarness, page: Page): Promise<void> {
  expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: 'http://127.0.0.1:9' }, confirmRemoteUploads: false })).ok).toBe(true);
  await page.reload();
  await app.bridge.subscribed(2);
}

describe('file names', () => {
  it('scans odd names and shows each honestly: a bidi override is escaped and the real extension ends the name; RTL text, emoji, quotes, a newline, 255 bytes, 40 levels deep', async () => {
    const { real, app, page } = await start();
    const dir = await folder('names-');
    const deep = path.join(dir, ...Array.from({ length: 40 }, (_, i) => `level-${String(i + 1).padStart(2, '0')}`));
    await mkdir(deep, { recursive: true });
    const names = {
      disguised: 'invoice\u202Efdp.exe',
      spaces: 'quarterly report  final .txt',
      quotes: `say "hello" it's.txt`,
      newline: 'two\nlines.txt',
      emoji: 'holiday 🏖️ team 👩🏽‍💻.txt',
      hebrew: 'דוח שנתי.txt',
      arabic: 'تقرير مالي.txt',
      long: `${'n'.repeat(251)}.txt`,
    } as const;
    expect(Buffer.byteLength(names.long)).toBe(255);
    const files: string[] = [];
    for (const [key, name] of Object.entries(names)) {
      const file = path.join(dir, name);
      await writeFile(file, `harmless content of ${key}\n`);
      files.push(file);
    }
    const deepFile = path.join(deep, 'bottom.txt');
    await writeFile(deepFile, 'forty folders down\n');
    files.push(deepFile);

    app.pickNext(files);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await page.getByTestId('notice-info').getByText(`${files.length} files queued`).waitFor();

    // Every one is scanned, whatever its name (the core keeps the real name).
    const shown = {
      disguised: 'invoice⟨U+202E⟩fdp.exe',
      newline: 'two⟨U+000A⟩lines.txt',
    };
    for (const [key, name] of Object.entries(names)) {
      const row = rowFor(page, shown[key as keyof typeof shown] ?? name);
      await row.and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
      const record = await recordFor(real, path.join(dir, name));
      expect(record, key).toMatchObject({ status: 'completed', safe: true, fileName: name });
    }
    await rowFor(page, 'bottom.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });

    // The disguised name: the override is shown, so the row ends with the real extension.
    const disguised = rowFor(page, shown.disguised);
    const disguisedName = disguised.locator('.row__filename');
    expect(await disguisedName.textContent()).toBe(shown.disguised);
    expect((await disguisedName.textContent())?.endsWith('.exe')).toBe(true);
    expect(await disguised.textContent()).not.toContain('\u202E');
    expect(await disguised.locator('.row__name').getAttribute('title')).toBe(path.join(dir, shown.disguised));
    expect(await rowFor(page, shown.newline).locator('.row__filename').textContent()).toBe(shown.newline);

    // The detail: title and path escaped the same way; "Copy" copies the real path.
    await disguised.click();
    const detail = page.getByTestId('detail-panel');
    await expect.poll(() => detail.locator('#detail-title').textContent()).toBe(shown.disguised);
    expect(await detail.getByTestId('detail-path').textContent()).toBe(path.join(dir, shown.disguised));
    await detail.getByRole('button', { name: `Copy ${en['detail.path']}` }).click();
    await expect.poll(() => app.copied).toEqual([path.join(dir, names.disguised)]);
    await app.screenshot('bad-input-names');

    // Right-to-left names are text, not control characters: shown as they are, isolated from the row around them.
    for (const key of ['hebrew', 'arabic'] as const) {
      const name = rowFor(page, names[key]).locator('.row__filename');
      expect(await name.textContent(), key).toBe(names[key]);
      expect(await name.evaluate((element) => element.tagName), key).toBe('BDI');
      const style = await name.evaluate((element) => {
        const view = globalThis as unknown as { getComputedStyle(target: unknown): { unicodeBidi: string; direction: string } };
        const computed = view.getComputedStyle(element);
        return { unicodeBidi: computed.unicodeBidi, direction: computed.direction };
      });
      expect(style, key).toEqual({ unicodeBidi: 'isolate', direction: 'rtl' });
    }
    // Emoji, quotes, spaces and the 255-byte name are shown exactly.
    for (const key of ['emoji', 'quotes', 'spaces', 'long'] as const) {
      expect(await rowFor(page, names[key]).locator('.row__filename').textContent(), key).toBe(names[key]);
    }
    // The deep path is shown whole in the detail.
    await rowFor(page, 'bottom.txt').click();
    await expect.poll(() => detail.getByTestId('detail-path').textContent()).toBe(deepFile);
    expectNoProblems(app);
  });

  it('questions and notices name files as the list does: the restore conflict, "Restored to", and the upload question show a bidi override escaped', async () => {
    const { real, app, page } = await start();
    expect((await real.core.settings.update({ threatAction: 'quarantine' })).ok).toBe(true);
    const dir = await folder('named-');
    const threat = path.join(dir, 'invoice\u202Efdp.exe');
    await writeFile(threat, EICAR_TEST_STRING);
    await dropPaths(page, [threat]);
    const row = rowFor(page, 'invoice⟨U+202E⟩fdp.exe');
    await row.and(page.locator('[data-disposition=quarantined]')).waitFor({ timeout: 60_000 });

    // Its place is taken: the question names the original path escaped, and "Restored to" the new one.
    await writeFile(threat, 'a new file with the same name');
    const elsewhere = path.join(dir, 'restored\u202Efdp.exe');
    app.saveNext(elsewhere);
    await row.click();
    await page.getByTestId('threat-actions').getByRole('button', { name: en['threat.restore'], exact: true }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText(en['quarantine.conflictBody'].replace('{path}', path.join(dir, 'invoice⟨U+202E⟩fdp.exe')), { exact: true }).waitFor();
    expect(await confirm.textContent()).not.toContain('\u202E');
    await confirm.getByRole('button', { name: en['quarantine.chooseLocation'] }).click();
    await page.getByTestId('notice-info').getByText(`Restored to ${path.join(dir, 'restored⟨U+202E⟩fdp.exe')}`, { exact: true }).waitFor();
    // The file itself went where the user chose, under its real name.
    expect(await readFile(elsewhere, 'latin1')).toBe(EICAR_TEST_STRING);
    expect(app.saveRequests).toEqual(['invoice\u202Efdp.exe']);

    // The upload question for a remote service names the first file the same way.
    expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: 'https://scan.example.invalid' } })).ok).toBe(true);
    await page.reload();
    await app.bridge.subscribed(2);
    const letter = path.join(dir, 'letter\u2067fdp.exe');
    await writeFile(letter, 'dear service\n');
    await dropPaths(page, [letter]);
    const dialog = page.getByTestId('upload-dialog');
    await dialog.getByText('1 item: letter⟨U+2067⟩fdp.exe', { exact: true }).waitFor();
    expect(await dialog.textContent()).not.toContain('\u2067');
    await app.screenshot('bad-input-names-in-questions');
    await dialog.getByRole('button', { name: en['upload.cancel'] }).click();
    await page.getByTestId('notice-info').getByText(en['upload.cancelled']).waitFor();
    expectNoProblems(app);
  });
});

describe('sizes', () => {
  it('in sync mode (set in Settings): an empty file and one of exactly 10 MB are scanned sync; 10 MB + 1 byte goes async, and the detail says why', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.locator('section[aria-labelledby=general-title]').getByLabel(en['settings.mode']).selectOption('sync');
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.mode;
    }).toBe('sync');
    await page.getByRole('button', { name: en['nav.scans'] }).click();

    const dir = await folder('sizes-');
    const at = (name: string) => path.join(dir, name);
    await writeFile(at('empty.txt'), '');
    // Sparse files: the sizes are exact without writing 20 MB.
    await writeFile(at('exactly-10mb.bin'), '');
    await truncate(at('exactly-10mb.bin'), MAX_SYNC_FILE_SIZE);
    await writeFile(at('10mb-plus-one.bin'), '');
    await truncate(at('10mb-plus-one.bin'), MAX_SYNC_FILE_SIZE + 1);
    await writeFile(at('small.txt'), 'small and ordinary\n');
    const files = ['empty.txt', 'exactly-10mb.bin', '10mb-plus-one.bin', 'small.txt'].map(at);
    await dropPaths(page, files);

    for (const file of files) await rowFor(page, path.basename(file)).and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    expect(await recordFor(real, at('empty.txt'))).toMatchObject({ status: 'completed', safe: true, size: 0, mode: 'sync' });
    expect(await recordFor(real, at('exactly-10mb.bin'))).toMatchObject({ status: 'completed', safe: true, size: MAX_SYNC_FILE_SIZE, mode: 'sync' });
    // README: files over 10 MB always go async, whatever the mode says.
    expect(await recordFor(real, at('10mb-plus-one.bin'))).toMatchObject({ status: 'completed', safe: true, size: MAX_SYNC_FILE_SIZE + 1, mode: 'async' });
    expect(await rowFor(page, 'empty.txt').locator('.row__size').textContent()).toBe('0 B');

    const detail = page.getByTestId('detail-panel');
    await rowFor(page, '10mb-plus-one.bin').click();
    await expect.poll(() => detail.getByTestId('detail-mode').textContent()).toBe(`${en['mode.async']} (${en['detail.asyncOverSyncLimit']})`);
    await rowFor(page, 'exactly-10mb.bin').click();
    await expect.poll(() => detail.getByTestId('detail-mode').textContent()).toBe(en['mode.sync']);
    await rowFor(page, 'empty.txt').click();
    await expect.poll(() => detail.getByTestId('detail-mode').textContent()).toBe(en['mode.sync']);
    // Which engine made the verdict (issue 14): the built-in one here.
    expect(await detail.getByTestId('detail-engine').textContent()).toBe(en['detail.engine.builtin']);
    expectNoProblems(app);
  });
});

describe('folders, links and files that go away', () => {
  it('a dropped folder is scanned file by file; a link in it to a file outside is not followed: a skipped row that says where it leads', async () => {
    const { real, app, page } = await start();
    const outside = await folder('outside-');
    const target = path.join(outside, 'payload.com');
    await writeFile(target, EICAR_TEST_STRING);
    const dropped = path.join(await folder('dropped-'), 'Downloads');
    await mkdir(path.join(dropped, 'sub'), { recursive: true });
    await writeFile(path.join(dropped, 'top.txt'), 'at the top\n');
    await writeFile(path.join(dropped, 'sub', 'nested.txt'), 'one level down\n');
    const linkPath = path.join(dropped, 'innocent-link.txt');
    await symlink(target, linkPath);

    await dropPaths(page, [dropped]);
    // Not "skipped by your exclusions": no setting left it out.
    await page.getByTestId('notice-info').getByText('2 queued, 1 skipped: 1 link leads out of the folder you chose and was not followed.').waitFor();
    await rowFor(page, 'top.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    await rowFor(page, 'nested.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    // The link is listed as skipped under its own name; what it leads to was never read or judged.
    const link = rowFor(page, 'innocent-link.txt');
    await link.and(page.locator('[data-verdict=skipped]')).waitFor({ timeout: 60_000 });
    expect(await link.locator('.row__status').textContent()).toBe(en['status.skipped']);
    const sentence = `Not scanned: ${linkPath} is a symbolic link to ${target}, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.`;
    expect(await recordFor(real, linkPath)).toMatchObject({
      status: 'skipped',
      safe: null,
      sha256: null,
      serviceScanId: null,
      error: { code: 'link_outside', message: sentence, params: { path: linkPath, target, folder: dropped } },
    });
    // The target itself is not listed apart (it was not dropped).
    expect(await rowFor(page, 'payload.com').count()).toBe(0);
    expect(await page.locator('.row[data-scan-id]').count()).toBe(3);

    // The detail says why, and what to do instead; no "Scan anyway" (that is for the user's own exclusions).
    await link.click();
    await expect.poll(() => page.getByTestId('detail-path').textContent()).toBe(linkPath);
    const reason = page.getByTestId('detail-panel').getByTestId('link-outside');
    await reason.getByText(en['detail.linkOutsideTitle']).waitFor();
    expect(await reason.getByTestId('skip-reason').textContent()).toBe(sentence);
    expect(await reason.getByRole('button').count()).toBe(0);
    expectNoProblems(app);
  });

  it('a file deleted after it was queued (the queue held for a key) fails as gone; the other file of the drop is scanned', async () => {
    const { real, app, page } = await start();
    await holdQueueForKey(real, app, page);
    const dir = await folder('vanish-');
    const stays = path.join(dir, 'stays.txt');
    const goes = path.join(dir, 'goes.txt');
    await writeFile(stays, 'I stay\n');
    await writeFile(goes, 'I go\n');
    await dropPaths(page, [stays, goes]);
    for (const name of ['stays.txt', 'goes.txt']) await rowFor(page, name).getByText(en['pending.awaiting_api_key']).waitFor({ timeout: 30_000 });
    expect((await recordFor(real, goes))?.sha256).toBeNull();

    await rm(goes);
    // Back to the built-in engine in Settings: the held files go on.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['settings.backend.local']).check();
    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await rowFor(page, 'stays.txt').and(page.locator('[data-verdict=basic-only]')).waitFor({ timeout: 60_000 });
    const gone = rowFor(page, 'goes.txt');
    await gone.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 60_000 });
    await gone.click();
    const failure = page.getByTestId('detail-panel').getByTestId('failure');
    await expect.poll(() => failure.getAttribute('data-failure-kind')).toBe('vanished');
    expect(await failure.getByTestId('failure-reason').textContent()).toBe(en['failure.vanished.reason']);
    expect(await failure.textContent()).toContain('The file is no longer there');
    expect(await recordFor(real, goes)).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expectNoProblems(app);
  });
});

describe('many files at once', () => {
  it('10,000 files dropped at once: the queue counts show the work, Settings still opens while it waits, and every file reaches a verdict', async () => {
    const { real, app, page } = await start();
    // Held, so the work is still there when Settings opens however fast the engine is (the local engine takes it over below).
    await holdQueueForKey(real, app, page);
    const dir = await folder('many-');
    const files = Array.from({ length: 10_000 }, (_, i) => path.join(dir, `file-${String(i).padStart(5, '0')}.txt`));
    for (let i = 0; i < files.length; i += 500) await Promise.all(files.slice(i, i + 500).map((file, j) => writeFile(file, `file number ${i + j}\n`)));

    await dropPaths(page, files);
    await page.getByTestId('notice-info').getByText('10,000 files queued').waitFor({ timeout: 60_000 });
    // The counts show work in progress.
    await expect.poll(async () => (await queueCounts(page)) !== '0,0,0', { timeout: 30_000 }).toBe(true);

    // The UI answers while the files are scanned: Settings opens and shows its content, and the counts stay in view.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByTestId('settings-view').getByRole('heading', { name: en['settings.general'] }).waitFor();
    expect(await page.getByTestId('queue-counts').isVisible()).toBe(true);
    // …while all the files still wait.
    const during = await real.core.scans.counts();
    expect(during.ok && during.value.queued).toBe(10_000);
    // Back to the built-in engine in Settings: the held files go on.
    await page.getByLabel(en['settings.backend.local']).check();
    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await page.getByRole('button', { name: en['drop.addFiles'] }).waitFor();

    await expect.poll(() => queueCounts(page), { timeout: 110_000, interval: 1000 }).toBe('0,0,0');
    const list = await real.core.scans.list({ limit: 1 });
    expect(list.ok && list.value.total).toBe(10_000);
    // The built-in engine (engine: false): every one judged, each by basic checks only.
    const safe = await real.core.scans.list({ limit: 1, verdicts: ['basic-only'] });
    expect(safe.ok && safe.value.total).toBe(10_000);
    await page.getByText('10,000 scans').waitFor();
    expectNoProblems(app);
  }, 180_000);
});

describe('a remote service that is not one', () => {
  /** A loopback server answering every request with an HTML page (a router's login, a captive portal). */
  async function htmlServer(): Promise<string> {
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Router login</title><form>password: <input></form>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeAfterTest({ close: () => new Promise((resolve) => server.close(resolve)) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Types a remote address in Settings and applies it; the key can be typed at once (the section keeps it while the address is saved). */
  async function applyServiceAddress(page: Page, url: string): Promise<void> {
    await page.getByLabel(en['settings.baseUrl']).fill(url);
    await page.getByRole('button', { name: en['settings.apply'] }).click();
  }

  /** The remote address the core has saved. */
  const savedAddress = async (real: RealCore) => {
    const settings = await real.core.settings.get();
    return settings.ok && settings.value.backend.kind === 'remote' ? settings.value.backend.baseUrl : null;
  };

  it.runIf(canUseKeyring)('an address that answers HTML: "Test connection" and the scan both say it did not answer like a File Scanning Service', async () => {
    const url = await htmlServer();
    // Short retries: the scan gives up on the unusable answers within the test.
    const { real, app, page } = await start({ tuning: { retryBaseMs: 50, retryMaxMs: 300, clientRetry: { baseDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000 } } });
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['settings.backend.remote']).check();
    await applyServiceAddress(page, url);
    await page.getByTestId('api-key-input').fill('vk_e2e_html_0123456789abcdef');
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    // Stored for the address just applied: the key waited for it to be saved.
    await expect.poll(async () => {
      const status = await real.core.settings.keyStatus();
      return status.ok && status.value.isSet;
    }).toBe(true);
    expect(await savedAddress(real)).toBe(url);

    await page.getByRole('button', { name: en['settings.test'] }).click();
    const report = page.getByTestId('connection-report');
    await expect.poll(() => report.locator('strong').textContent(), { timeout: 30_000 }).toBe(en['settings.testNotService']);
    expect(await report.textContent()).toMatch(/not JSON \(text\/html\)/);
    await app.screenshot('bad-input-html-service');

    await page.getByRole('button', { name: en['nav.scans'] }).click();
    const dir = await folder('html-');
    const file = path.join(dir, 'letter.txt');
    await writeFile(file, 'dear service\n');
    await dropPaths(page, [file]);
    await page.getByTestId('upload-dialog').getByRole('button', { name: en['upload.send'] }).click();
    const row = rowFor(page, 'letter.txt');
    await row.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 60_000 });
    await row.click();
    const failure = page.getByTestId('detail-panel').getByTestId('failure');
    await expect.poll(() => failure.getAttribute('data-failure-kind')).toBe('notService');
    expect(await failure.getByTestId('failure-reason').textContent()).toBe(en['failure.notService.reason']);
    expect(await failure.textContent()).toMatch(/not JSON \(text\/html\)/);
    expect(await recordFor(real, file)).toMatchObject({ status: 'failed', safe: null, error: { code: 'malformed_response' } });
    expectNoProblems(app);
  });

  it('an API key with non-ASCII characters is named next to its field and not saved', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['settings.backend.remote']).check();
    await applyServiceAddress(page, 'https://scan.example.invalid');
    const field = page.getByTestId('api-key-input');
    await field.fill('vk_schlüssel_0123456789');
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    expect(await page.getByTestId('api-key-error').textContent()).toBe(en['settings.apiKey.non_ascii'].replace('{position}', '8'));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => savedAddress(real)).toBe('https://scan.example.invalid');
    // The refused key is still in its field to be corrected (the saved address did not rebuild the form), and was not stored.
    expect(await field.inputValue()).toBe('vk_schlüssel_0123456789');
    expect(await real.core.settings.keyStatus()).toMatchObject({ ok: true, value: { isSet: false } });
    expectNoProblems(app);
  });
});

describe('a settings file from a newer Verdict', () => {
  it('the start-up banner says it is used read-only, and a change is refused without touching the file', async () => {
    const future = JSON.stringify({ version: SETTINGS_VERSION + 1, language: 'en', mode: 'async', aFieldFromTheFuture: true });
    let settingsFile = '';
    const { real, app, page } = await start({
      prepare: async (dataDir) => {
        settingsFile = path.join(dataDir, 'settings.json');
        await writeFile(settingsFile, future);
      },
    });
    expect(real.core.startupWarnings.map((warning) => warning.code)).toEqual(['settings_future_version']);
    const banner = page.getByTestId('startup-warnings');
    expect(await banner.locator('li[data-code=settings_future_version]').textContent()).toBe(en['startup.settings_future_version']);
    // Known fields are used.
    const settings = await real.core.settings.get();
    expect(settings.ok && settings.value.mode).toBe('async');

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.locator('section[aria-labelledby=general-title]').getByLabel(en['settings.mode']).selectOption('sync');
    await page.getByTestId('notice-error').getByText(/Settings cannot be saved: .*newer version of Verdict.*read-only/).waitFor();
    // The form shows what is in use, not the refused choice; the file is untouched.
    await expect.poll(() => page.locator('section[aria-labelledby=general-title]').getByLabel(en['settings.mode']).inputValue()).toBe('async');
    expect(await readFile(settingsFile, 'utf8')).toBe(future);
    await app.screenshot('bad-input-future-settings');
    expectNoProblems(app);
  });
});
