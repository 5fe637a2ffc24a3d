// Signature feeds (issue 28 §3) in the real renderer (Chromium) over the real core, with a feed
// served locally: a finding names its feed in the detail; Settings lists the ready-made feeds off
// with their terms, refuses a bad URL with its reason, adds a good one (fetched, checked and
// installed: its signature count shows), switches it off (its file leaves the folder). By
// keyboard, axe-clean, in English and German.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../electron/history/history.ts';
import { ownDatabaseDir } from '../../electron/engine/own-clamd/find-clamav.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { queuedRecord, type ScanRecord } from '../../shared/scans/record.ts';
import { writeEicarDatabase } from '../support/clamav-db.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-feeds-', engine: false });
let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
  server.set('/local.ndb', { kind: 'file', body: 'Feed.E2e.Marker:0:*:7665726469637465326566656564\n', etag: '"1"' });
});
afterAll(async () => server?.close());

const FEED_NAME = 'URLhaus (abuse.ch): malware URLs';

async function prepare(dataDir: string): Promise<void> {
  await writeEicarDatabase(ownDatabaseDir(dataDir));
  const id = randomUUID();
  const at = '2026-11-20T10:00:00.000Z';
  const record: ScanRecord = {
    ...queuedRecord({ id, path: '/home/user/invoice.html', fileName: 'invoice.html', origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: at }),
    status: 'completed',
    safe: false,
    detailed: 'infected',
    findings: [{ name: 'Feed.E2e.Marker.UNOFFICIAL', engine: 'clamd', feed: FEED_NAME }],
    completedAt: at,
  };
  const history = openHistory(dataDir);
  history.insertMany([record]);
  history.close();
}

describe('signature feeds in the window', () => {
  it('the detail names the feed; Settings lists, refuses, adds, switches off; keyboard, axe, German', async () => {
    const { real, app, page } = await start({ prepare });
    await rowFor(page, 'invoice.html').click();
    const feed = page.getByTestId('finding-feed');
    await feed.waitFor();
    expect(await feed.textContent()).toBe(` · ${en['detail.findingFeed']} ${FEED_NAME}`);

    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const section = page.getByTestId('signature-feeds');
    await section.getByRole('heading', { name: en['feeds.title'] }).waitFor();
    await expect.poll(() => section.locator('[data-testid=feed][data-enabled=false]').count()).toBe(3);
    expect(await section.getByText('https://sanesecurity.com/usage/signatures/').count()).toBe(2);

    const url = section.getByLabel(en['feeds.url']);
    await url.fill('ftp://example.org/sigs.ndb');
    await url.press('Enter');
    await section.getByTestId('feed-url-error').getByText(en['feeds.url.scheme'].replace('{detail}', 'ftp')).waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');

    await url.fill(server.url('/local.ndb'));
    await section.getByLabel(en['feeds.name']).fill('Local feed');
    await url.press('Enter');
    const added = section.locator('[data-testid=feed][data-feed=local]');
    await added.getByText(/^1 signature, updated /).waitFor({ timeout: 30_000 });
    expect(await section.getByTestId('feed-url-error').count()).toBe(0);
    const installed = join(ownDatabaseDir(real.dataDir), 'verdict-feed-local--local.ndb');
    expect(existsSync(installed)).toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    const box = added.getByRole('checkbox', { name: 'Local feed' });
    await box.focus();
    await page.keyboard.press('Space');
    await added.getByText(en['feeds.off'], { exact: true }).waitFor({ timeout: 30_000 });
    expect(existsSync(installed)).toBe(false);

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await page.getByRole('button', { name: de['nav.settings'] }).click();
    await section.getByRole('heading', { name: de['feeds.title'] }).waitFor();
    await section.getByRole('button', { name: de['feeds.removeLabel'].replace('{name}', 'Local feed') }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expectNoProblems(app);
  });
});
