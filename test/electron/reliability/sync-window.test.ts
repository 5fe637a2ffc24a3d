// The real sync window (issue "Reliability and security"): the fault table's 408
// row shortens the window to 20 ms; this file runs the service's default 90 s
// window (no override) against one file whose scan takes longer than that
// (scanDelayMs), through the real pipeline with the client's default timeouts.
// The whole path: the service answers 408 sync_scan_timeout with file_scan_id
// once the window has passed, the client is still listening (it does not time
// out first, so it never retries the POST), the pipeline follows the scan with
// GET /file-scans/{id}, and the file ends with exactly one scan and a verdict.
// About 95 s of mostly idle wall time: kept in a file of its own so vitest runs
// it next to the others.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SYNC_WINDOW_MS } from '../../../shared/service-contract/limits.ts';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { DEFAULT_TIMEOUTS } from '../../../electron/service-client/service-client.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';
import { startTestService, tempDir, type TestService } from '../scans/harness.ts';
import { waitForBatch } from './pipeline-kit.ts';

/** Past the window by enough that the 408 is certainly sent before the verdict exists. */
const SCAN_TAKES_MS = SYNC_WINDOW_MS + 3_000;
const BY_ID = /^\/file-scans\/[0-9a-f-]{36}$/;

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close().catch(() => {});
});

describe('a sync scan that outlasts the real 90 s window', () => {
  it("the client's default head timeout for a sync submission outlasts the window", () => {
    // The answer to a sync POST can take the whole window; the head timeout must cover it, with a margin.
    // (Body silence and upload stall are not running meanwhile: the first starts with the head, the second ends with the body.)
    expect(DEFAULT_TIMEOUTS.syncHeadersMs).toBeGreaterThan(SYNC_WINDOW_MS);
  });

  it('408 sync_scan_timeout with file_scan_id after 90 s, then GET, one scan and a verdict', async () => {
    const dir = await tempDir('verdict-sync-window-');
    opened.push({ close: () => dir.remove() });
    // No syncWindowMs: the service's own default (SYNC_WINDOW_MS).
    const service: TestService = await startTestService(join(dir.path, 'service'), { rateLimit: false, scanDelayMs: SCAN_TAKES_MS });
    opened.push(service);
    // Forwards everything untouched; it only records what each side said.
    const proxy: FaultProxy = await startFaultProxy(service.url);
    opened.push(proxy);
    // The client's timeouts and retry policy are the defaults; only polling is quicker.
    const core: CoreInternals = await createCore(
      { dataDir: join(dir.path, 'data'), serviceOverride: { baseUrl: proxy.url, apiKey: service.key } },
      { watch: false, poll: { initialDelayMs: 200, maxDelayMs: 1_000 } },
    );
    opened.push(core);
    const path = join(dir.path, 'slow.txt');
    await writeFile(path, 'a file whose scan takes longer than the sync window\n');

    const submitted = await core.submit([path], { origin: 'cli', mode: 'sync' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const [record] = await waitForBatch(core, submitted.value.ids, undefined, SCAN_TAKES_MS + 30_000);

    // One POST, answered by the service (not cut by the client) with the 408 the spec describes.
    const posts = proxy.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.pathname)).toEqual(['/file-scans/sync']);
    const post = posts[0]!;
    expect(post.status).toBe(408);
    const body = JSON.parse(post.answer ?? '{}') as { code?: string; file_scan_id?: string; message?: string };
    expect(body).toMatchObject({ code: 'sync_scan_timeout', file_scan_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(post.answerHeaders?.location).toBe(`/file-scans/${body.file_scan_id}`);
    // Sent once the window had passed: the service held the request for the whole window, and the client kept it open.
    expect((post.answeredAt ?? 0) - post.at).toBeGreaterThanOrEqual(SYNC_WINDOW_MS - 1_000);

    // Then the pipeline follows that scan by id (never by reference, never a second POST) until it is done.
    const polls = proxy.requests.filter((r) => r.method === 'GET' && BY_ID.test(r.pathname));
    expect(polls.length).toBeGreaterThan(0);
    expect(new Set(polls.map((r) => r.pathname))).toEqual(new Set([`/file-scans/${body.file_scan_id}`]));
    expect(polls.every((r) => r.at >= (post.answeredAt ?? Infinity))).toBe(true);
    expect(polls.at(-1)?.status).toBe(200);
    expect(JSON.parse(polls.at(-1)?.answer ?? '{}')).toMatchObject({ id: body.file_scan_id, status: 'completed', execution_mode: 'sync' });
    expect(proxy.requests.filter((r) => r.pathname.startsWith('/file-scans/external-reference/'))).toEqual([]);

    // The file: one record, completed with the verdict of that scan; no error on the way.
    expect(record).toMatchObject({ status: 'completed', safe: true, serviceScanId: body.file_scan_id, mode: 'sync', error: null, pendingReason: null });
    // The service: exactly one scan, the one history points at.
    expect(service.scanCount()).toBe(1);
    const remote = await service.byReference(record!.externalReferenceId);
    expect(remote).toMatchObject({ status: 200, body: { id: body.file_scan_id, status: 'completed' } });
    console.log(
      `real sync window: 408 after ${(((post.answeredAt ?? 0) - post.at) / 1000).toFixed(1)} s, ` +
        `${polls.length} GET(s) by id, verdict ${((Date.now() - post.at) / 1000).toFixed(1)} s after the POST`,
    );
  }, SCAN_TAKES_MS + 60_000);
});
