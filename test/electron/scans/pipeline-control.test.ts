// The pipeline on its own (real history, client, poller, fingerprint, intake and
// local service), with the test holding the key and the backend's availability:
// 401 pauses the whole queue until a key works, 409 adopts the existing scan,
// a key revoked while scans are followed parks them until a new key, and a
// finished record (reused verdicts too) leaves nothing behind in memory.
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { createServiceConnection, type ServiceConnection } from '../../../electron/backend/backend.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { createServiceClient } from '../../../electron/service-client/client.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import { createScanPipeline, DEFAULT_CONCURRENCY, type ScanPipeline } from '../../../electron/scans/pipeline.ts';
import { MAX_SERVICE_CONCURRENCY } from '../../../electron/scans/pipeline/options.ts';
import type { ServiceAvailability } from '../../../electron/scans/ports.ts';
import { FAST, startTestService, tempDir, until, writeFiles, type TestService } from './harness.ts';
import { seedJob } from '../history/job-files/fixtures.ts';

const INSTALL_ID = 'aaaabbbbccccddddeeeeffff';
const VALID = 'the service key';

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let history: History;
let events: ScanEvents;
let connection: ServiceConnection;
let pipeline: ScanPipeline;
let key: string | null;
let available: boolean;
/** Runs just before each upload (a test's chance to change the file underneath). */
let beforeUpload: ((path: string) => Promise<void>) | null = null;

/** `takes`: how many files the service says it takes at once (ServicePort.concurrency); `concurrency`: the pipeline's own limit. */
async function setUp(serviceOptions: Parameters<typeof startTestService>[1] = {}, mode: 'auto' | 'async' = 'auto', tune: { takes?: number; concurrency?: number } = {}) {
  service = await startTestService(join(dir.path, 'service'), serviceOptions);
  if (key === VALID) key = service.key;
  history = openHistory(join(dir.path, 'data'));
  events = createScanEvents({ counts: () => history.counts() });
  const label = new URL(service.url).origin;
  connection = createServiceConnection({ label, baseUrl: service.url, apiKey: () => key, poll: FAST.poll, retry: FAST.clientRetry, budget: FAST.budget });
  pipeline = createScanPipeline({
    history,
    service: (): ServiceAvailability =>
      available
        ? {
            ok: true,
            service: {
              ...connection.port,
              ...(tune.takes === undefined ? {} : { concurrency: tune.takes }),
              submit: async (file, submitOptions) => {
                await beforeUpload?.(file.path);
                return connection.port.submit(file, submitOptions);
              },
            },
          }
        : { ok: false, reason: 'awaiting_api_key', message: 'No API key is set.' },
    backendLabel: () => label,
    fingerprint: (path, signal) => fingerprintFile(path, { signal }),
    intake: (paths) => expandPaths(paths),
    settings: () => ({ mode, reuseVerdictDays: 30 }),
    installId: INSTALL_ID,
    events,
    retryBaseMs: FAST.retryBaseMs,
    retryMaxMs: FAST.retryMaxMs,
    ...(tune.concurrency === undefined ? {} : { concurrency: tune.concurrency }),
  });
  pipeline.start();
}

beforeEach(async () => {
  dir = await tempDir();
  key = VALID;
  available = true;
  beforeUpload = null;
});
afterEach(async () => {
  await pipeline?.close();
  await connection?.close();
  events?.close();
  history?.close();
  await service?.close();
  await dir.remove();
});

const files = async (count: number) => {
  const path = join(dir.path, 'files');
  await mkdir(path, { recursive: true });
  return writeFiles(path, count);
};

/**
 * `count` files handed in while the service is unavailable (`whileHeld` runs then), then let go at once:
 * the submit's answer and the most records ever at work together.
 */
async function burstAfterPause(count: number, whileHeld?: (submitted: Awaited<ReturnType<ScanPipeline['submit']>>, paths: string[]) => Promise<void>) {
  const paths = await files(count);
  const seenActive: number[] = [];
  const off = events.subscribe(() => seenActive.push(pipeline.state().active));
  available = false;
  const submitted = await pipeline.submit(paths, { origin: 'drop' });
  await until(() => pipeline.state().paused !== null, 'the queue to hold');
  await whileHeld?.(submitted, paths);
  available = true;
  pipeline.resume();
  await pipeline.idle();
  off();
  return { submitted, peak: Math.max(...seenActive) };
}
const rows = (ids: string[]) => ids.map((id) => history.get(id)!);

describe('pipeline control', () => {
  it('pauses the whole queue on 401 (nothing fails) and resumes when a valid key is set', async () => {
    key = 'revoked-or-mistyped-key';
    await setUp();
    const submitted = await pipeline.submit(await files(6), { origin: 'drop' });
    await until(() => pipeline.state().paused === 'awaiting_api_key', 'the queue to pause');
    await until(() => rows(submitted.ids).every((record) => record.status === 'queued' && record.pendingReason === 'awaiting_api_key'), 'every record waiting for a key');
    expect(pipeline.state().active).toBe(0);
    expect(service.scanCount()).toBe(0);

    key = service.key;
    pipeline.resume();
    await pipeline.idle();
    for (const record of rows(submitted.ids)) expect(record).toMatchObject({ status: 'completed', safe: true, pendingReason: null, error: null });
    expect(service.scanCount()).toBe(6);
    expect(pipeline.state().paused).toBeNull();
  });

  it('parks followed scans when the key is revoked mid-batch, and finishes them after a new key', async () => {
    await setUp({ scanDelayMs: 400 }, 'async');
    const submitted = await pipeline.submit(await files(4), { origin: 'watch' });
    await until(() => rows(submitted.ids).some((record) => record.status === 'processing'), 'a scan being followed');
    key = 'revoked-key-revoked-key';
    await until(() => pipeline.state().paused === 'awaiting_api_key', 'the queue to pause');
    await until(
      () => rows(submitted.ids).every((record) => record.status === 'completed' || record.pendingReason === 'awaiting_api_key'),
      'every unfinished record to wait for the key',
    );
    expect(rows(submitted.ids).filter((record) => record.status === 'failed')).toHaveLength(0);

    key = service.key;
    pipeline.resume();
    await pipeline.idle();
    for (const record of rows(submitted.ids)) expect(record).toMatchObject({ status: 'completed', safe: true, mode: 'async' });
    expect(service.scanCount()).toBe(4);
  });

  it('adopts the existing scan when its reference was already used (409)', async () => {
    await setUp();
    available = false;
    const [path] = await files(1);
    const submitted = await pipeline.submit([path!], { origin: 'drop' });
    await until(() => history.get(submitted.ids[0]!)?.pendingReason === 'awaiting_api_key', 'the record to wait');
    const record = history.get(submitted.ids[0]!)!;
    expect(record.submittedAt).toBeNull();

    // The same reference reaches the service first (e.g. an earlier attempt whose answer was lost).
    const client = createServiceClient({ baseUrl: service.url, apiKey: () => service.key });
    const existing = await client.submitAsync({ path: path!, name: 'a', size: record.size! }, { external_reference_id: record.externalReferenceId });
    await client.close();

    available = true;
    pipeline.resume();
    await pipeline.idle();
    const adopted: ScanRecord = history.get(record.id)!;
    expect(adopted).toMatchObject({ status: 'completed', safe: true, serviceScanId: existing.id, error: null });
    expect(service.scanCount()).toBe(1);
  });

  it('queues a burst of files without starting more than the concurrency at once', async () => {
    await setUp({ scanDelayMs: 20 });
    const { submitted, peak } = await burstAfterPause(60, async (held, paths) => {
      // Handing the same files in again while they still wait adds no rows.
      const again = await pipeline.submit(paths.slice(-10), { origin: 'drop' });
      expect(again.ids).toEqual(held.ids.slice(-10));
    });
    expect(submitted.queued).toBe(60);
    expect(peak).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
    expect(rows(submitted.ids).every((record) => record.status === 'completed')).toBe(true);
    expect(service.scanCount()).toBe(60);
    expect(history.query({ limit: 1 }).total).toBe(60);
  });

  // The local engine says 16 (local-engine-port.ts); a service can ask for no more than the cap, and a limit
  // given to the pipeline (a test's, a tuning's) wins over what the service says.
  it.each([
    { takes: 12, concurrency: undefined, peak: 12 },
    { takes: 100, concurrency: undefined, peak: MAX_SERVICE_CONCURRENCY },
    { takes: 12, concurrency: 3, peak: 3 },
  ])('works on as many files at once as the service says it takes ($takes), within the limits (pipeline: $concurrency)', async ({ takes, concurrency, peak }) => {
    await setUp({ scanDelayMs: 20 }, 'auto', { takes, ...(concurrency === undefined ? {} : { concurrency }) });
    const burst = await burstAfterPause(60);
    const submitted = burst.submitted;
    expect(burst.peak).toBe(peak);
    expect(rows(submitted.ids).every((record) => record.status === 'completed')).toBe(true);
    expect(service.scanCount()).toBe(60);
  });

  it('keeps nothing of a record once it is done: 200 identical files, one upload, 199 reused verdicts', async () => {
    await setUp();
    const folder = join(dir.path, 'files');
    await mkdir(folder, { recursive: true });
    const paths: string[] = [];
    for (let i = 0; i < 200; i++) {
      paths.push(join(folder, `same-${i}.txt`));
      await writeFile(paths[i]!, 'the same content in every file\n');
    }
    const submitted = await pipeline.submit(paths, { origin: 'drop' });
    await pipeline.idle();
    const done = rows(submitted.ids);
    const uploaded = done.filter((record) => record.reusedFromId === null);
    expect(uploaded).toHaveLength(1);
    expect(done.filter((record) => record.reusedFromId === uploaded[0]!.id)).toHaveLength(199);
    expect(done.every((record) => record.status === 'completed' && record.safe === true)).toBe(true);
    expect(service.scanCount()).toBe(1);
    // Reused verdicts are finished like any other: a long-running app that keeps seeing known content holds no memory for it.
    expect(pipeline.trackedCount()).toBe(0);
  });

  it("sends a job's file as its intake wrote it, without reading its row back; a drop's row is read at its turn", async () => {
    await setUp();
    const reads: string[] = [];
    const read = history.get.bind(history);
    history.get = (id) => (reads.push(id), read(id));
    const jobId = seedJob(history, 0, 'running').id;
    const jobFolder = join(dir.path, 'job');
    await mkdir(jobFolder, { recursive: true });
    await pipeline.submit(await writeFiles(jobFolder, 12, 'job'), { origin: 'cli', jobId });
    await pipeline.idle();
    // The seeded job holds a few finished rows of its own: these are the files handed in.
    const jobRecords = history.query({ job: jobId, limit: 100 }).items.filter((record) => record.path.startsWith(jobFolder));
    expect(jobRecords.map((record) => record.status)).toEqual(Array(12).fill('completed'));
    expect(reads.filter((id) => jobRecords.some((record) => record.id === id))).toEqual([]);
    // A drop's queued row is read at its turn (one per file): only a job's walk waits for room, so only its records are held.
    const dropped = await pipeline.submit(await files(3), { origin: 'drop' });
    await pipeline.idle();
    expect(dropped.ids.every((id) => reads.includes(id))).toBe(true);
    expect(service.scanCount()).toBe(15);
    expect(pipeline.trackedCount()).toBe(0);
  });

  it('fails a file that disappeared after it was queued, saying what to do', async () => {
    await setUp();
    available = false;
    const [gone, kept] = await files(2);
    const submitted = await pipeline.submit([gone!, kept!], { origin: 'drop' });
    await until(() => pipeline.state().paused !== null, 'the queue to hold');
    await rm(gone!);
    available = true;
    pipeline.resume();
    await pipeline.idle();
    const [goneRecord, keptRecord] = rows(submitted.ids);
    expect(goneRecord).toMatchObject({ status: 'failed', safe: null, error: { code: 'not_found' } });
    expect(goneRecord!.error!.message).toMatch(/Add it again/);
    expect(keptRecord).toMatchObject({ status: 'completed', safe: true });
    expect(service.scanCount()).toBe(1);
  });

  it('never reports a verdict for content other than the file held when it changed during the upload', async () => {
    await setUp();
    const [path] = await files(1);
    let changes = 0;
    beforeUpload = async (file) => {
      if (changes++ === 0) await appendFile(file, 'appended while uploading\n');
    };
    const submitted = await pipeline.submit([path!], { origin: 'drop' });
    await pipeline.idle();
    const [record] = rows(submitted.ids);
    const digest = createHash('sha256').update(await readFile(path!)).digest('hex');
    // The upload noticed the change, so the file was fingerprinted and sent again: the verdict is for the current content.
    expect(record).toMatchObject({ status: 'completed', safe: true, sha256: digest, error: null });
    expect((await service.byReference(record!.externalReferenceId)).body).toMatchObject({ file_hash: { sha256: digest } });
    expect(changes).toBe(2);
    expect(service.scanCount()).toBe(1);
  });
});
