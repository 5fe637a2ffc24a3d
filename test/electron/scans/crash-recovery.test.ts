// Crash recovery: a child process scanning a batch is killed with SIGKILL at
// several points (while queueing, fingerprinting, uploading, after the POST was
// answered, while polling, while writing results); after the restarts every
// file has exactly one scan at the service and one history row with a terminal result.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { startTestService, tempDir, writeFiles, type TestService } from './harness.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'crash-child.ts');

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;

beforeEach(async () => {
  dir = await tempDir('verdict-crash-');
});
afterEach(async () => {
  await service?.close();
  await dir.remove();
});

function runChild(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, CRASH_DATA_DIR: join(dir.path, 'data'), CRASH_SERVICE_URL: service.url, CRASH_SERVICE_KEY: service.key, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

async function crashAndRecover(mode: 'auto' | 'async', files: string[], killPoints: string[]) {
  const kills: string[] = [];
  for (const [index, point] of killPoints.entries()) {
    const run = await runChild({ CRASH_KILL_AT: point, CRASH_MODE: mode, ...(index === 0 ? { CRASH_SUBMIT: join(dir.path, 'files') } : {}) });
    if (run.signal === 'SIGKILL') kills.push(point);
    else expect(run, `run ${point} ended on its own: ${run.stderr}`).toMatchObject({ code: 0 });
  }
  const final = await runChild({ CRASH_MODE: mode });
  expect(final, final.stderr).toMatchObject({ code: 0, signal: null });

  const history = openHistory(join(dir.path, 'data'));
  try {
    const rows = history.query({ limit: 1000, order: 'oldest' }).items;
    // One row per file, every one terminal and judged.
    expect(rows.map((row) => row.path).sort()).toEqual([...files].sort());
    for (const row of rows) {
      expect(row, row.path).toMatchObject({ status: 'completed', safe: true, pendingReason: null, error: null, reusedFromId: null });
      const atService = await service.byReference(row.externalReferenceId);
      expect(atService.status).toBe(200);
      expect(atService.body.id).toBe(row.serviceScanId);
    }
    expect(history.listPending()).toEqual([]);
  } finally {
    history.close();
  }
  // No second scan of any file: the service holds exactly one per file.
  expect(service.scanCount()).toBe(files.length);
  return kills;
}

describe('crash recovery', () => {
  it('recovers an async batch killed while queueing, fingerprinting, uploading, polling and writing results', async () => {
    service = await startTestService(join(dir.path, 'service'), { scanDelayMs: 150 });
    await mkdir(join(dir.path, 'files'));
    const files = await writeFiles(join(dir.path, 'files'), 24);
    const kills = await crashAndRecover('async', files, ['queued:5', 'fingerprinting:2', 'progress:3', 'processing:4', 'processing:8', 'completed:3', 'time:400']);
    // Most points must really have killed a run, or the test proves little.
    expect(kills.length).toBeGreaterThanOrEqual(5);
  });

  it('recovers a sync batch killed while uploading and while waiting for the answer', async () => {
    service = await startTestService(join(dir.path, 'service'), { scanDelayMs: 200 });
    await mkdir(join(dir.path, 'files'));
    const files = await writeFiles(join(dir.path, 'files'), 12);
    const kills = await crashAndRecover('auto', files, ['progress:1', 'processing:2', 'completed:2', 'progress:3']);
    expect(kills.length).toBeGreaterThanOrEqual(3);
  });
});
