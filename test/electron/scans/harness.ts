// Shared setup for the pipeline, core and CLI tests: a real local File
// Scanning Service on loopback (its own data dir and key), temp folders,
// real files, and a bounded wait for conditions (no blind sleeps).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../../electron/local-service/server.ts';

export const SERVICE_KEY = 'test-key-0123456789abcdef';
export { EICAR_TEST_STRING };

export async function tempDir(prefix = 'verdict-pipeline-'): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export interface TestService extends LocalService {
  dataDir: string;
  key: string;
  /** How many scans the service holds in all (every integration): duplicates show here. */
  scanCount(): number;
  /** The service's own view of a reference: GET /file-scans/external-reference/{ref}. */
  byReference(ref: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

export async function startTestService(
  dataDir: string,
  options: Partial<Omit<LocalServiceOptions, 'apiKeys'>> & { apiKeys?: string[] } = {},
): Promise<TestService> {
  const service = await startLocalService({ apiKeys: [SERVICE_KEY], dataDir, engine: { kind: 'builtin' }, port: 0, ...options });
  return {
    ...service,
    dataDir,
    key: (options.apiKeys ?? [SERVICE_KEY])[0]!,
    scanCount() {
      const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'), { readOnly: true });
      try {
        return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
      } finally {
        db.close();
      }
    },
    async byReference(ref, key = (options.apiKeys ?? [SERVICE_KEY])[0]!) {
      const response = await fetch(`${service.url}/file-scans/external-reference/${encodeURIComponent(ref)}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

/** Writes `count` small files with distinct content; returns their paths. */
export async function writeFiles(dir: string, count: number, prefix = 'file'): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${prefix}-${i}.txt`);
    await writeFile(path, `${prefix} ${i} ${Math.random()}\n`);
    paths.push(path);
  }
  return paths;
}

export async function writeEicar(path: string): Promise<string> {
  await writeFile(path, EICAR_TEST_STRING);
  return path;
}

/** Polls until the condition holds; fails with a message after the bound. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Fast timings for tests: short poll and retry delays (behaviour is the same, only quicker). */
export const FAST = {
  watch: false,
  poll: { initialDelayMs: 50, maxDelayMs: 400 },
  clientRetry: { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 4, deadlineMs: 10_000 },
  retryBaseMs: 50,
  retryMaxMs: 400,
  budget: { ratePerSecond: 1000, burst: 1000 },
} as const;
