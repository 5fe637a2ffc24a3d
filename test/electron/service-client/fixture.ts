// Shared setup for the service-client tests: the real local service on
// loopback, optionally behind the fault proxy, temp files, and a client whose
// every error is collected so the suite can check none of them leaks the key.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startLocalService } from '../../../electron/local-service/server.ts';
import { createServiceClient, ServiceError, type ServiceClient, type ServiceClientOptions, type ServiceErrorKind } from '../../../electron/service-client/client.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';

/** Distinctive, so a leak into any message is easy to find. */
export const API_KEY = 'verdict-test-key-5ecret-7Q2x9';
/** Fast retries for tests; Retry-After is still honoured in full. */
export const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 6, deadlineMs: 30_000, maxRetryAfterMs: 10_000 };

export interface Fixture {
  serviceUrl: string;
  proxy: FaultProxy;
  dir: string;
  /** A client talking through the proxy (or directly with `direct: true`). */
  client(options?: Partial<ServiceClientOptions> & { direct?: boolean }): ServiceClient;
  /** Writes a file in the temp dir; `content` may be a size in bytes (random-ish content). */
  file(name: string, content: string | Buffer | number): Promise<{ path: string; size: number; name: string }>;
  /** Scans the service has stored with this file name (its own records, all integrations). */
  scansAtService(fileName: string): number;
  close(): Promise<void>;
}

let refCounter = 0;
/** A fresh, valid, namespaced external reference. */
export const newRef = (label = 'scan') => `verdict/test-${process.pid}/${label}-${Date.now().toString(36)}-${++refCounter}`;

/**
 * The fixture for one test file: started before its tests, the proxy healed and
 * its rules and log cleared after each test, closed after all. `onStart` receives it.
 */
export function useFixture(onStart: (fixture: Fixture) => void, options: Parameters<typeof startFixture>[0] = {}): void {
  let fixture: Fixture | undefined;
  beforeAll(async () => {
    fixture = await startFixture(options);
    onStart(fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  afterEach(async () => {
    await fixture?.proxy.up();
    fixture?.proxy.clearRules();
    fixture?.proxy.clearLog();
  });
}

export async function startFixture(options: { scanDelayMs?: number; syncWindowMs?: number; scanConcurrency?: number } = {}): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-service-client-'));
  const service = await startLocalService({
    apiKeys: [API_KEY],
    dataDir: join(dir, 'service'),
    engine: { kind: 'builtin' },
    syncWindowMs: options.syncWindowMs,
    scanDelayMs: options.scanDelayMs,
    scanConcurrency: options.scanConcurrency,
    rateLimit: false,
    port: 0,
  });
  const proxy = await startFaultProxy(service.url);
  const clients: ServiceClient[] = [];

  return {
    serviceUrl: service.url,
    proxy,
    dir,
    client(clientOptions = {}) {
      const { direct, ...rest } = clientOptions;
      const client = createServiceClient({
        baseUrl: direct ? service.url : proxy.url,
        apiKey: () => API_KEY,
        language: () => 'en',
        retry: FAST_RETRY,
        ...rest,
      });
      clients.push(client);
      return client;
    },
    async file(name, content) {
      const path = join(dir, name);
      const data = typeof content === 'number' ? patterned(content) : content;
      await writeFile(path, data);
      return { path, size: Buffer.byteLength(data), name };
    },
    scansAtService(fileName) {
      const db = new DatabaseSync(join(dir, 'service', 'local-service.sqlite'), { readOnly: true });
      try {
        const row = db.prepare('SELECT count(*) AS n FROM scans WHERE file_name = ?').get(fileName) as { n: number };
        return Number(row.n);
      } finally {
        db.close();
      }
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await proxy.close();
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Deterministic, non-repeating-looking bytes (so a mixed-up chunk would change the digest). */
export function patterned(size: number): Buffer {
  const data = Buffer.allocUnsafe(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 0xff;
  }
  return data;
}

/** Waits for a condition, polling, for at most `timeoutMs` (no blind sleeps in tests). */
export async function waitFor<T>(probe: () => T | Promise<T>, { timeoutMs = 15_000, intervalMs = 25 } = {}): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Awaits a rejection and checks it is a ServiceError of `kind` whose every
 * rendering (message, stack, inspect, JSON) is free of the API key and of
 * local paths under `secretPaths`.
 */
export async function rejection(promise: Promise<unknown>, kind: ServiceErrorKind, secretPaths: string[] = []): Promise<ServiceError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a rejection').toBeInstanceOf(ServiceError);
  const error = caught as ServiceError;
  expect(error.kind, error.message).toBe(kind);
  const renderings = [error.message, String(error.stack), inspect(error, { depth: 5 }), JSON.stringify(error)];
  for (const text of renderings) {
    expect(text).not.toContain(API_KEY);
    for (const path of secretPaths) expect(text).not.toContain(path);
  }
  return error;
}
