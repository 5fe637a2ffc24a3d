// The pipeline end to end through createCore, against the real local service on
// loopback (as a "remote" service, so the test holds its key and can check the
// service's own records): both modes, 408 continuation, progress, reuse and
// force, the size limits, and retries through the fault-injecting proxy.
import { createHash } from 'node:crypto';
import { copyFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { externalReferenceIdSchema } from '../../../shared/service-contract/scan.ts';
import type { ScanEvent, ScanRecord } from '../../../shared/scans/record.ts';
import { createCore, type CoreInternals, type CoreTuning } from '../../../electron/core/create-core.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';
import { FAST, startTestService, tempDir, until, writeEicar, writeFiles, type TestService } from './harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
const closers: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await dir.remove();
});

async function start(options: { serviceOptions?: Parameters<typeof startTestService>[1]; proxy?: boolean; tuning?: CoreTuning } = {}) {
  service = await startTestService(join(dir.path, 'service'), options.serviceOptions);
  closers.push(() => service.close());
  let proxy: FaultProxy | null = null;
  if (options.proxy) {
    proxy = await startFaultProxy(service.url);
    closers.push(() => proxy!.close());
  }
  const core = await createCore(
    { dataDir: join(dir.path, 'data'), serviceOverride: { baseUrl: proxy?.url ?? service.url, apiKey: service.key } },
    { ...FAST, ...options.tuning },
  );
  closers.push(() => core.close());
  const events: ScanEvent[] = [];
  core.onEvent((event) => events.push(event));
  return { core, proxy, events };
}

async function scan(core: CoreInternals, paths: string[], options: Parameters<CoreInternals['submit']>[1] = { origin: 'cli' }): Promise<ScanRecord[]> {
  const submitted = await core.submit(paths, options);
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.idle();
  const records: ScanRecord[] = [];
  for (const id of submitted.value.ids) {
    const record = await core.scans.get(id);
    if (!record.ok) throw new Error(record.error.message);
    records.push(record.value);
  }
  return records;
}

const filesDir = async () => {
  const path = join(dir.path, 'files');
  await import('node:fs/promises').then((fs) => fs.mkdir(path, { recursive: true }));
  return path;
};

describe('scan pipeline', () => {
  it('scans interactively in sync mode: a clean file and EICAR, one scan each at the service', async () => {
    const { core } = await start();
    const files = await filesDir();
    const [clean] = await writeFiles(files, 1);
    const eicar = await writeEicar(join(files, 'eicar.com'));
    const records = await scan(core, [clean!, eicar]);
    const installId = (await readFile(join(dir.path, 'data', 'install-id'), 'utf8')).trim();

    const byPath = new Map(records.map((record) => [record.path, record]));
    expect(byPath.get(clean!)).toMatchObject({ status: 'completed', safe: true, mode: 'sync', origin: 'cli', reusedFromId: null, error: null });
    expect(byPath.get(eicar)).toMatchObject({ status: 'completed', safe: false, mode: 'sync' });
    expect(byPath.get(eicar)!.findings.map((finding) => finding.name)).toContain('EICAR-Test-File');
    for (const record of records) {
      expect(record.externalReferenceId).toBe(`verdict/${installId}/${record.id}`);
      expect(externalReferenceIdSchema.safeParse(record.externalReferenceId).success).toBe(true);
      expect(record.externalReferenceId).not.toContain(record.fileName);
      expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(record.backend).toBe(new URL(service.url).origin);
      const atService = await service.byReference(record.externalReferenceId);
      expect(atService.status).toBe(200);
      expect(atService.body).toMatchObject({ id: record.serviceScanId, execution_mode: 'sync', status: 'completed' });
    }
    expect(service.scanCount()).toBe(2);
    expect(await core.scans.counts()).toEqual({ ok: true, value: { queued: 0, uploading: 0, processing: 0 } });
  });

  it('scans background work in async mode and follows it by polling until terminal', async () => {
    const { core, events } = await start({ serviceOptions: { scanDelayMs: 300 } });
    const files = await writeFiles(await filesDir(), 3);
    const records = await scan(core, files, { origin: 'watch' });
    for (const record of records) {
      expect(record).toMatchObject({ status: 'completed', safe: true, mode: 'async', origin: 'watch' });
      expect((await service.byReference(record.externalReferenceId)).body).toMatchObject({ execution_mode: 'async', status: 'completed' });
    }
    const statuses = events.flatMap((event) => (event.type === 'record' && event.record.id === records[0]!.id ? [event.record.status] : []));
    expect(statuses).toEqual(expect.arrayContaining(['queued', 'uploading', 'processing', 'completed']));
    expect(statuses.indexOf('processing')).toBeLessThan(statuses.indexOf('completed'));
    expect(core.backendStats().polls).toBeGreaterThanOrEqual(3);
    const counts = () => events.flatMap((event) => (event.type === 'counts' ? [event.counts] : []));
    expect(counts().some((value) => value.processing > 0)).toBe(true);
    await until(() => JSON.stringify(counts().at(-1)) === JSON.stringify({ queued: 0, uploading: 0, processing: 0 }), 'counts back to zero');
  });

  it('honours the mode choice: settings async forces async, a per-submission sync choice wins for the watcher', async () => {
    const { core } = await start();
    const files = await writeFiles(await filesDir(), 2);
    expect((await core.settings.update({ mode: 'async' })).ok).toBe(true);
    const [forcedAsync] = await scan(core, [files[0]!], { origin: 'drop' });
    expect(forcedAsync).toMatchObject({ mode: 'async', status: 'completed' });
    const [watchedSync] = await scan(core, [files[1]!], { origin: 'watch', mode: 'sync' });
    expect(watchedSync).toMatchObject({ mode: 'sync', status: 'completed' });
  });

  it('continues a sync scan that times out (408) with GET /file-scans/{id}, never resubmitting', async () => {
    const { core, proxy } = await start({ serviceOptions: { syncWindowMs: 100, scanDelayMs: 700 }, proxy: true });
    const [file] = await writeFiles(await filesDir(), 1);
    const [record] = await scan(core, [file!], { origin: 'drop' });
    expect(record).toMatchObject({ status: 'completed', safe: true, mode: 'sync' });
    expect(proxy!.count({ method: 'POST' })).toBe(1);
    expect(proxy!.count({ method: 'GET', path: `/file-scans/${record!.serviceScanId}` })).toBeGreaterThanOrEqual(1);
    expect(service.scanCount()).toBe(1);
  });

  it('reports upload progress up to the whole body', async () => {
    const { core, events } = await start();
    const path = join(await filesDir(), 'big.bin');
    await writeFile(path, Buffer.alloc(3 * 1024 * 1024, 7));
    const [record] = await scan(core, [path]);
    const progress = events.flatMap((event) => (event.type === 'progress' && event.progress.id === record!.id ? [event.progress] : []));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)!.sent).toBe(progress.at(-1)!.total);
    expect(progress.at(-1)!.total).toBeGreaterThan(3 * 1024 * 1024);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.sent).toBeGreaterThanOrEqual(progress[i - 1]!.sent);
  });

  it('reuses the verdict of identical content instead of uploading, and scans again when forced', async () => {
    const { core, proxy } = await start({ proxy: true });
    const files = await filesDir();
    const eicar = await writeEicar(join(files, 'first.com'));
    const [first] = await scan(core, [eicar]);
    expect(first).toMatchObject({ status: 'completed', safe: false });
    const copy = join(files, 'copy-with-another-name.com');
    await copyFile(eicar, copy);
    const postsBefore = proxy!.count({ method: 'POST' });

    const [reused] = await scan(core, [copy], { origin: 'drop' });
    expect(reused).toMatchObject({ status: 'completed', safe: false, reusedFromId: first!.id, serviceScanId: null, detailed: first!.detailed });
    expect(reused!.findings).toEqual(first!.findings);
    expect(proxy!.count({ method: 'POST' })).toBe(postsBefore);
    expect((await service.byReference(reused!.externalReferenceId)).status).toBe(404);

    const again = await core.scans.rescan(reused!.id);
    expect(again).toEqual({ ok: true, value: { queued: 1 } });
    await core.idle();
    const rescanned = (await core.scans.list({ order: 'newest', limit: 1 })) as { ok: true; value: { items: ScanRecord[] } };
    expect(rescanned.value.items[0]).toMatchObject({ origin: 'rescan', status: 'completed', safe: false, reusedFromId: null, path: copy });
    expect(proxy!.count({ method: 'POST' })).toBe(postsBefore + 1);

    // Reuse switched off: identical content is uploaded again.
    expect((await core.settings.update({ reuseVerdictDays: 0 })).ok).toBe(true);
    const [fresh] = await scan(core, [eicar]);
    expect(fresh!.reusedFromId).toBeNull();
    expect(proxy!.count({ method: 'POST' })).toBe(postsBefore + 2);
    expect(service.scanCount()).toBe(3);
  });

  it('uploads identical files of one batch once; the others take its verdict', async () => {
    const { core } = await start({ tuning: { concurrency: 3 } });
    const files = await filesDir();
    const paths: string[] = [];
    for (let i = 0; i < 6; i++) {
      const path = join(files, `same-${i}.txt`);
      await writeFile(path, 'identical content\n');
      paths.push(path);
    }
    const records = await scan(core, paths);
    expect(records.every((record) => record.status === 'completed' && record.safe === true)).toBe(true);
    expect(records.filter((record) => record.reusedFromId === null)).toHaveLength(1);
    expect(service.scanCount()).toBe(1);
    // The client hashes sha256 alone; md5 and sha1 come from the service's answer, and reused verdicts copy them.
    const content = Buffer.from('identical content\n');
    const expected = { md5: createHash('md5').update(content).digest('hex'), sha1: createHash('sha1').update(content).digest('hex'), sha256: createHash('sha256').update(content).digest('hex') };
    for (const record of records) expect({ md5: record.md5, sha1: record.sha1, sha256: record.sha256 }).toEqual(expected);
  });

  it('rejects a file over 100 MB locally (nothing sent) and sends a file over the sync limit async', async () => {
    const { core, proxy } = await start({ proxy: true });
    const files = await filesDir();
    const huge = join(files, 'huge.bin');
    await writeFile(huge, '');
    await truncate(huge, MAX_ASYNC_FILE_SIZE + 1);
    const overSync = join(files, 'over-sync.bin');
    await writeFile(overSync, '');
    await truncate(overSync, MAX_SYNC_FILE_SIZE + 1);

    const [tooBig, large] = await scan(core, [huge, overSync], { origin: 'drop', mode: 'sync' });
    expect(tooBig).toMatchObject({ status: 'failed', safe: null });
    expect(tooBig!.error!.code).toBe('too_large');
    expect(tooBig!.error!.message).toMatch(/100 MB/);
    expect(large).toMatchObject({ status: 'completed', mode: 'async', size: MAX_SYNC_FILE_SIZE + 1 });
    expect(proxy!.count({ method: 'POST' })).toBe(1);
    expect(proxy!.count({ method: 'POST', path: '/file-scans/sync' })).toBe(0);
  });

  it('fails a file the service refuses as too large (413) with the service message', async () => {
    const { core, proxy } = await start({ proxy: true });
    proxy!.addRule({
      method: 'POST',
      fault: { kind: 'status', status: 413, body: { code: 'file_too_large', message: 'The file is larger than 10 MB, the limit of this service.' } },
    });
    const [file] = await writeFiles(await filesDir(), 1);
    const [record] = await scan(core, [file!]);
    expect(record).toMatchObject({ status: 'failed', error: { code: 'file_too_large', message: 'The file is larger than 10 MB, the limit of this service.' } });
  });

  it('retries after 503 and 429 (Retry-After in seconds and as a date) and ends with exactly one scan per file', async () => {
    const { core, proxy } = await start({ proxy: true });
    proxy!.addRule({ method: 'POST', nth: 1, fault: { kind: 'status', status: 503, retryAfter: 0 } });
    proxy!.addRule({ method: 'POST', nth: 2, fault: { kind: 'status', status: 429, retryAfter: new Date(Date.now() + 500) } });
    proxy!.addRule({ method: 'POST', nth: 3, fault: { kind: 'status', status: 502 } });
    proxy!.addRule({ method: 'POST', nth: 4, fault: { kind: 'reset-during-response' } });
    const files = await writeFiles(await filesDir(), 3);
    const records = await scan(core, files);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'completed', safe: true, pendingReason: null, error: null });
      expect((await service.byReference(record.externalReferenceId)).status).toBe(200);
    }
    expect(proxy!.count({ method: 'POST', faulted: true })).toBe(4);
    expect(service.scanCount()).toBe(3);
  });

  it('keeps files queued with a stated reason while the service is down, and completes them when it is back', async () => {
    const { core, proxy } = await start({ proxy: true, tuning: { clientRetry: { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 2, deadlineMs: 1000 } } });
    await proxy!.down();
    const files = await writeFiles(await filesDir(), 4);
    const submitted = await core.submit(files, { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const waiting: ScanRecord[] = [];
    await until(async () => {
      const record = await core.scans.get(submitted.value.ids[0]!);
      if (record.ok && record.value.pendingReason === 'service_unreachable') waiting.push(record.value);
      return waiting.length > 0;
    }, 'a record waiting for the service');
    expect(waiting[0]).toMatchObject({ status: 'queued', safe: null, error: { code: 'network' } });
    await proxy!.up();
    await core.idle();
    for (const id of submitted.value.ids) {
      const record = await core.scans.get(id);
      expect(record.ok && record.value).toMatchObject({ status: 'completed', safe: true, pendingReason: null, error: null });
    }
    expect(service.scanCount()).toBe(4);
  });

  it('turns every rejected path into a failed row with a code, and keeps the queue moving', async () => {
    const { core } = await start();
    const files = await filesDir();
    const [good] = await writeFiles(files, 1);
    const records = await scan(core, [join(files, 'missing.txt'), files, good!]);
    const missing = records.find((record) => record.path.endsWith('missing.txt'));
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    // The folder expands to the good file, which intake yields once.
    expect(records.filter((record) => record.path === good && record.status === 'completed')).toHaveLength(records.length - 1);
  });
});
