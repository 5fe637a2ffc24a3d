// The local service in a worker thread (start-in-thread.ts): the same service
// over HTTP, start-up errors as the caller would see them in-process, log
// records forwarded, a thread that dies restarted on the same port, and a
// clean close that leaves nothing running or open.
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { embeddedServiceStarter } from '../../../electron/backend/local-backend.ts';
import { EngineError } from '../../../electron/engine/engine.ts';
import type { ServiceLogger } from '../../../electron/local-service/logger.ts';
import {
  ServiceThreadUnavailableError,
  startLocalServiceInThread,
  type StartInThreadOptions,
} from '../../../electron/local-service/thread/start-in-thread.ts';
import { getScan, KEY_A, submit, waitFor } from './harness.ts';

const CRASHING_ENTRY = new URL('./fixtures/crashing-service-thread.ts', import.meta.url);

let dir: string;
let dataDir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-service-thread-'));
  dataDir = join(dir, 'data');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface LogRecord {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}
function recordingLogger(): ServiceLogger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at = (level: LogRecord['level']) => (fields: object, message: string) => records.push({ level, fields: fields as Record<string, unknown>, message });
  return { records, info: at('info'), warn: at('warn'), error: at('error') };
}

const options = (extra: Partial<StartInThreadOptions> = {}): StartInThreadOptions => ({
  apiKeys: [KEY_A],
  dataDir,
  engine: { kind: 'builtin' },
  ...extra,
});

/** Resolves with the error of a request that cannot connect, or null when it got an answer. */
const refused = (url: string) =>
  getScan(url, 'x').then(
    () => null,
    (error: unknown) => error as Error,
  );

describe('the local service in a worker thread', () => {
  it('serves over HTTP like the in-process service, and closes completely', async () => {
    const service = await startLocalServiceInThread(options());
    try {
      expect(service.url).toBe(`http://127.0.0.1:${service.port}`);
      expect(service.engine).toMatchObject({ name: 'builtin', where: 'in-process' });
      const scan = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: 'hello', attributes: { file_name: 'h.txt' } })).body);
      expect(scan.status).toBe('completed');
      expect((await getScan(service.url, scan.id)).body).toEqual(scan);
    } finally {
      await service.close();
    }
    await service.close(); // twice is fine
    expect(await refused(service.url)).toBeInstanceOf(Error);
    // The thread has let go of the database: another service opens it and finds the scan.
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    expect((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n).toBe(1);
    db.close();
  });

  it('fails to start with the error the service gave, class and code kept', async () => {
    const noClamd = await startLocalServiceInThread(options({ engine: { kind: 'clamd', clamdSocket: join(dir, 'no-clamd.sock') } })).catch((e: unknown) => e);
    expect(noClamd).toBeInstanceOf(EngineError);
    expect((noClamd as EngineError).code).toBe('engine_unavailable');
    expect((noClamd as Error).message).toContain('no clamd answered PING');

    const first = await startLocalServiceInThread(options());
    await first.close();
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(startLocalServiceInThread(options())).rejects.toThrow(/newer than this service knows/);
  });

  it('forwards the log levels asked for', async () => {
    const logger = recordingLogger();
    const service = await startLocalServiceInThread(options({ logger, logLevels: ['info', 'warn', 'error'] }));
    try {
      await getScan(service.url, 'no-such-scan');
      const line = await waitFor(async () => logger.records.find((r) => r.message === 'request'), 'the request log line');
      expect(line).toMatchObject({ level: 'info', fields: { method: 'GET', path: '/file-scans/no-such-scan', status: 404 } });
    } finally {
      await service.close();
    }
  });

  it('says the thread is unavailable when its entry is missing or it dies before starting the service', async () => {
    const missing = await startLocalServiceInThread(options({ threadEntry: new URL('./fixtures/not-there.ts', import.meta.url) })).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ServiceThreadUnavailableError);
    expect((missing as Error).message).toContain('not-there.ts');

    await writeFile(join(dir, 'die-before-start'), '');
    const died = await startLocalServiceInThread(options({ threadEntry: CRASHING_ENTRY })).catch((e: unknown) => e);
    expect(died).toBeInstanceOf(ServiceThreadUnavailableError);
    expect((died as Error).message).toContain('this thread could not even load');
  });

  it('restarts a thread that dies, on the same port, and says so', async () => {
    const logger = recordingLogger();
    await writeFile(join(dir, 'crash-once'), '');
    const service = await startLocalServiceInThread(options({ logger, threadEntry: CRASHING_ENTRY }));
    try {
      await waitFor(async () => logger.records.some((r) => r.message.includes('restarting it')), 'the crash to be reported');
      const report = logger.records.find((r) => r.message.includes('restarting it'));
      expect(report?.message).toContain('the service thread crashed');
      // Back on the same URL.
      const reply = await waitFor(async () => (await refused(service.url)) === null && submit(service.url, { mode: 'sync', file: 'again' }), 'the service to be back');
      expect(reply.status).toBe(200);
    } finally {
      await service.close();
    }
    expect(await refused(service.url)).toBeInstanceOf(Error);
  });

  it('does not restart when told not to', async () => {
    const logger = recordingLogger();
    await writeFile(join(dir, 'crash-once'), '');
    const service = await startLocalServiceInThread(options({ logger, threadEntry: CRASHING_ENTRY, restart: false }));
    try {
      await waitFor(async () => logger.records.some((r) => r.message.includes('not restarting it')), 'the crash to be reported');
      expect(await refused(service.url)).toBeInstanceOf(Error);
    } finally {
      await service.close();
    }
  });
});

describe('the embedded service starter', () => {
  it('runs the service in a thread by default, and on this thread when the thread cannot run', async () => {
    const logger = recordingLogger();
    const threaded = await embeddedServiceStarter({ engine: 'builtin', logger })({ apiKey: KEY_A, dataDir });
    try {
      expect((await submit(threaded.url, { mode: 'sync', file: 'x' })).status).toBe(200);
    } finally {
      await threaded.close();
    }
    expect(logger.records).toEqual([]);

    const fallback = await embeddedServiceStarter({ engine: 'builtin', logger, threadEntry: new URL('./fixtures/not-there.ts', import.meta.url) })({ apiKey: KEY_A, dataDir });
    try {
      expect((await submit(fallback.url, { mode: 'sync', file: 'x' })).status).toBe(200);
      // The local engine path works on this thread too: the engine answers without a request.
      const file = join(dir, 'plain.txt');
      await writeFile(file, 'nothing to see here\n');
      const outcome = await fallback.scanFile?.({ path: file, size: 20, reference: 'ref-1', basicOnly: false }, new AbortController().signal);
      expect(outcome).toMatchObject({ ok: true, result: { safe: true }, engine: { name: 'builtin' }, fileType: 'text/plain' });
    } finally {
      await fallback.close();
    }
    expect(logger.records).toHaveLength(1);
    expect(logger.records[0]?.message).toMatch(/thread entry is missing.*running the local service on the main thread instead/);
  });

  it('does not hide a start-up error of the service behind the fallback', async () => {
    const start = embeddedServiceStarter({ engine: 'clamd', clamdSocket: join(dir, 'no-clamd.sock') });
    await expect(start({ apiKey: KEY_A, dataDir })).rejects.toThrow(/no clamd answered PING/);
  });
});
