// Each watched folder chooses its backend (issue 8): a folder kept on the built-in
// engine is scanned there even when the default is a remote service, and its files
// never reach that service; a folder set to `remote` sends there while the default
// is local. Each service pauses on its own: a remote service without a key holds
// only its own files. Real core, real embedded service, a second real service on
// loopback as "the remote", a private gnome-keyring.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { FAST, startTestService, tempDir, until, writeFiles, type TestService } from '../scans/harness.ts';

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let dir: Awaited<ReturnType<typeof tempDir>>;
let remote: TestService;
let run = 0;

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  dir = await tempDir('verdict-folder-backend-');
  remote = await startTestService(join(dir.path, 'remote-service'));
});
afterAll(async () => {
  await remote?.close();
  await keyring?.stop();
  await dir?.remove();
});

async function openCore(): Promise<{ core: CoreInternals; root: string }> {
  run++;
  const root = join(dir.path, `run-${run}`);
  await mkdir(join(root, 'private'), { recursive: true });
  await mkdir(join(root, 'downloads'), { recursive: true });
  const core = await createCore({ dataDir: join(root, 'data'), keychainService: `verdict-folder-backend-${process.pid}-${run}` }, FAST);
  return { core, root };
}

async function records(core: CoreInternals, ids: string[]): Promise<ScanRecord[]> {
  return Promise.all(
    ids.map(async (id) => {
      const record = await core.scans.get(id);
      if (!record.ok) throw new Error(record.error.message);
      return record.value;
    }),
  );
}

async function submit(core: CoreInternals, paths: string[]): Promise<string[]> {
  const submitted = await core.submit(paths, { origin: 'cli' });
  if (!submitted.ok) throw new Error(submitted.error.message);
  return submitted.value.ids;
}

describe.runIf(canRun)('a backend per watched folder', () => {
  it('keeps a local folder on the built-in engine while the remote default waits for its key', async () => {
    const { core, root } = await openCore();
    const remoteOrigin = new URL(remote.url).origin;
    try {
      expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: remote.url } })).ok).toBe(true);
      // The remote chosen as default is remembered for folders set to `remote`.
      expect(await core.settings.get()).toMatchObject({ ok: true, value: { remoteBaseUrl: remote.url } });
      const added = await core.watch.add({ path: join(root, 'private'), backend: 'local' });
      expect(added.ok).toBe(true);
      expect((await core.settings.get()).ok && (await core.settings.get())).toMatchObject({ value: { watchedFolders: [{ backend: 'local' }] } });

      const before = remote.scanCount();
      const privateIds = await submit(core, await writeFiles(join(root, 'private'), 4, 'private'));
      const otherIds = await submit(core, await writeFiles(join(root, 'downloads'), 3, 'download'));

      // No key for the remote: only its files wait; the private folder's are scanned locally.
      await until(async () => (await records(core, privateIds)).every((record) => record.status === 'completed'), 'the private files to be scanned');
      await until(
        async () => (await records(core, otherIds)).every((record) => record.status === 'queued' && record.pendingReason === 'awaiting_api_key'),
        'the other files to wait for a key',
      );
      for (const record of await records(core, privateIds)) expect(record).toMatchObject({ backend: 'local', safe: true });
      expect(core.pipelineState().pausedLanes).toEqual({ [remoteOrigin]: 'awaiting_api_key' });
      expect(remote.scanCount()).toBe(before);

      // With a key the remote's files go on; the private files were never sent there.
      expect((await core.settings.setApiKey(remote.key)).ok).toBe(true);
      await core.idle();
      for (const record of await records(core, otherIds)) expect(record).toMatchObject({ status: 'completed', backend: remoteOrigin });
      expect(remote.scanCount()).toBe(before + otherIds.length);
      for (const record of await records(core, privateIds)) {
        expect((await remote.byReference(record.externalReferenceId)).status).toBe(404);
      }
    } finally {
      await core.close();
    }
  });

  it('sends a folder set to remote there while the default stays local, once a remote is set up', async () => {
    const { core, root } = await openCore();
    const remoteOrigin = new URL(remote.url).origin;
    try {
      const downloads = join(root, 'downloads');
      expect((await core.watch.add({ path: downloads, backend: 'remote' })).ok).toBe(true);
      const localIds = await submit(core, await writeFiles(join(root, 'private'), 2, 'local'));
      const remoteIds = await submit(core, await writeFiles(downloads, 3, 'remote'));

      // No remote service set up yet: the folder's files say so; the rest is scanned locally.
      await until(
        async () => (await records(core, remoteIds)).every((record) => record.status === 'queued' && record.pendingReason === 'backend_unavailable'),
        'the folder files to wait for a remote service',
      );
      await until(async () => (await records(core, localIds)).every((record) => record.status === 'completed'), 'the local files to be scanned');
      for (const record of await records(core, localIds)) expect(record.backend).toBe('local');

      // Setting the address (the default stays local) and its key routes them there.
      expect((await core.settings.update({ remoteBaseUrl: remote.url })).ok).toBe(true);
      expect(await core.settings.get()).toMatchObject({ ok: true, value: { backend: { kind: 'local' } } });
      await until(
        async () => (await records(core, remoteIds)).every((record) => record.pendingReason === 'awaiting_api_key'),
        'the folder files to wait for the remote key',
      );
      expect((await core.settings.setApiKey(remote.key)).ok).toBe(true);
      await core.idle();
      for (const record of await records(core, remoteIds)) {
        expect(record).toMatchObject({ status: 'completed', backend: remoteOrigin });
        expect((await remote.byReference(record.externalReferenceId)).status).toBe(200);
      }

      // Switching the folder back to the built-in engine sends its next file there.
      const folderId = (await core.watch.list()).ok ? ((await core.watch.list()) as { value: Array<{ folder: { id: string } }> }).value[0]!.folder.id : '';
      expect((await core.watch.update(folderId, { backend: 'local' })).ok).toBe(true);
      const [again] = await submit(core, await writeFiles(downloads, 1, 'after-switch'));
      await core.idle();
      expect((await records(core, [again!]))[0]).toMatchObject({ status: 'completed', backend: 'local' });
    } finally {
      await core.close();
    }
  });
});
