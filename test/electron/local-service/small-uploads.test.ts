// Small uploads are received into memory and scanned from there (see
// handlers/submit-scan.ts): a sync one never touches the disk unless its window
// passes, an async one is on disk before its 202, and a service stopped mid-scan
// forgets a sync scan (its client retries) but finishes an async one.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { EngineError, type EngineVerdict, type ScanEngine } from '../../../electron/engine/engine.ts';
import { SMALL_UPLOAD_BYTES } from '../../../electron/local-service/upload/receive-submission.ts';
import { getByReference, getScan, startTestService, submit, waitFor, waitForTerminal, type TestService } from './harness.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Records how each scan got its bytes; scans wait until release() (honouring abort). */
class RecordingEngine implements ScanEngine {
  readonly name = 'recording';
  readonly calls: Array<{ via: 'bytes' | 'file'; sha256: string | null }> = [];
  #open: boolean;
  #waiting: Array<() => void> = [];

  constructor(open = true) {
    this.#open = open;
  }

  release(): void {
    this.#open = true;
    for (const wake of this.#waiting.splice(0)) wake();
  }

  async scan(file: string, signal?: AbortSignal): Promise<EngineVerdict> {
    const { readFile } = await import('node:fs/promises');
    this.calls.push({ via: 'file', sha256: sha256(await readFile(file)) });
    return this.#verdict(signal);
  }

  async scanBytes(content: Buffer, signal?: AbortSignal): Promise<EngineVerdict> {
    this.calls.push({ via: 'bytes', sha256: sha256(content) });
    return this.#verdict(signal);
  }

  async #verdict(signal?: AbortSignal): Promise<EngineVerdict> {
    if (!this.#open) {
      await new Promise<void>((resolve, reject) => {
        this.#waiting.push(resolve);
        signal?.addEventListener('abort', () => reject(new EngineError('engine_aborted', 'the scan was cancelled')), { once: true });
      });
    }
    return { safe: true, detailed: 'clean', findings: [] };
  }
}

const services: TestService[] = [];
const dirs: string[] = [];
const start = async (options: Parameters<typeof startTestService>[0]) => {
  const service = await startTestService(options);
  services.push(service);
  return service;
};
/** A data dir that outlives a service (startTestService's own is removed by close()). */
const lastingDataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-small-uploads-'));
  dirs.push(dir);
  return join(dir, 'data');
};
const stop = async (service: TestService) => {
  services.splice(services.indexOf(service), 1);
  await service.close();
};
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const uploads = (service: TestService) => readdir(join(service.dataDir, 'uploads'));

describe('small uploads', () => {
  it('scans a small sync upload from memory, the exact bytes, without writing it to disk', async () => {
    const engine = new RecordingEngine(false);
    const service = await start({ engine });
    const content = randomBytes(40_000);
    const answer = submit(service.url, { mode: 'sync', file: content, attributes: { file_name: 'small.bin', external_reference_id: 'small-1' } });
    await waitFor(async () => engine.calls.length > 0, 'the scan to start');
    // Processing, visible by reference, and nothing on disk.
    expect((await getByReference(service.url, 'small-1')).body.status).toBe('processing');
    expect(await uploads(service)).toEqual([]);
    expect(await readdir(join(service.dataDir, 'incoming'))).toEqual([]);
    engine.release();
    const done = terminalScanSchema.parse((await answer).body);
    expect(done.file_hash?.sha256).toBe(sha256(content));
    expect(engine.calls).toEqual([{ via: 'bytes', sha256: sha256(content) }]);
    expect(await uploads(service)).toEqual([]);
  });

  it('keeps an async upload on disk until it is scanned, so an accepted scan survives a restart', async () => {
    const engine = new RecordingEngine(false);
    const first = await start({ engine, dataDir: await lastingDataDir() });
    const content = randomBytes(20_000);
    const accepted = asyncSubmissionSchema.parse((await submit(first.url, { file: content, attributes: { file_name: 'a.bin' } })).body);
    await waitFor(async () => engine.calls.length > 0, 'the scan to start');
    expect(engine.calls[0]).toEqual({ via: 'bytes', sha256: sha256(content) });
    expect(await uploads(first)).toEqual([accepted.id]);
    // Stopped mid-scan: the next start scans it again, from its file.
    await stop(first);

    const engineAfter = new RecordingEngine();
    const second = await start({ engine: engineAfter, dataDir: first.dataDir });
    const done = terminalScanSchema.parse((await waitForTerminal(second.url, accepted.id)).body);
    expect(done.status).toBe('completed');
    expect(engineAfter.calls).toEqual([{ via: 'file', sha256: sha256(content) }]);
    await waitFor(async () => (await uploads(second)).length === 0, 'the upload to be deleted');
  });

  it('forgets a sync scan the service stopped during, so the same reference can be submitted again', async () => {
    const engine = new RecordingEngine(false);
    const first = await start({ engine, dataDir: await lastingDataDir() });
    const answer = submit(first.url, { mode: 'sync', file: randomBytes(5_000), attributes: { file_name: 's.bin', external_reference_id: 'retry-me' } }).catch(
      (error: unknown) => error,
    );
    await waitFor(async () => engine.calls.length > 0, 'the scan to start');
    await stop(first);
    // The client got no answer (the connection was closed).
    expect(await answer).toBeInstanceOf(Error);

    const second = await start({ engine: new RecordingEngine(), dataDir: first.dataDir });
    const lookedUp = await getByReference(second.url, 'retry-me');
    expect(lookedUp.status).toBe(404);
    const again = await submit(second.url, { mode: 'sync', file: randomBytes(5_000), attributes: { file_name: 's.bin', external_reference_id: 'retry-me' } });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('completed');
  });

  it('writes a sync upload to disk before answering 408, and finishes that scan after a restart', async () => {
    const engine = new RecordingEngine(false);
    const first = await start({ engine, syncWindowMs: 200, dataDir: await lastingDataDir() });
    const content = randomBytes(3_000);
    const timeout = await submit(first.url, { mode: 'sync', file: content, attributes: { file_name: 't.bin', external_reference_id: 'late-1' } });
    expect(timeout.status).toBe(408);
    const id = timeout.body.file_scan_id as string;
    expect(await uploads(first)).toEqual([id]);
    await stop(first);

    const engineAfter = new RecordingEngine();
    const second = await start({ engine: engineAfter, dataDir: first.dataDir });
    const done = terminalScanSchema.parse((await waitForTerminal(second.url, id)).body);
    expect(done).toMatchObject({ id, status: 'completed', external_reference_id: 'late-1' });
    expect(engineAfter.calls).toEqual([{ via: 'file', sha256: sha256(content) }]);
  });

  it('finishes a 408 scan in the same run, and removes its upload', async () => {
    const engine = new RecordingEngine(false);
    const service = await start({ engine, syncWindowMs: 200 });
    const timeout = await submit(service.url, { mode: 'sync', file: randomBytes(1_000), attributes: { file_name: 't.bin' } });
    expect(timeout.status).toBe(408);
    engine.release();
    const done = terminalScanSchema.parse((await waitForTerminal(service.url, timeout.body.file_scan_id as string)).body);
    expect(done.status).toBe('completed');
    await waitFor(async () => (await uploads(service)).length === 0, 'the upload to be deleted');
  });

  it('has an engine without scanBytes read the upload from disk, in both modes', async () => {
    const gated = new (class implements ScanEngine {
      readonly name = 'file-only';
      readonly seen: string[] = [];
      async scan(file: string): Promise<EngineVerdict> {
        this.seen.push(existsSync(file) ? 'present' : 'missing');
        return { safe: true, detailed: 'clean', findings: [] };
      }
    })();
    const service = await start({ engine: gated });
    expect((await submit(service.url, { mode: 'sync', file: 'hello' })).status).toBe(200);
    const accepted = asyncSubmissionSchema.parse((await submit(service.url, { file: 'hello again' })).body);
    await waitForTerminal(service.url, accepted.id);
    expect(gated.seen).toEqual(['present', 'present']);
  });

  it('keeps files up to the limit in memory and streams larger ones to disk, byte-exact either way', async () => {
    const engine = new RecordingEngine();
    const service = await start({ engine });
    const atLimit = randomBytes(SMALL_UPLOAD_BYTES);
    const overLimit = randomBytes(SMALL_UPLOAD_BYTES + 1);
    for (const content of [atLimit, overLimit]) {
      const done = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: content })).body);
      expect(done.file_hash?.sha256).toBe(sha256(content));
      expect(done.file_size).toBe(content.length);
    }
    expect(engine.calls).toEqual([
      { via: 'bytes', sha256: sha256(atLimit) },
      { via: 'file', sha256: sha256(overLimit) },
    ]);
    expect(await uploads(service)).toEqual([]);
    expect(await readdir(join(service.dataDir, 'incoming'))).toEqual([]);
  });

  it('answers a memory-only sync scan only once it is committed: a 200 or a 408 is in the database, seen from another connection', async () => {
    const engine = new RecordingEngine(false);
    const service = await start({ engine, syncWindowMs: 200 });
    const statusOf = (id: string) => {
      // A connection of its own sees only what is committed (as the service would after a crash).
      const db = new DatabaseSync(join(service.dataDir, 'local-service.sqlite'), { readOnly: true });
      try {
        return (db.prepare('SELECT status FROM scans WHERE id = ?').get(id) as { status: string } | undefined)?.status ?? null;
      } finally {
        db.close();
      }
    };
    const timeout = await submit(service.url, { mode: 'sync', file: randomBytes(1_000), attributes: { file_name: 'late.bin' } });
    expect(timeout.status).toBe(408);
    expect(statusOf(timeout.body.file_scan_id as string)).toBe('processing');
    engine.release();
    const done = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: randomBytes(1_000), attributes: { file_name: 'quick.bin' } })).body);
    expect(statusOf(done.id)).toBe('completed');
  });

  it('answers a GET by id during a memory-only sync scan', async () => {
    const engine = new RecordingEngine(false);
    const service = await start({ engine });
    const answer = submit(service.url, { mode: 'sync', file: 'x', attributes: { file_name: 'x.txt', external_reference_id: 'peek' } });
    const processing = await waitFor(async () => {
      const reply = await getByReference(service.url, 'peek');
      return reply.status === 200 ? reply : null;
    }, 'the scan to be visible');
    expect((await getScan(service.url, processing.body.id as string)).body.status).toBe('processing');
    engine.release();
    expect((await answer).status).toBe(200);
  });
});
