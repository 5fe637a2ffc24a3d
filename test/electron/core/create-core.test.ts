import { DatabaseSync } from 'node:sqlite';
// The core facade: every method answers with a Result; the embedded local
// service is the default backend; a settings change moves the backend without
// another code path; test connection makes a real request; close() stops all.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { createCore } from '../../../electron/core/create-core.ts';
import { DataDirInUseError } from '../../../electron/core/data-dir-lock.ts';
import { FAST, startTestService, until, writeEicar, writeFiles } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, open, onCleanup } = useCoreFixture('verdict-core-');

async function folder(name = 'files') {
  const path = join(dir.path, name);
  await mkdir(path, { recursive: true });
  return path;
}

/** A loopback port nobody listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('createCore', () => {
  it('scans through the embedded local service by default (a fresh loopback port and key)', async () => {
    const core = await open();
    expect(core.localServiceUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const files = await folder();
    const [clean] = await writeFiles(files, 1);
    const eicar = await writeEicar(join(files, 'eicar.com'));
    const submitted = await core.submit([clean!, eicar], { origin: 'drop' });
    expect(submitted.ok && submitted.value.queued).toBe(2);
    await core.idle();
    const list = await core.scans.list({ order: 'oldest' });
    if (!list.ok) throw new Error(list.error.message);
    expect(list.value.total).toBe(2);
    const [a, b] = list.value.items as [ScanRecord, ScanRecord];
    expect(a).toMatchObject({ backend: 'local', status: 'completed', safe: true, mode: 'sync' });
    expect(b).toMatchObject({ backend: 'local', status: 'completed', safe: false });
    const report = await core.settings.testConnection();
    expect(report).toMatchObject({ ok: true, value: { reachable: true, authorized: true } });
  });

  it('answers every call with a Result, never a throw', async () => {
    const core = await open();
    expect(await core.scans.get('no-such-id')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.scans.rescan('no-such-id')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.scans.list({ limit: -5 } as never)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await core.submit([''], { origin: 'drop' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await core.submit(['/x'], { origin: 'drop', mode: 'fast' as never })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await core.settings.update({ reuseVerdictDays: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_settings' } });
    expect(await core.settings.update({ backend: { kind: 'remote', baseUrl: 'ftp://example.com' } })).toMatchObject({ ok: false });
    expect(await core.settings.setApiKey('has a space in it')).toMatchObject({ ok: false, error: { code: 'invalid_api_key' } });
    expect(await core.watch.remove('nope')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.watch.add({ path: '' } as never)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const language = await core.settings.systemLanguage();
    expect(language.ok && ['en', 'de'].includes(language.value)).toBe(true);
    expect(await core.scans.counts()).toEqual({ ok: true, value: { queued: 0, uploading: 0, processing: 0 } });
    const settings = await core.settings.get();
    expect(settings.ok && settings.value.backend).toEqual({ kind: 'local' });
    // A patch changes only what it names (zod would fill the defaults of the rest).
    expect((await core.settings.update({ mode: 'async', language: 'de' })).ok).toBe(true);
    const updated = await core.settings.update({ notifyClean: true });
    expect(updated.ok && updated.value).toMatchObject({ mode: 'async', language: 'de', notifyClean: true });
  });

  it('moves to a remote backend when the settings change, and back', async () => {
    const service = await startTestService(join(dir.path, 'remote'));
    onCleanup(() => service.close());
    const core = await open(FAST, { serviceOverride: undefined });
    const [file] = await writeFiles(await folder(), 1);

    // Remote without a key: the queue waits for one, nothing fails.
    expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: service.url } })).ok).toBe(true);
    await until(() => core.localServiceUrl() === null, 'the embedded service to stop');
    const submitted = await core.submit([file!], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await until(async () => {
      const record = await core.scans.get(submitted.value.ids[0]!);
      return record.ok && record.value.pendingReason === 'awaiting_api_key';
    }, 'the record to wait for a key');
    const report = await core.settings.testConnection();
    expect(report).toMatchObject({ ok: true, value: { authorized: false } });

    // Back to local: the waiting record goes to the embedded service.
    expect((await core.settings.update({ backend: { kind: 'local' } })).ok).toBe(true);
    await core.idle();
    const record = await core.scans.get(submitted.value.ids[0]!);
    expect(record.ok && record.value).toMatchObject({ status: 'completed', backend: 'local', safe: true });
    expect(core.localServiceUrl()).not.toBeNull();
  });

  it('tests a connection for real: reachable and authorized, a wrong key, nobody listening, not a scanning service', async () => {
    const service = await startTestService(join(dir.path, 'remote'));
    onCleanup(() => service.close());
    const good = await open(FAST, { serviceOverride: { baseUrl: service.url, apiKey: service.key } });
    expect(await good.settings.testConnection()).toMatchObject({ ok: true, value: { reachable: true, authorized: true, problem: null } });
    await good.close();

    const wrong = await open(FAST, { serviceOverride: { baseUrl: service.url, apiKey: 'not-the-right-key' } });
    expect(await wrong.settings.testConnection()).toMatchObject({ ok: true, value: { reachable: true, authorized: false, problem: 'unauthorized' } });
    await wrong.close();

    const port = await deadPort();
    const nobody = await open({ ...FAST, clientRetry: { maxAttempts: 1 } }, { serviceOverride: { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'whatever-key-1234' } });
    const unreachable = await nobody.settings.testConnection();
    expect(unreachable).toMatchObject({ ok: true, value: { reachable: false, authorized: false, latencyMs: null, problem: 'unreachable' } });
    expect(unreachable.ok && unreachable.value.message).toMatch(/connection refused/);
    await nobody.close();

    // A web server that answers HTML is not a File Scanning Service.
    const { createServer: createHttpServer } = await import('node:http');
    const html = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise((resolve) => html.close(resolve)));
    const htmlPort = (html.address() as { port: number }).port;
    const web = await open(FAST, { serviceOverride: { baseUrl: `http://127.0.0.1:${htmlPort}`, apiKey: 'whatever-key-1234' } });
    const notService = await web.settings.testConnection();
    // The headline says so (not "the key was not accepted").
    expect(notService).toMatchObject({ ok: true, value: { reachable: true, authorized: false, problem: 'not_a_service' } });
    expect(notService.ok && notService.value.message).toMatch(/base URL/);
    await web.close();

    // One that answers every request with a 200 HTML page (a router's login) is not one either.
    const login = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<form>password: <input></form>'));
    await new Promise<void>((resolve) => login.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise((resolve) => login.close(resolve)));
    const loginPort = (login.address() as { port: number }).port;
    const router = await open(FAST, { serviceOverride: { baseUrl: `http://127.0.0.1:${loginPort}`, apiKey: 'whatever-key-1234' } });
    const page = await router.settings.testConnection();
    expect(page).toMatchObject({ ok: true, value: { reachable: true, authorized: false, problem: 'not_a_service' } });
    expect(page.ok && page.value.message).toMatch(/not JSON \(text\/html\).*base URL/);
  });

  it('lets one core at a time use a data directory', async () => {
    await open();
    await expect(createCore({ dataDir: join(dir.path, 'data') }, FAST)).rejects.toBeInstanceOf(DataDirInUseError);
  });

  it('watches the folders in the settings and scans what lands there (origin watch, async)', async () => {
    const core = await open({ ...FAST, watch: true, watchSettleMs: 100 });
    const watched = await folder('watched');
    const changes: number[] = [];
    core.watch.onChange((statuses) => changes.push(statuses.length));
    const added = await core.watch.add({ path: watched });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.value[0]!.folder.path).toBe(watched);
    expect(await core.watch.add({ path: watched })).toMatchObject({ ok: false, error: { code: 'already_watched' } });
    await until(async () => {
      const list = await core.watch.list();
      return list.ok && list.value[0]?.state === 'watching';
    }, 'the folder to be watched');

    await writeFile(join(watched, 'landed.txt'), 'downloaded\n');
    let record: ScanRecord | undefined;
    await until(async () => {
      const list = await core.scans.list({ statuses: ['completed'] });
      record = list.ok ? list.value.items[0] : undefined;
      return record !== undefined;
    }, 'the watched file to be scanned');
    expect(record).toMatchObject({ origin: 'watch', mode: 'async', safe: true, fileName: 'landed.txt' });
    expect(changes.length).toBeGreaterThan(0);

    const paused = await core.watch.setAllPaused(true);
    expect(paused.ok && paused.value[0]!.state).toBe('paused');
    const removed = await core.watch.remove(added.value[0]!.folder.id);
    expect(removed).toEqual({ ok: true, value: [] });
  });

  it('resumes unfinished scans after a restart, following them by their service id', async () => {
    const service = await startTestService(join(dir.path, 'remote'), { scanDelayMs: 600 });
    onCleanup(() => service.close());
    const override = { baseUrl: service.url, apiKey: service.key };
    const first = await open(FAST, { serviceOverride: override });
    const files = await writeFiles(await folder(), 3);
    const submitted = await first.submit(files, { origin: 'watch' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await until(async () => {
      const records = await Promise.all(submitted.value.ids.map((id) => first.scans.get(id)));
      return records.every((record) => record.ok && record.value.status === 'processing');
    }, 'every scan to be processing at the service');
    await first.close();

    const second = await open(FAST, { serviceOverride: override });
    await second.idle();
    for (const id of submitted.value.ids) {
      const record = await second.scans.get(id);
      expect(record.ok && record.value).toMatchObject({ status: 'completed', safe: true });
    }
    expect(service.scanCount()).toBe(3);
  });

  it('finishes scans left processing at the embedded service after a restart (nothing lost)', async () => {
    // Over HTTP: only the service keeps scans that outlive the app (the engine path rescans instead).
    const first = await open(FAST, { localService: { engine: 'builtin', scanDelayMs: 500, path: 'http' } });
    const files = await writeFiles(await folder(), 2);
    const submitted = await first.submit(files, { origin: 'watch' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await until(async () => {
      const records = await Promise.all(submitted.value.ids.map((id) => first.scans.get(id)));
      return records.every((record) => record.ok && record.value.status === 'processing' && record.value.serviceScanId !== null);
    }, 'both scans to be processing');

    const serviceIds = await Promise.all(submitted.value.ids.map(async (id) => {
      const record = await first.scans.get(id);
      return record.ok ? record.value.serviceScanId : null;
    }));
    await first.close();

    // The embedded service gets a new key on every start; its scans must still be found.
    const second = await open(FAST, { localService: { engine: 'builtin', scanDelayMs: 10, path: 'http' } });
    await second.idle();
    for (const [index, id] of submitted.value.ids.entries()) {
      expect(await second.scans.get(id)).toMatchObject({
        ok: true,
        value: { status: 'completed', safe: true, backend: 'local', serviceScanId: serviceIds[index] },
      });
    }
    // Kept while only the service knew their verdicts (the second core found them by reference); deleted once recorded.
    const left = () => {
      const db = new DatabaseSync(join(dir.path, 'data', 'local-service', 'local-service.sqlite'), { readOnly: true });
      try {
        return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
      } finally {
        db.close();
      }
    };
    await until(() => left() === 0, 'the recorded scans to be deleted');
  });

  it('scans files that landed in a watched folder while Verdict was closed', async () => {
    const tuning = { ...FAST, watch: true, watchSettleMs: 100 };
    const first = await open(tuning);
    const watched = await folder('watched');
    const added = await first.watch.add({ path: watched });
    if (!added.ok) throw new Error(added.error.message);
    await until(async () => {
      const list = await first.watch.list();
      return list.ok && list.value[0]?.state === 'watching';
    }, 'the folder to be watched');
    await first.close();

    await writeFile(join(watched, 'while-closed.txt'), 'arrived while the app was closed\n');
    const second = await open(tuning);
    await until(async () => {
      const list = await second.scans.list({ statuses: ['completed'] });
      return list.ok && list.value.items.some((record) => record.fileName === 'while-closed.txt' && record.origin === 'watch');
    }, 'the file that landed meanwhile to be scanned');
  });
});
