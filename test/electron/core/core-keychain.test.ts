// The key path through the core against a real, private gnome-keyring: a wrong
// key pauses the queue (records stay queued, nothing fails), a valid key set
// through settings.setApiKey resumes it, keys are replaced and deleted, and no
// key appears in any file under the data directory, the logs or the events.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanEvent } from '../../../shared/scans/record.ts';
import { createCore } from '../../../electron/core/create-core.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { FAST, startTestService, tempDir, until, writeFiles, type TestService } from '../scans/harness.ts';

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  dir = await tempDir('verdict-core-key-');
  service = await startTestService(join(dir.path, 'service'));
});
afterAll(async () => {
  await service?.close();
  await keyring?.stop();
  await dir?.remove();
});

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

describe.runIf(canRun)('core with the OS keychain', () => {
  it('waits for a valid key, resumes when one is set, and never writes a key anywhere', async () => {
    const dataDir = join(dir.path, 'data');
    const wrongKey = 'wrong-key-0123456789-abcdef';
    const core = await createCore({ dataDir, keychainService: `verdict-core-test-${process.pid}` }, FAST);
    const events: ScanEvent[] = [];
    core.onEvent((event) => events.push(event));
    try {
      expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: service.url } })).ok).toBe(true);
      expect(await core.settings.keyStatus()).toEqual({ ok: true, value: { isSet: false, masked: null, keychainError: null } });

      const stored = await core.settings.setApiKey(`  ${wrongKey}\n`);
      expect(stored).toEqual({ ok: true, value: { isSet: true, masked: '••••••••cdef', keychainError: null } });
      // The backend is rebuilt after the settings change (the embedded service stops first): wait for it.
      await until(async () => {
        const report = await core.settings.testConnection();
        return report.ok && report.value.reachable;
      }, 'the remote backend to be in use');
      expect(await core.settings.testConnection()).toMatchObject({ ok: true, value: { reachable: true, authorized: false } });

      const files = await writeFiles(join(dir.path), 5, 'keyed');
      // The user agreed to send them (a manual scan to a remote service asks first).
      const submitted = await core.submit(files, { origin: 'drop', uploadConsent: new URL(service.url).origin });
      if (!submitted.ok) throw new Error(submitted.error.message);
      await until(async () => {
        const records = await Promise.all(submitted.value.ids.map((id) => core.scans.get(id)));
        return records.every((record) => record.ok && record.value.status === 'queued' && record.value.pendingReason === 'awaiting_api_key');
      }, 'every record waiting for a valid key');
      expect(core.pipelineState().paused).toBe('awaiting_api_key');
      expect(service.scanCount()).toBe(0);

      // Replacing the key resumes the queue.
      expect(await core.settings.setApiKey(service.key)).toMatchObject({ ok: true, value: { isSet: true } });
      await core.idle();
      for (const id of submitted.value.ids) {
        expect(await core.scans.get(id)).toMatchObject({ ok: true, value: { status: 'completed', safe: true, backend: new URL(service.url).origin } });
      }
      expect(await core.settings.testConnection()).toMatchObject({ ok: true, value: { reachable: true, authorized: true } });

      expect(await core.settings.clearApiKey()).toEqual({ ok: true, value: { isSet: false, masked: null, keychainError: null } });
      expect(await core.settings.keyStatus()).toMatchObject({ ok: true, value: { isSet: false } });
    } finally {
      await core.close();
    }

    for (const file of await filesUnder(dataDir)) {
      const content = await readFile(file);
      for (const key of [wrongKey, service.key]) expect(content.includes(key), `${key} in ${file}`).toBe(false);
    }
    const payloads = JSON.stringify(events);
    expect(payloads).not.toContain(wrongKey);
    expect(payloads).not.toContain(service.key);
  });
});
