// The core's backstop for uploads to a remote service (a second real local
// service, configured in the settings as the remote one, its key in a private
// gnome-keyring): a manual scan without the user's consent waits as
// `awaiting_upload_consent` and nothing reaches the service; consent given with
// the submission, afterwards for chosen scans, or remembered per host lets it go.
// A scheduled scan asks as a manual one does; watched folders and the built-in engine never ask.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { FAST, startTestService, tempDir, until, writeFiles, type TestService } from '../scans/harness.ts';

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let core: CoreInternals;
let origin: string;

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  dir = await tempDir('verdict-core-consent-');
  service = await startTestService(join(dir.path, 'service'));
  origin = new URL(service.url).origin;
  core = await createCore({ dataDir: join(dir.path, 'data'), keychainService: `verdict-consent-test-${process.pid}` }, FAST);
  expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: service.url } })).ok).toBe(true);
  expect((await core.settings.setApiKey(service.key)).ok).toBe(true);
});
afterAll(async () => {
  await core?.close();
  await service?.close();
  await keyring?.stop();
  await dir?.remove();
});

/** `count` new files in a new folder under the test's temp dir. */
async function newFiles(name: string, count: number): Promise<string[]> {
  await mkdir(join(dir.path, name), { recursive: true });
  return writeFiles(join(dir.path, name), count, name);
}

async function get(id: string): Promise<ScanRecord> {
  const record = await core.scans.get(id);
  if (!record.ok) throw new Error(record.error.message);
  return record.value;
}

const waitingForConsent = async (id: string) => {
  const record = await get(id);
  return record.status === 'queued' && record.pendingReason === 'awaiting_upload_consent';
};

describe.runIf(canRun)('upload consent for a remote service', () => {
  it('holds a manual scan without consent: nothing is sent until the user agrees to exactly these files', async () => {
    const before = service.scanCount();
    const files = await newFiles('held', 2);
    const submitted = await core.scans.submit(files);
    expect(submitted).toMatchObject({ ok: true, value: { queued: 2 } });
    await until(async () => {
      const held = await core.scans.list({ pendingReasons: ['awaiting_upload_consent'] });
      return held.ok && held.value.total === 2;
    }, 'both files to wait for consent');
    const ids = await core.scans.list({ pendingReasons: ['awaiting_upload_consent'], order: 'oldest' });
    if (!ids.ok) throw new Error(ids.error.message);
    const [first, second] = ids.value.items;
    expect(first).toMatchObject({ submittedAt: null, serviceScanId: null });
    expect(service.scanCount()).toBe(before);

    // Consent for another origin does not count.
    expect(await core.scans.allowUpload([first!.id], 'https://elsewhere.example.com')).toEqual({ ok: true, value: { released: 1 } });
    await until(() => waitingForConsent(first!.id), 'the first file to wait again');
    expect(service.scanCount()).toBe(before);

    // Consent for the first file only.
    expect(await core.scans.allowUpload([first!.id], origin)).toEqual({ ok: true, value: { released: 1 } });
    await until(async () => (await get(first!.id)).status === 'completed', 'the first file to be scanned');
    expect(await get(first!.id)).toMatchObject({ backend: origin, safe: true });
    expect(await waitingForConsent(second!.id)).toBe(true);
    expect(service.scanCount()).toBe(before + 1);

    // "Don't ask again" for this host: what waits goes on, and the next manual scan does not wait.
    expect((await core.settings.update({ remoteUploadConsentHosts: [origin] })).ok).toBe(true);
    await until(async () => (await get(second!.id)).status === 'completed', 'the second file to be scanned');
    const [later] = await newFiles('later', 1);
    const again = await core.submit([later!], { origin: 'drop' });
    if (!again.ok) throw new Error(again.error.message);
    await until(async () => (await get(again.value.ids[0]!)).status === 'completed', 'a later file to be scanned without asking');
    expect((await core.settings.update({ remoteUploadConsentHosts: [] })).ok).toBe(true);
  });

  it('sends at once when the consent comes with the submission (the renderer asked first), and for a rescan with consent', async () => {
    const before = service.scanCount();
    const [file] = await newFiles('asked', 1);
    const submitted = await core.submit([file!], { origin: 'dialog', uploadConsent: origin });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.idle();
    const record = await get(submitted.value.ids[0]!);
    expect(record).toMatchObject({ status: 'completed', safe: true, backend: origin });
    expect(service.scanCount()).toBe(before + 1);

    const rescan = await core.scans.rescan(record.id, { consent: origin });
    expect(rescan).toMatchObject({ ok: true, value: { queued: 1 } });
    await core.idle();
    expect(service.scanCount()).toBe(before + 2);
  });

  it('never asks for a watched folder or the command line, nor when asking is turned off', async () => {
    const before = service.scanCount();
    const files = await newFiles('auto', 2);
    const watch = await core.submit([files[0]!], { origin: 'watch' });
    const cli = await core.submit([files[1]!], { origin: 'cli' });
    if (!watch.ok || !cli.ok) throw new Error('not queued');
    await core.idle();
    expect(await get(watch.value.ids[0]!)).toMatchObject({ status: 'completed' });
    expect(await get(cli.value.ids[0]!)).toMatchObject({ status: 'completed' });
    expect(service.scanCount()).toBe(before + 2);

    expect((await core.settings.update({ confirmRemoteUploads: false })).ok).toBe(true);
    const [manual] = await newFiles('unasked', 1);
    const submitted = await core.submit([manual!], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.idle();
    expect(await get(submitted.value.ids[0]!)).toMatchObject({ status: 'completed' });
    expect((await core.settings.update({ confirmRemoteUploads: true })).ok).toBe(true);
  });

  it('holds a scheduled scan too (whole folders, no one there to choose) until the host is agreed to', async () => {
    const before = service.scanCount();
    const [file] = await newFiles('scheduled', 1);
    const submitted = await core.submit([file!], { origin: 'schedule' });
    if (!submitted.ok) throw new Error('not queued');
    const id = submitted.value.ids[0]!;
    await until(() => waitingForConsent(id), 'the scheduled scan waits for consent');
    expect(service.scanCount()).toBe(before);
    expect((await core.scans.allowUpload([id], origin)).ok).toBe(true);
    await until(async () => (await get(id)).status === 'completed', 'the scheduled scan is sent once agreed to');
  });

  it('a held scan goes to the built-in engine without asking when the user switches back to it', async () => {
    const [file] = await newFiles('switch', 1);
    const submitted = await core.submit([file!], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await until(() => waitingForConsent(submitted.value.ids[0]!), 'the file to wait for consent');
    expect((await core.settings.update({ backend: { kind: 'local' } })).ok).toBe(true);
    await until(async () => (await get(submitted.value.ids[0]!)).status === 'completed', 'the file to be scanned locally');
    expect(await get(submitted.value.ids[0]!)).toMatchObject({ backend: 'local', safe: true });
  });
});
