// The embedded service's retention (issue 16): a terminal scan its client has recorded is
// deleted; a scan still processing, one of another integration, one whose webhook event is
// undelivered, and one nobody acknowledged are kept. Through the thread, and end to end
// through the core: the service's database holds nothing of a finished batch, and with
// `retention: 'keep'` (what a standalone service does) it holds every scan.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { integrationIdOf } from '../../../electron/local-service/auth/api-keys.ts';
import { EngineError, type EngineVerdict, type ScanEngine } from '../../../electron/engine/engine.ts';
import { sweepIntervalMs } from '../../../electron/local-service/store/finished-retention.ts';
import { startLocalServiceInThread } from '../../../electron/local-service/thread/start-in-thread.ts';
import { terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { until, writeFiles } from '../scans/harness.ts';
import { getByReference, getScan, KEY_A, KEY_B, startTestService, submit } from './harness.ts';

const { dir, open, dataDir, onCleanup } = useCoreFixture('verdict-service-retention-');

const A = integrationIdOf(KEY_A);

/** Clean, except a file that says "hold": that one stays processing until the service closes. */
class HoldingEngine implements ScanEngine {
  readonly name = 'holding';
  async scan(file: string, signal?: AbortSignal): Promise<EngineVerdict> {
    if ((await readFile(file, 'utf8')) === 'hold') {
      // Closed while the file was being read (a busy thread pool): the abort has already fired.
      if (signal?.aborted) throw new EngineError('engine_aborted', 'cancelled');
      await new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new EngineError('engine_aborted', 'cancelled')), { once: true }));
    }
    return { safe: true, detailed: 'clean', findings: [] };
  }
}

async function filesToScan(count: number): Promise<string[]> {
  await mkdir(join(dir.path, 'files'), { recursive: true });
  return writeFiles(join(dir.path, 'files'), count);
}

async function submitSync(url: string, reference: string, key = KEY_A): Promise<string> {
  const reply = await submit(url, { key, mode: 'sync', file: `content of ${reference}`, attributes: { file_name: `${reference}.txt`, external_reference_id: reference } });
  return terminalScanSchema.parse(reply.body).id;
}

function serviceScanCount(serviceDataDir: string): number {
  const db = new DatabaseSync(join(serviceDataDir, 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('forgetting recorded scans', () => {
  it('deletes only terminal scans of the acknowledging integration', async () => {
    const service = await startTestService({ engine: new HoldingEngine() });
    onCleanup(() => service.close());
    const done = await submitSync(service.url, 'ref-1');
    const unacknowledged = await submitSync(service.url, 'ref-2');
    const other = await submitSync(service.url, 'ref-3', KEY_B);
    const processing = (await submit(service.url, { mode: 'async', file: 'hold', attributes: { file_name: 'held.txt', external_reference_id: 'ref-4' } })).body.id as string;

    // Another integration's scan, a processing one and an unknown id are not deleted by A's acknowledgement.
    expect(service.forgetRecorded(A, [done, other, processing, 'no-such-scan'])).toBe(1);
    expect((await getScan(service.url, done)).status).toBe(404);
    expect((await getByReference(service.url, 'ref-1')).status).toBe(404);
    expect((await getScan(service.url, other, { key: KEY_B })).status).toBe(200);
    expect((await getScan(service.url, processing)).body).toMatchObject({ status: 'processing' });
    // Not acknowledged: still found by id and by reference (what crash recovery asks).
    expect((await getByReference(service.url, 'ref-2')).body).toMatchObject({ id: unacknowledged, status: 'completed' });
    expect(service.forgetRecorded(A, [])).toBe(0);
  });

  it('keeps a scan whose webhook event is not delivered yet', async () => {
    // Nobody listens on port 9: the event stays in the outbox.
    const service = await startTestService({ webhook: { url: 'http://127.0.0.1:9/hook', secret: 'webhook-secret-0001', timeoutMs: 200, initialBackoffMs: 60_000 } });
    onCleanup(() => service.close());
    const id = await submitSync(service.url, 'ref-hook');
    expect(service.forgetRecorded(A, [id])).toBe(0);
    expect((await getScan(service.url, id)).status).toBe(200);
  });

  it('crosses to the service thread', async () => {
    const serviceDir = join(dir.path, 'thread-service');
    const service = await startLocalServiceInThread({ apiKeys: [KEY_A], dataDir: serviceDir, engine: { kind: 'builtin' } });
    onCleanup(() => service.close());
    const kept = await submitSync(service.url, 'ref-kept');
    const recorded = await submitSync(service.url, 'ref-recorded');
    service.recorded(A, [recorded]);
    await until(async () => (await getScan(service.url, recorded)).status === 404, 'the recorded scan to be deleted');
    expect((await getScan(service.url, kept)).status).toBe(200);
  });
});

describe("a standalone service's retention (--keep-finished-hours)", () => {
  it('deletes finished scans past the retention and keeps the younger ones; none without one', async () => {
    const serviceDir = join(dir.path, 'standalone');
    const restart = async (keepFinishedMs?: number) => {
      const service = await startTestService({ dataDir: serviceDir, ...(keepFinishedMs !== undefined ? { keepFinishedMs } : {}) });
      onCleanup(() => service.close());
      return service;
    };
    let service = await restart();
    const id = await submitSync(service.url, 'ref-old');
    await service.close();
    // An hour's retention: the scan is younger. None: kept as well.
    for (const keep of [3_600_000, undefined]) {
      service = await restart(keep);
      expect((await getScan(service.url, id)).status).toBe(200);
      await service.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    service = await restart(1);
    expect((await getScan(service.url, id)).status).toBe(404);
  });

  it('sweeps a quarter of the retention apart, between a second and an hour', () => {
    expect(sweepIntervalMs(1)).toBe(1_000);
    expect(sweepIntervalMs(48 * 3_600_000)).toBe(3_600_000);
    expect(sweepIntervalMs(20_000)).toBe(5_000);
  });
});

describe('the embedded service of the core', () => {
  // Over HTTP: on the local engine path (the default) the service holds no scans of the app's at all.
  it('holds nothing of a finished batch: each scan is deleted once its history row is committed', async () => {
    const core = await open(undefined, { localService: { engine: 'builtin', path: 'http' } });
    const files = await filesToScan(6);
    const submitted = await core.submit(files, { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.idle();
    for (const id of submitted.value.ids) expect(await core.scans.get(id)).toMatchObject({ ok: true, value: { status: 'completed', safe: true } });
    await until(async () => serviceScanCount(join(dataDir(), 'local-service')) === 0, 'the recorded scans to be deleted');
  });

  it("keeps every scan with retention 'keep', as a standalone service does", async () => {
    const core = await open(undefined, { localService: { engine: 'builtin', retention: 'keep', path: 'http' } });
    const files = await filesToScan(4);
    const submitted = await core.submit(files, { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.idle();
    await core.close();
    expect(serviceScanCount(join(dataDir(), 'local-service'))).toBe(4);
  });
});
