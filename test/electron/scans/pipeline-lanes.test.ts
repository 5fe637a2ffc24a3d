// Each service has its own lane in the queue: a service answering 503 backs off
// (and one without a key pauses) without holding up files bound for another. Two
// real services on loopback, one behind the fault proxy; real history, client,
// fingerprint and intake. Files under `slow/` go to the proxied one.
import { mkdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceConnection, type ServiceConnection } from '../../../electron/backend/backend.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import { createScanPipeline, type RecordRoute, type ScanPipeline } from '../../../electron/scans/pipeline.ts';
import type { ServiceAvailability } from '../../../electron/scans/ports.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';
import { FAST, startTestService, tempDir, until, writeFiles, type TestService } from './harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let fast: TestService;
let slow: TestService;
let proxy: FaultProxy;
let history: History;
let events: ScanEvents;
let connections: ServiceConnection[];
let pipeline: ScanPipeline;
let slowKeySet: boolean;

beforeEach(async () => {
  dir = await tempDir('verdict-lanes-');
  fast = await startTestService(join(dir.path, 'fast-service'));
  slow = await startTestService(join(dir.path, 'slow-service'));
  proxy = await startFaultProxy(slow.url);
  history = openHistory(join(dir.path, 'data'));
  events = createScanEvents({ counts: () => history.counts() });
  slowKeySet = true;
  const common = { poll: FAST.poll, retry: FAST.clientRetry, budget: FAST.budget };
  const fastConnection = createServiceConnection({ label: 'fast', baseUrl: fast.url, apiKey: () => fast.key, ...common });
  const slowConnection = createServiceConnection({ label: 'slow', baseUrl: proxy.url, apiKey: () => slow.key, ...common });
  connections = [fastConnection, slowConnection];
  pipeline = makePipeline(slowConnection, fastConnection, 60_000);
  pipeline.start();
});

/**
 * The pipeline over both services. `retryMs` is its own backoff after the client's retries: long (60 s) so the
 * slow lane is still backing off while every fast file finishes.
 */
function makePipeline(slowConnection: ServiceConnection, fastConnection: ServiceConnection, retryMs: number): ScanPipeline {
  const labelOf = (route: RecordRoute) => (route.path.includes(`${sep}slow${sep}`) ? 'slow' : 'fast');
  return createScanPipeline({
    history,
    service: (route): ServiceAvailability => {
      if (labelOf(route) === 'fast') return { ok: true, service: fastConnection.port };
      return slowKeySet ? { ok: true, service: slowConnection.port } : { ok: false, reason: 'awaiting_api_key', message: 'No API key is set for slow.' };
    },
    backendLabel: labelOf,
    fingerprint: (path, signal) => fingerprintFile(path, { signal }),
    intake: (paths) => expandPaths(paths),
    settings: () => ({ mode: 'auto', reuseVerdictDays: 0 }),
    installId: 'aaaabbbbccccddddeeeeffff',
    events,
    retryBaseMs: retryMs,
    retryMaxMs: retryMs,
  });
}

afterEach(async () => {
  await pipeline.close();
  for (const connection of connections) await connection.close();
  events.close();
  history.close();
  await proxy.close();
  await fast.close();
  await slow.close();
  await dir.remove();
});

const filesIn = async (name: string, count: number) => {
  const folder = join(dir.path, name);
  await mkdir(folder, { recursive: true });
  return writeFiles(folder, count, name.replaceAll(sep, '-'));
};
const rows = (ids: string[]) => ids.map((id) => history.get(id)!);

describe('a lane per service', () => {
  it('backs off only the service that answers 503; the other service’s files are all scanned meanwhile', async () => {
    const outage = proxy.addRule({ fault: { kind: 'status', status: 503 } });
    // Interleaved, so the fast files sit behind slow ones in the line.
    const slowIds = (await pipeline.submit(await filesIn('slow', 6), { origin: 'watch' })).ids;
    const fastIds = (await pipeline.submit(await filesIn('fast', 12), { origin: 'watch' })).ids;

    await until(() => rows(fastIds).every((record) => record.status === 'completed'), 'every fast file to be scanned');
    for (const record of rows(fastIds)) expect(record).toMatchObject({ backend: 'fast', safe: true });
    expect(rows(slowIds).every((record) => record.status === 'queued' && record.pendingReason === 'retrying')).toBe(true);
    expect(pipeline.state().backoffUntil).toBeGreaterThan(Date.now());
    expect(fast.scanCount()).toBe(12);

    // The outage ends; resume() (as after "test connection") lifts the backoff and the lane drains.
    outage.remove();
    pipeline.resume();
    await pipeline.idle();
    for (const record of rows(slowIds)) expect(record).toMatchObject({ status: 'completed', backend: 'slow', safe: true });
    expect(slow.scanCount()).toBe(6);
  });

  it('pauses only the lane without a key; records say why, and go on when it is set', async () => {
    slowKeySet = false;
    const slowIds = (await pipeline.submit(await filesIn('slow', 5), { origin: 'watch' })).ids;
    const fastIds = (await pipeline.submit(await filesIn('fast', 5), { origin: 'watch' })).ids;
    await until(() => rows(fastIds).every((record) => record.status === 'completed'), 'every fast file to be scanned');
    await until(() => rows(slowIds).every((record) => record.pendingReason === 'awaiting_api_key'), 'the slow files to wait for a key');
    expect(pipeline.state().pausedLanes).toEqual({ slow: 'awaiting_api_key' });
    // Files handed in while the lane is paused say why at once.
    const [late] = (await pipeline.submit(await filesIn(join('slow', 'late'), 1), { origin: 'watch' })).ids;
    expect(history.get(late!)).toMatchObject({ status: 'queued', pendingReason: 'awaiting_api_key' });
    expect(slow.scanCount()).toBe(0);

    slowKeySet = true;
    pipeline.resume();
    await pipeline.idle();
    for (const record of rows([...slowIds, late!])) expect(record).toMatchObject({ status: 'completed', backend: 'slow', pendingReason: null });
    expect(pipeline.state().pausedLanes).toEqual({});
  });

  it('releases a record held after its lane’s backoff already ended (no timer would ever come for it)', async () => {
    // A backoff of 0 ms has ended by the time the record is held in its lane: the same moment as a longer
    // backoff running out while a big batch is being held (a slow transaction, a GC pause). Before the
    // fix, no timer was armed for such a lane, and its records waited until something else happened.
    await pipeline.close();
    const [fastConnection, slowConnection] = connections as [ServiceConnection, ServiceConnection];
    pipeline = makePipeline(slowConnection, fastConnection, 0);
    pipeline.start();
    // As many 503s as the client tries, so the pipeline's own backoff takes over once.
    const outage = proxy.addRule({ method: 'POST', fault: { kind: 'status', status: 503 }, times: FAST.clientRetry.maxAttempts });
    const [id] = (await pipeline.submit(await filesIn('slow', 1), { origin: 'watch' })).ids as [string];
    await until(() => history.get(id)?.status === 'completed', 'the slow file to be scanned after the 503s');
    expect(outage.hits).toBe(FAST.clientRetry.maxAttempts);
    expect(history.get(id)).toMatchObject({ backend: 'slow', safe: true, pendingReason: null });
    expect(slow.scanCount()).toBe(1);
  });
});
