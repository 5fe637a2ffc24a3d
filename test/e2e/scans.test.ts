// The renderer, built for production, in Debian's Chromium against the real
// core (createCore with the embedded local service and a real clamd) through
// the test bridge: scanning, a threat, failures, German, watched folders.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';
import { verdictOf } from '../../shared/scans/record.ts';
import { MB } from '../../shared/service-contract/limits.ts';
import { en } from '../../renderer/i18n/en.ts';
import { de } from '../../renderer/i18n/de.ts';
import { unreadableFile } from '../support/unreadable-file.ts';
import { contrastOf } from './support/app-harness.ts';
import { expectNoProblems, recordFor, rowFor, useE2eApp } from './support/e2e-app.ts';

const { start, writeFiles, work } = useE2eApp({ prefix: 'verdict-e2e-files-', engine: true });

describe('scanning from the main view', () => {
  it('adds files with the dialog and shows them go from queued to a verdict; EICAR is an unmistakable threat', async () => {
    // A scan delay keeps each scan in flight long enough to see it pending in the UI.
    const { real, app, page } = await start({ localService: { scanDelayMs: 1500 } });
    const files = await writeFiles({ 'report.txt': 'quarterly numbers, nothing to see', 'eicar.com': EICAR_TEST_STRING });

    // Everything the UI shows comes from events; record the statuses each row passes through.
    await page.evaluate(`(() => {
      const seen = (window.__statuses = {});
      new MutationObserver(() => {
        for (const row of document.querySelectorAll('.row[data-scan-id]')) {
          const name = row.querySelector('.row__filename')?.textContent ?? '';
          const list = (seen[name] ??= []);
          if (list.at(-1) !== row.dataset.status) list.push(row.dataset.status);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    })()`);

    await page.getByText(en['list.empty']).waitFor();
    app.pickNext([files['report.txt']!, files['eicar.com']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();

    const clean = rowFor(app.page, 'report.txt');
    const threat = rowFor(app.page, 'eicar.com');
    // While the engine works, the rows are pending: a neutral "Scanning" badge, never a verdict.
    await threat.and(page.locator('[data-verdict=pending]')).waitFor();
    expect(await threat.locator('.badge').textContent()).toBe(en['verdict.pending']);

    await clean.and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    await threat.and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 60_000 });

    const statuses = await page.evaluate<Record<string, string[]>>('window.__statuses');
    for (const name of ['report.txt', 'eicar.com']) {
      expect(statuses[name]?.at(-1)).toBe('completed');
      expect(statuses[name]?.slice(0, -1).every((status) => ['queued', 'uploading', 'processing'].includes(status))).toBe(true);
      expect(statuses[name]!.length).toBeGreaterThan(1);
    }

    // The clean file reads clean; the threat has colour, an icon and a word.
    expect(await clean.locator('.badge').textContent()).toBe(en['verdict.safe']);
    const badge = threat.locator('.badge');
    expect(await badge.textContent()).toBe(en['verdict.unsafe']);
    expect(await badge.locator('svg').count()).toBe(1);
    expect(await threat.getAttribute('class')).toContain('row--unsafe');
    const banner = page.getByTestId('threat-banner');
    await banner.getByText('1 threat found').waitFor();
    expect(await banner.getAttribute('role')).toBe('alert');

    // The UI's reading agrees with the core's record, decided by the shared verdictOf().
    const record = await recordFor(real, files['eicar.com']!);
    expect(record && verdictOf(record)).toBe('unsafe');
    expect(record?.findings.map((finding) => finding.name).join(' ')).toMatch(/Eicar/i);
    expect(await threat.getAttribute('data-scan-id')).toBe(record?.id);
    await app.screenshot('main-view');
    // Badge text is readable: at least WCAG AA (4.5:1) against the badge's own colour.
    for (const verdict of ['unsafe', 'safe']) expect(await contrastOf(page, `.row .badge--${verdict}`), verdict).toBeGreaterThanOrEqual(4.5);

    // Queue counts return to zero when everything is done.
    const counts = page.getByTestId('queue-counts');
    await expect.poll(async () => (await counts.locator('dd').allTextContents()).join(','), { timeout: 10_000 }).toBe('0,0,0');

    // The detail panel of the threat: what it is, what to do, its hashes (copyable).
    await threat.click();
    const detail = page.getByTestId('detail-panel');
    await detail.getByText(en['detail.unsafeTitle']).waitFor();
    await detail.getByText(/Eicar/i).first().waitFor();
    const sha256 = createHash('sha256').update(await readFile(files['eicar.com']!)).digest('hex');
    await detail.getByText(sha256).waitFor();
    await detail.getByRole('button', { name: 'Copy SHA-256' }).click();
    await expect.poll(() => app.copied).toEqual([sha256]);
    await detail.getByRole('button', { name: en['detail.reveal'] }).click();
    await expect.poll(() => app.revealed).toEqual([files['eicar.com']]);
    await app.screenshot('threat-detail');

    // Keyboard: the list is one Tab stop; arrows move, Enter opens, Escape closes.
    await page.getByTestId('scan-list').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    const first = await page.locator('.row[data-index="0"] .row__filename').textContent();
    expect(await detail.locator('#detail-title').textContent()).toBe(first);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const second = await page.locator('.row[data-index="1"] .row__filename').textContent();
    expect(await detail.locator('#detail-title').textContent()).toBe(second);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    // "Scan again" queues the same file once more: a new row appears with a fresh verdict.
    await threat.click();
    await detail.getByRole('button', { name: en['detail.rescan'] }).click();
    await expect.poll(() => rowFor(app.page, 'eicar.com').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.locator('.row[data-verdict=unsafe]').count(), { timeout: 60_000 }).toBe(2);
    await banner.getByText('2 threats found').waitFor();

    // "Show threats" filters the list to the threats.
    await banner.getByRole('button', { name: en['threats.show'] }).click();
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(2);
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    expectNoProblems(app);
  });

  it('scans files dropped on the drop zone (each File becomes a path through files.pathFor)', async () => {
    const { app, page } = await start();
    const files = await writeFiles({ 'dropped.txt': 'dragged from the file manager' });
    // A browser File has no path: the bridge's pathFor answers from the test's map, as webUtils would.
    await page.evaluate(`window.__verdictTestBridge.setPath('dropped.txt', ${JSON.stringify(files['dropped.txt'])})`);
    const dataTransfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dragged from the file manager'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    })()`);
    const zone = page.getByTestId('dropzone');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.getByText(en['drop.active']).waitFor();
    await zone.dispatchEvent('drop', { dataTransfer });
    await rowFor(app.page, 'dropped.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    const submitted = app.bridge.calls.filter((call) => call.channel === 'scans:submit').map((call) => call.args[0]);
    expect(submitted).toEqual([[files['dropped.txt']]]);
    expectNoProblems(app);
  });

  it('computes MD5 and SHA-1 on request for a file still as scanned, and says so when one has changed', async () => {
    const { app, page } = await start();
    const files = await writeFiles({ 'kept.txt': 'still as it was scanned', 'edited.txt': 'first draft' });
    app.pickNext([files['kept.txt']!, files['edited.txt']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await rowFor(page, 'kept.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    await rowFor(page, 'edited.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    const detail = page.getByTestId('detail-panel');

    await rowFor(page, 'kept.txt').click();
    await detail.getByRole('button', { name: en['digests.compute'] }).click();
    const computed = detail.getByTestId('digests-computed');
    await computed.waitFor();
    const md5 = createHash('md5').update('still as it was scanned').digest('hex');
    const sha1 = createHash('sha1').update('still as it was scanned').digest('hex');
    expect(await computed.textContent()).toBe(`MD5${md5}SHA-1${sha1}`);

    await writeFile(files['edited.txt']!, 'second version!');
    await rowFor(page, 'edited.txt').click();
    await detail.getByRole('button', { name: en['digests.compute'] }).click();
    await detail.getByRole('alert').filter({ hasText: en['digests.problem.file_changed'] }).waitFor();
    expect(await detail.getByTestId('digests-computed').count()).toBe(0);
    expect(app.bridge.calls.filter((call) => call.channel === 'scans:digests').length).toBe(2);
    expectNoProblems(app);
  });

  it('shows why a scan failed and what to do next, and never as clean', async () => {
    const { real, app, page } = await start();
    const files = await writeFiles({ 'vanished.txt': 'soon gone', 'huge.iso': '' });
    await rm(files['vanished.txt']!);
    // A sparse file over the 100 MB limit: refused before anything is read or sent.
    await truncate(files['huge.iso']!, 101 * MB);

    app.pickNext([files['vanished.txt']!, files['huge.iso']!]);
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    const vanished = rowFor(app.page, 'vanished.txt');
    const huge = rowFor(app.page, 'huge.iso');
    await vanished.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 30_000 });
    await huge.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 30_000 });
    for (const row of [vanished, huge]) {
      expect(await row.locator('.badge').textContent()).toBe(en['verdict.could-not-scan']);
      expect(await row.getAttribute('data-status')).toBe('failed');
    }
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    expect(await page.getByTestId('threat-banner').count()).toBe(0);
    expect((await recordFor(real, files['vanished.txt']!))?.error?.code).toBe('not_found');

    await vanished.click();
    const detail = page.getByTestId('detail-panel');
    const failure = detail.getByTestId('failure');
    expect(await failure.getAttribute('data-failure-kind')).toBe('vanished');
    expect(await failure.getByTestId('failure-reason').textContent()).toBe(en['failure.vanished.reason']);
    expect(await failure.getByTestId('failure-next').textContent()).toBe(en['failure.vanished.next']);
    await app.screenshot('failed-detail');
    expect(await contrastOf(page, '.row .badge--could-not-scan')).toBeGreaterThanOrEqual(4.5);

    await huge.click();
    await expect.poll(() => failure.getAttribute('data-failure-kind')).toBe('tooLarge');
    expect(await failure.getByTestId('failure-next').textContent()).toBe(en['failure.tooLarge.next']);

    // The status filter asks the core for failed scans only.
    await page.getByLabel(en['filter.status']).selectOption('failed');
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(2);
    await page.getByLabel(en['filter.status']).selectOption('completed');
    await page.getByText(en['list.emptyFiltered']).waitFor();
    expectNoProblems(app);
  });

  it('names each kind of bad input in the list and the detail: pipe, socket, device, symlink loop, broken link, unreadable', async () => {
    const { real, app, page } = await start();
    const dir = await mkdtemp(path.join(work(), 'bad-'));
    const at = (name: string) => path.join(dir, name);
    execFileSync('mkfifo', [at('a-pipe')]);
    const socket = createNetServer();
    await new Promise<void>((resolve) => socket.listen(at('a-socket'), resolve));
    try {
      await symlink(at('loop-b'), at('loop-a'));
      await symlink(at('loop-a'), at('loop-b'));
      await symlink(at('nowhere.txt'), at('broken-link'));
      await writeFile(at('good.txt'), 'a good file next to the bad ones\n');
      const writeOnly = await unreadableFile();
      const cases: Array<[file: string, name: string, kind: string, says: RegExp]> = [
        [at('a-pipe'), 'a-pipe', 'notRegular', /pipe|fifo/i],
        [at('a-socket'), 'a-socket', 'notRegular', /socket/i],
        ['/dev/null', 'null', 'notRegular', /device/i],
        [at('loop-a'), 'loop-a', 'notRegular', /loop|links/i],
        [at('broken-link'), 'broken-link', 'vanished', /nowhere/],
        ...(writeOnly !== null ? [[writeOnly, 'drop_caches', 'unreadable', /drop_caches/] as [string, string, string, RegExp]] : []),
      ];

      app.pickNext([...cases.map(([file]) => file), at('good.txt')]);
      await page.getByRole('button', { name: en['drop.addFiles'] }).click();
      // The notice counts the refused paths (and stays, as an error) instead of "1 file queued".
      const notice = page.getByTestId('notice-error');
      await expect.poll(() => notice.textContent()).toContain(`1 queued, 0 skipped, ${cases.length} could not be scanned`);
      await rowFor(app.page, 'good.txt').and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 30_000 });
      const detail = page.getByTestId('detail-panel');
      for (const [file, name, kind, says] of cases) {
        const row = rowFor(app.page, name);
        await row.and(page.locator('[data-verdict=could-not-scan]')).waitFor({ timeout: 30_000 });
        expect(await row.locator('.badge').textContent(), name).toBe(en['verdict.could-not-scan']);
        await row.click();
        const failure = detail.getByTestId('failure');
        await expect.poll(() => failure.getAttribute('data-failure-kind'), { message: name }).toBe(kind);
        // The specific cause from the core, next to the general reason and the next step.
        const record = await recordFor(real, file);
        expect(record?.error?.message, name).toMatch(says);
        expect(await failure.textContent(), name).toContain(record!.error!.message);
      }
      expect(await page.locator('.row[data-verdict=safe]').count()).toBe(1);
      await app.screenshot('bad-input');
      expectNoProblems(app);
    } finally {
      await new Promise((resolve) => socket.close(resolve));
    }
  });
});

describe('settings', () => {
  it('Malware engine › which clamd: a named address is checked with its problem said, then kept by the core', async () => {
    const { real, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const choice = page.getByTestId('clamd-choice');
    await choice.waitFor();
    expect(await choice.getByRole('radio', { name: en['clamd.choice.auto'] }).isChecked()).toBe(true);
    await choice.getByRole('radio', { name: en['clamd.choice.address'] }).check();
    const field = choice.getByRole('textbox', { name: en['clamd.address'] });
    await field.fill('tcp:clamav:0');
    await choice.getByRole('button', { name: en['clamd.address.apply'] }).click();
    const problem = choice.getByRole('alert');
    expect(await problem.textContent()).toBe(en['clamd.problem.bad_port'].replace('{port}', '0'));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('tcp:127.0.0.1:3310');
    await choice.getByRole('button', { name: en['clamd.address.apply'] }).click();
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok ? settings.value.clamd : null;
    }).toEqual({ kind: 'address', address: 'tcp:127.0.0.1:3310' });
    expect(await problem.count()).toBe(0);
    await choice.getByRole('radio', { name: en['clamd.choice.own'] }).check();
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok ? settings.value.clamd : null;
    }).toEqual({ kind: 'own' });
  });

  it('switches the UI to German, and the core keeps the choice', async () => {
    const { real, app, page } = await start();
    const files = await writeFiles({ 'rechnung.pdf': '%PDF-1.4 harmless', 'eicar.txt': EICAR_TEST_STRING });
    app.pickNext(Object.values(files));
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await page.locator('.row[data-verdict=unsafe]').waitFor({ timeout: 60_000 });
    await page.locator('.row[data-verdict=safe]').waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByTestId('settings-view').waitFor();
    await page.getByTestId('language-select').selectOption('de');

    await page.getByRole('button', { name: de['nav.scans'] }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.getByRole('heading', { name: de['settings.general'] }).waitFor();
    const saved = await real.core.settings.get();
    expect(saved.ok && saved.value.language).toBe('de');

    await page.getByRole('button', { name: de['nav.scans'] }).click();
    await page.getByRole('button', { name: de['drop.addFiles'] }).waitFor();
    expect(await page.locator('.row[data-verdict=unsafe] .badge').textContent()).toBe(de['verdict.unsafe']);
    expect(await page.locator('.row[data-verdict=safe] .badge').textContent()).toBe(de['verdict.safe']);
    await page.getByTestId('threat-banner').getByText('1 Bedrohung gefunden').waitFor();
    await page.locator('.row[data-verdict=unsafe]').click();
    await page.getByTestId('detail-panel').getByText(de['detail.unsafeTitle']).waitFor();
    await app.screenshot('german-ui');

    // A reload starts from the core's settings: still German.
    await page.reload();
    await app.bridge.subscribed(2);
    await page.getByRole('button', { name: de['drop.addFiles'] }).waitFor();
    expectNoProblems(app);
  });

  it('configures a remote service; the API key leaves the page once saved and is never shown', async () => {
    const { real, app, page } = await start();
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['settings.backend.remote']).check();
    // Each bad address is named for what is wrong with it, and nothing is saved.
    for (const [address, key] of [
      ['ftp://scan.example.invalid', 'settings.baseUrl.not_http'],
      ['https://admin:pw_E2E_CANARY_31@scan.example.invalid', 'settings.baseUrl.credentials'],
      ['scan.example.invalid', 'settings.baseUrl.not_a_url'],
    ] as const) {
      await page.getByLabel(en['settings.baseUrl']).fill(address);
      await page.getByRole('button', { name: en['settings.apply'] }).click();
      await page.getByRole('alert').getByText(en[key]).waitFor();
    }
    expect(await real.core.settings.get()).toMatchObject({ ok: true, value: { backend: { kind: 'local' } } });
    await page.getByLabel(en['settings.baseUrl']).fill('https://scan.example.invalid');
    await page.getByRole('button', { name: en['settings.apply'] }).click();
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.backend;
    }).toEqual({ kind: 'remote', baseUrl: 'https://scan.example.invalid' });

    const key = 'vk_e2e_5ecret_0123456789abcdef';
    const field = page.getByTestId('api-key-input');
    expect(await field.getAttribute('type')).toBe('password');
    // A key pasted with a space in it: named (where), in the field's alert, and not stored.
    await field.fill('vk_e2e_5ecret 0123456789abcdef');
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    expect(await page.getByTestId('api-key-error').textContent()).toBe(en['settings.apiKey.whitespace'].replace('{position}', '14'));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await real.core.settings.keyStatus()).toMatchObject({ ok: true, value: { isSet: false } });
    await field.fill(key);
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    await expect.poll(() => field.inputValue()).toBe('');
    // Stored in the keychain (masked status), or the keychain's error is shown; never the key.
    const status = await real.core.settings.keyStatus();
    if (!status.ok) throw new Error(status.error.message);
    if (status.value.keychainError) await page.getByText(status.value.keychainError, { exact: false }).first().waitFor();
    else await page.getByTestId('api-key-status').getByText(status.value.masked ?? '-').waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await page.content()).not.toContain(key.slice(0, 12));
    expect(await page.content()).not.toContain('pw_E2E_CANARY_31');

    // An unreachable service is reported as such.
    await page.getByRole('button', { name: en['settings.test'] }).click();
    await page.getByTestId('connection-report').locator('strong').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('connection-report').locator('strong').textContent()).not.toMatch(/Connected and authorized/);

    await page.getByLabel(en['settings.backend.local']).check();
    await expect.poll(async () => {
      const settings = await real.core.settings.get();
      return settings.ok && settings.value.backend.kind;
    }).toBe('local');
    expectNoProblems(app);
  });

  it('an API key typed right after Apply is kept while the address is saved, and is saved for that address', async () => {
    const { real, app, page } = await start();
    const settingsApi = real.core.settings;
    // Each address save reaches the core and waits there until released: the key is typed while it is under way.
    const update = settingsApi.update.bind(settingsApi);
    let release = (): void => undefined;
    settingsApi.update = async (patch) => {
      await new Promise<void>((resolve) => (release = resolve));
      return update(patch);
    };
    // Which remote address the core had when each key arrived.
    const keysFor: Array<{ key: string; baseUrl: string | null }> = [];
    const setApiKey = settingsApi.setApiKey.bind(settingsApi);
    settingsApi.setApiKey = async (key) => {
      const settings = await settingsApi.get();
      keysFor.push({ key, baseUrl: settings.ok && settings.value.backend.kind === 'remote' ? settings.value.backend.baseUrl : null });
      return setApiKey(key);
    };
    const updates = () => app.bridge.calls.filter((call) => call.channel === 'settings:update').length;
    const field = page.getByTestId('api-key-input');
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await page.getByLabel(en['settings.backend.remote']).check();

    // 1. Typed while the address is saved: when the answer arrives and the page shows the new address, the key is still in its field.
    await page.getByLabel(en['settings.baseUrl']).fill('https://one.example.invalid');
    await page.getByRole('button', { name: en['settings.apply'] }).click();
    await expect.poll(updates).toBe(1);
    await field.fill('vk_e2e_first_0123456789abcdef');
    release();
    await page.getByTestId('privacy-settings').getByText(en['privacy.remoteNow'].replace('{host}', 'one.example.invalid')).waitFor();
    expect(await field.inputValue()).toBe('vk_e2e_first_0123456789abcdef');
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    await expect.poll(() => keysFor).toEqual([{ key: 'vk_e2e_first_0123456789abcdef', baseUrl: 'https://one.example.invalid' }]);

    // 2. Saved before the address is: the key waits for it and goes to the new service, not the one before.
    await page.getByLabel(en['settings.baseUrl']).fill('https://two.example.invalid');
    await page.getByRole('button', { name: en['settings.apply'] }).click();
    await expect.poll(updates).toBe(2);
    await field.fill('vk_e2e_second_0123456789abcdef');
    await page.getByRole('button', { name: en['settings.apiKeySave'], exact: true }).click();
    await expect.poll(() => field.inputValue()).toBe('');
    release();
    await expect.poll(() => keysFor.length).toBe(2);
    expect(keysFor[1]).toEqual({ key: 'vk_e2e_second_0123456789abcdef', baseUrl: 'https://two.example.invalid' });
    expect(await page.getByLabel(en['settings.baseUrl']).inputValue()).toBe('https://two.example.invalid');
    expectNoProblems(app);
  });

  it('follows the dark colour scheme', async () => {
    const { app, page } = await start({}, 'dark');
    const files = await writeFiles({ 'notes.md': '# notes', 'eicar.bin': EICAR_TEST_STRING });
    app.pickNext(Object.values(files));
    await page.getByRole('button', { name: en['drop.addFiles'] }).click();
    await page.locator('.row[data-verdict=unsafe]').waitFor({ timeout: 60_000 });
    await page.locator('.row[data-verdict=safe]').waitFor({ timeout: 60_000 });
    await page.locator('.row[data-verdict=unsafe]').click();
    // The page really is dark: the body background comes from the dark palette.
    const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(15, 19, 24)');
    await app.screenshot('main-view-dark');
    for (const verdict of ['unsafe', 'safe']) expect(await contrastOf(page, `.row .badge--${verdict}`), verdict).toBeGreaterThanOrEqual(4.5);
    expectNoProblems(app);
  });

  it('adds a watched folder, and a file written into it on disk appears as a new scan', async () => {
    const { real, app, page } = await start();
    const folder = path.join(await mkdtemp(path.join(work(), 'watched-')), 'Downloads');
    await mkdir(folder);

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    app.pickNext([folder]);
    const section = page.getByTestId('watched-folders');
    await section.getByRole('button', { name: en['watch.add'] }).click();
    const item = section.locator('.watched__item', { hasText: folder });
    await item.and(page.locator('[data-watch-state=watching]')).waitFor({ timeout: 30_000 });
    const list = await real.core.watch.list();
    expect(list.ok && list.value.map((status) => status.folder.path)).toEqual([folder]);
    // The built-in service answers the connection test.
    await page.getByRole('button', { name: en['settings.test'] }).click();
    await page.getByTestId('connection-report').getByText(/Connected and authorized/).waitFor({ timeout: 30_000 });
    await app.screenshot('settings');

    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await writeFile(path.join(folder, 'invoice.pdf'), '%PDF-1.4 from the web');
    await writeFile(path.join(folder, 'dropper.exe'), EICAR_TEST_STRING);
    const invoice = rowFor(app.page, 'invoice.pdf');
    await invoice.and(page.locator('[data-verdict=safe]')).waitFor({ timeout: 60_000 });
    await rowFor(app.page, 'dropper.exe').and(page.locator('[data-verdict=unsafe]')).waitFor({ timeout: 60_000 });
    await invoice.click();
    await page.getByTestId('detail-panel').getByText(en['origin.watch']).waitFor();

    // Options change through the core; removing stops watching.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    await item.getByLabel(en['watch.recursive']).uncheck();
    await expect.poll(async () => {
      const statuses = await real.core.watch.list();
      return statuses.ok && statuses.value[0]?.folder.recursive;
    }).toBe(false);
    await item.getByRole('button', { name: `Remove ${folder} from the watched folders` }).click();
    await section.getByText(en['watch.empty']).waitFor();
    expectNoProblems(app);
  });
});
