// 10,000 scans in the history: the list stays virtualized (a few dozen rows in
// the DOM), scrolls to the last row, pages load lazily, keyboard navigation and
// "show this scan" (a notification click) work far from the top.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../electron/history/history.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { buildRenderer, launchChromium, openApp, type AppHarness } from './support/app-harness.ts';
import { startRealCore, type RealCore } from './support/real-core.ts';

const TOTAL = 10_000;

/** Record i was queued i seconds after the first; every 500th is a threat, every 700th failed. */
function seededRecord(i: number): ScanRecord {
  const queuedAt = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
  const failed = i % 700 === 0;
  const threat = !failed && i % 500 === 0;
  const fileName = `seed-${String(i).padStart(5, '0')}.bin`;
  return {
    id: randomUUID(),
    path: `/data/seeded/${fileName}`,
    fileName,
    size: 1000 + i,
    md5: null,
    sha1: null,
    sha256: null,
    mode: 'async',
    origin: 'watch',
    backend: 'local',
    externalReferenceId: `verdict/seed/${i}`,
    serviceScanId: failed ? null : randomUUID(),
    status: failed ? 'failed' : 'completed',
    pendingReason: null,
    safe: failed ? null : !threat,
    detailed: failed ? null : threat ? 'infected' : 'clean',
    findings: threat ? [{ name: 'Eicar-Test-Signature.UNOFFICIAL', engine: 'clamd' }] : [],
    fileType: failed ? null : 'application/octet-stream',
    queuedAt,
    submittedAt: failed ? null : queuedAt,
    completedAt: queuedAt,
    durationMs: failed ? null : 12,
    error: failed ? { code: 'permission_denied', message: 'Verdict is not allowed to read this file.' } : null,
    reusedFromId: null,
  };
}

let built: Awaited<ReturnType<typeof buildRenderer>>;
let browser: Browser;
let real: RealCore;
let app: AppHarness;
const oldest = seededRecord(0);

beforeAll(async () => {
  [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
  real = await startRealCore({
    clamd: null,
    // Written straight into the core's history database before the core opens it.
    prepare: (dataDir) => {
      const history = openHistory(dataDir);
      history.insertMany([oldest, ...Array.from({ length: TOTAL - 1 }, (_, i) => seededRecord(i + 1))]);
      history.close();
    },
  });
  app = await openApp(browser, { core: real.core, staticDir: built.dir });
});

afterAll(async () => {
  await app?.close();
  await real?.close();
  await browser?.close();
  await built?.remove();
});

const domRows = () => app.page.locator('.row').count();

describe('a long history', () => {
  it('renders 10,000 scans virtualized and scrolls to the last one', async () => {
    const { page } = app;
    await page.getByText('10,000 scans').waitFor();
    await page.locator('.row[data-index="0"] .row__filename', { hasText: 'seed-09999.bin' }).waitFor();
    expect(await domRows()).toBeLessThan(60);
    // Only the first page was asked for so far.
    const listCalls = () => app.bridge.calls.filter((call) => call.channel === 'scans:list' && (call.args[0] as { verdicts?: string[] }).verdicts === undefined);
    expect(listCalls().map((call) => (call.args[0] as { offset: number }).offset)).toEqual([0]);

    // Scroll to the very bottom: the oldest scan renders, the DOM stays small.
    const started = performance.now();
    // As a user would: the mouse wheel over the list, far enough to reach the end.
    await page.getByTestId('scan-list').hover();
    await page.mouse.wheel(0, TOTAL * 100);
    const last = page.locator(`.row[aria-posinset="${TOTAL}"]`);
    await last.locator('.row__filename', { hasText: oldest.fileName }).waitFor();
    const elapsedMs = performance.now() - started;
    console.log(`scrolled to row ${TOTAL} and rendered it in ${elapsedMs.toFixed(0)} ms`);
    expect(await last.getAttribute('aria-setsize')).toBe(String(TOTAL));
    expect(await domRows()).toBeLessThan(60);
    // Lazy paging: the pages at the bottom, not all fifty.
    const offsets = listCalls().map((call) => (call.args[0] as { offset: number }).offset);
    expect(offsets).toContain(9800);
    expect(offsets.length).toBeLessThan(6);
    await app.screenshot('long-history-bottom');
  });

  it('moves through the list with the keyboard and opens a scan far from the top', async () => {
    const { page } = app;
    const list = page.getByTestId('scan-list');
    await list.focus();
    await page.keyboard.press('Home');
    await page.locator('.row[data-index="0"]').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('detail-panel');
    await detail.locator('#detail-title', { hasText: oldest.fileName }).waitFor();
    expect(await list.getAttribute('aria-activedescendant')).toBe(`scan-row-${TOTAL - 1}`);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await detail.locator('#detail-title', { hasText: 'seed-00002.bin' }).waitFor();
    expect(await domRows()).toBeLessThan(60);
  });

  it('shows a scan when the main process asks (a notification click), and filters by verdict', async () => {
    const { page } = app;
    const target = seededRecord(4500);
    const stored = await real.core.scans.list({ search: target.fileName, limit: 1 });
    const id = stored.ok ? stored.value.items[0]?.id : undefined;
    expect(id).toBeDefined();
    app.bridge.showScan(id!);
    const detail = page.getByTestId('detail-panel');
    await detail.locator('#detail-title', { hasText: target.fileName }).waitFor();
    // In the findings list (the name also stands on the "Always allow" action).
    await detail.locator('.findings').getByText(/Eicar-Test-Signature/).waitFor();

    await page.getByTestId('threat-banner').getByText('17 threats found').waitFor();
    await page.getByLabel('Verdict').selectOption('unsafe');
    await page.getByText('17 scans').waitFor();
    await page.getByLabel('Verdict').selectOption('could-not-scan');
    await page.getByText('15 scans').waitFor();
    expect(await page.locator('.row[data-verdict=safe]').count()).toBe(0);
    await page.getByLabel('Verdict').selectOption('all');
    await page.getByLabel('Search').fill('seed-0420');
    await page.getByText('10 scans').waitFor();
    expect(app.problems).toEqual([]);
  });

  it('counts a broad name search only so far, and the list grows as it scrolls', async () => {
    const { page } = app;
    // All 10,000 names match: the history counts up to 1,000 and says there are more.
    await page.getByLabel('Search').fill('seed-');
    await page.getByText('1,000+ scans', { exact: true }).waitFor();
    await page.getByTestId('scan-list').hover();
    await page.mouse.wheel(0, 1000 * 100);
    await page.getByText('2,000+ scans', { exact: true }).waitFor();
    expect(await domRows()).toBeLessThan(60);
    // Exactly 1,000 matches (seed-04000 … seed-04999): an exact count, without the "+".
    await page.getByLabel('Search').fill('seed-04');
    await page.getByText('1,000 scans', { exact: true }).waitFor();
    expect(app.problems).toEqual([]);
  });
});
