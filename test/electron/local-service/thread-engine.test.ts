// The local engine path at the thread boundary (start-in-thread.ts scanFile, thread-protocol.ts
// scan-file): a file scanned by the service thread's live engine without HTTP, a call that is
// cancelled, "Scan with basic checks only" for a file waiting for ClamAV named by its reference,
// and a thread that dies under a waiting call. ClamAV is known here and gone (the live engine
// holds files for it); skipped when a system clamd answers.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import { EICAR_TEST_STRING as EICAR } from '../../../electron/engine/builtin-engine.ts';
import { writeKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { EngineThreadGoneError } from '../../../electron/local-service/thread/engine-calls.ts';
import { startLocalServiceInThread, type StartInThreadOptions } from '../../../electron/local-service/thread/start-in-thread.ts';
import { KEY_A, waitFor } from './harness.ts';

const CRASHING_ENTRY = new URL('./fixtures/crashing-service-thread.ts', import.meta.url);
const BASIC_CLEAN = 'clean (basic checks only; ClamAV not available)';

let dir: string;
let dataDir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-thread-engine-'));
  dataDir = join(dir, 'data');
  file = join(dir, 'plain.txt');
  await writeFile(file, 'nothing to see here\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** ClamAV known in the service's data dir and not answering; false (test skipped) when a system clamd answers. */
async function clamavGone(context: TestContext): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  if (answers.includes(true)) {
    context.skip();
    return false;
  }
  writeKnownClamav(dataDir, { source: 'system', where: 'unix:/run/clamav/clamd.ctl', at: '2026-11-20T10:00:00.000Z' });
  return true;
}

const options = (extra: Partial<StartInThreadOptions> = {}): StartInThreadOptions => ({
  apiKeys: [KEY_A],
  dataDir,
  engine: { kind: 'auto', waitLimitMs: 120_000, recheckMs: 100 },
  ...extra,
});

const request = (reference: string, basicOnly = false) => ({ path: file, size: 20, reference, basicOnly });

/** Whether the promise is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => false, () => false), delay(ms).then(() => true)]);
}

describe('the local engine path at the service thread', () => {
  it('waits for ClamAV, goes on with basic checks when its reference is named, is cancelled by its signal, and takes basic checks asked with the file', async (context) => {
    if (!(await clamavGone(context))) return;
    const service = await startLocalServiceInThread(options());
    try {
      const waiting = service.scanFile(request('ref-waits'), new AbortController().signal);
      expect(await pendingAfter(waiting, 300)).toBe(true);
      // The references of other files, and scan ids of the service, leave it waiting.
      service.allowBasicOnly(['ref-other']);
      expect(await pendingAfter(waiting, 200)).toBe(true);
      service.allowBasicOnly(['ref-waits']);
      expect(await waiting).toMatchObject({
        ok: true,
        result: { safe: true, detailed: BASIC_CLEAN, findings: [] },
        engine: { name: 'builtin' },
        fileType: 'text/plain',
        fileHash: expect.objectContaining({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
        sizeNow: 20,
      });

      const controller = new AbortController();
      const cancelled = service.scanFile(request('ref-cancelled'), controller.signal);
      expect(await pendingAfter(cancelled, 200)).toBe(true);
      controller.abort(new Error('the user stopped it'));
      await expect(cancelled).rejects.toThrow('the user stopped it');

      // Asked with the file: the built-in engine answers at once.
      expect(await service.scanFile(request('ref-basic', true), new AbortController().signal)).toMatchObject({ ok: true, result: { detailed: BASIC_CLEAN } });
    } finally {
      await service.close();
    }
    // After close: no thread to ask.
    await expect(service.scanFile(request('ref-late', true), new AbortController().signal)).rejects.toBeInstanceOf(EngineThreadGoneError);
  });

  // The app gives a small file's bytes up with the call: they move to the thread (engine-calls.ts sendable), are
  // scanned there as they were, and a Buffer from Node's pool, which cannot move, is copied and stays the caller's.
  it('moves the bytes the app hands over to the thread, and copies those that cannot move; each is scanned as it was', async () => {
    const service = await startLocalServiceInThread(options({ engine: { kind: 'builtin' } }));
    try {
      const eicar = Buffer.allocUnsafeSlow(EICAR.length + 1).fill(0);
      eicar.write(EICAR);
      const moved = eicar.subarray(0, EICAR.length);
      const pooled = Buffer.from('nothing to see here\n');
      expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
      const [threat, clean] = await Promise.all([
        service.scanFile({ ...request('ref-moved'), size: moved.length, content: moved }, new AbortController().signal),
        service.scanFile({ ...request('ref-pooled'), content: pooled }, new AbortController().signal),
      ]);
      expect(threat).toMatchObject({ ok: true, result: { safe: false, findings: [expect.objectContaining({ name: expect.stringContaining('EICAR') })] }, fileType: 'text/plain' });
      expect(clean).toMatchObject({ ok: true, result: { safe: true }, fileType: 'text/plain' });
      // Moved: the app's buffer is detached. Copied: still the caller's, unchanged.
      expect(eicar.buffer.byteLength).toBe(0);
      expect(pooled.toString()).toBe('nothing to see here\n');
      // Bytes already given up are refused, never scanned as an empty file.
      await expect(service.scanFile({ ...request('ref-again'), size: EICAR.length, content: moved }, new AbortController().signal)).rejects.toThrow(/handed over already/);
      // Two views on one buffer in the same turn: it moves with the first, the second is copied; both scanned as they were.
      const shared = Buffer.allocUnsafeSlow(EICAR.length + 8).fill(0x20);
      shared.write(EICAR);
      const [first, second] = await Promise.all([
        service.scanFile({ ...request('ref-first'), size: EICAR.length, content: shared.subarray(0, EICAR.length) }, new AbortController().signal),
        service.scanFile({ ...request('ref-second'), size: 8, content: shared.subarray(EICAR.length, EICAR.length + 8) }, new AbortController().signal),
      ]);
      expect(first).toMatchObject({ ok: true, result: { safe: false } });
      expect(second).toMatchObject({ ok: true, result: { safe: true } });
    } finally {
      await service.close();
    }
  });

  it('fails the calls a thread held when it dies; its restarted thread answers the next', async (context) => {
    if (!(await clamavGone(context))) return;
    await writeFile(join(dir, 'crash-once'), '');
    const service = await startLocalServiceInThread(options({ threadEntry: CRASHING_ENTRY, logger: { info() {}, warn() {}, error() {} } }));
    try {
      const held = service.scanFile(request('ref-held'), new AbortController().signal);
      await expect(held).rejects.toBeInstanceOf(EngineThreadGoneError);
      const answer = await waitFor(
        () => service.scanFile(request('ref-again', true), new AbortController().signal).catch((error: unknown) => (error instanceof EngineThreadGoneError ? null : Promise.reject(error))),
        'the restarted thread to answer',
      );
      expect(answer).toMatchObject({ ok: true, result: { safe: true, detailed: BASIC_CLEAN } });
    } finally {
      await service.close();
    }
  });
});
