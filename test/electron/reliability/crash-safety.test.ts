// Crash safety (issue 7): a batch of 500 files (half sync, half async, a few
// of 2 MB so uploads take a moment) is worked on by a child process using
// createCore, which is SIGKILLed at 10 random points — while fingerprinting,
// uploading, waiting for the answer, polling, right after a history write, or
// at a random moment (which lands in history and settings writes: the child
// saves settings every 5 ms). After each restart the batch continues. At the
// end: one completed history row per file, exactly one scan per file at the
// service (by reference, and by count), no orphan rows, both databases pass
// `PRAGMA integrity_check`, and settings.json is intact.
import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings } from '../../../electron/settings/settings-store.ts';
import { startLocalService, type LocalService } from '../../../electron/local-service/server.ts';
import { tempDir } from '../scans/harness.ts';
import { integrityCheck, writeBatch } from './pipeline-kit.ts';

const WORKER = join(import.meta.dirname, 'fixtures', 'crash-worker.ts');
const KEY = 'reliability-crash-key-0001';
const FILES_PER_MODE = 250;
const KILLS = 10;

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: LocalService;

beforeAll(async () => {
  dir = await tempDir('verdict-reliability-crash-');
  // scanDelayMs: async scans stay `processing` for a moment, so kills land while polling.
  service = await startLocalService({ apiKeys: [KEY], dataDir: join(dir.path, 'service'), engine: { kind: 'builtin' }, rateLimit: false, scanDelayMs: 30 });
});
afterAll(async () => {
  await service?.close();
  await dir?.remove();
});

interface Run {
  killAt: string;
  killed: boolean;
  output: string;
}

function runWorker(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' || output.includes('idle')) resolve({ killAt: env.WORKER_KILL_AT ?? '', killed: signal === 'SIGKILL', output });
      else reject(new Error(`worker exited with ${code ?? signal}:\n${output}`));
    });
  });
}

/** Random kill points spread over the phases the issue names. */
function killPlan(random: () => number): string[] {
  const kinds = ['fingerprinting', 'uploading', 'awaiting-answer', 'processing', 'completed', 'time'];
  return Array.from({ length: KILLS }, (_, i) => {
    const kind = kinds[i % kinds.length] as string;
    return kind === 'time' ? `time:${600 + Math.floor(random() * 1500)}` : `${kind}:${1 + Math.floor(random() * (kind === 'uploading' ? 2 : 12))}`;
  }).sort(() => random() - 0.5);
}

describe('SIGKILL at random points during a batch', () => {
  it('ends with one scan and one completed row per file, sound databases and intact settings', async () => {
    const syncDir = join(dir.path, 'files-sync');
    const asyncDir = join(dir.path, 'files-async');
    await mkdir(syncDir);
    await mkdir(asyncDir);
    const files = [...(await writeBatch(syncDir, FILES_PER_MODE, 2048, 's')), ...(await writeBatch(asyncDir, FILES_PER_MODE, 2048, 'a'))];
    // A few larger files, so an upload is in progress long enough to be cut.
    for (const path of files.filter((_, i) => i % 25 === 0)) await writeFile(path, Buffer.alloc(2 * 1024 * 1024, path));

    const dataDir = join(dir.path, 'data');
    const base = { WORKER_DATA_DIR: dataDir, WORKER_SERVICE_URL: service.url, WORKER_KEY: KEY };
    let seed = Number(process.env.RELIABILITY_SEED ?? Date.now() % 100_000);
    console.log(`crash plan seed ${seed} (RELIABILITY_SEED=${seed} repeats it)`);
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const plan = killPlan(random);

    const runs: Run[] = [];
    runs.push(await runWorker({ ...base, WORKER_SUBMIT_SYNC: syncDir, WORKER_SUBMIT_ASYNC: asyncDir, WORKER_KILL_AT: plan[0] as string }));
    // Until ten kills have landed (a kill point not reached ends the run normally; then another is tried).
    for (let i = 1; runs.filter((r) => r.killed).length < KILLS && i < KILLS * 3; i++) {
      runs.push(await runWorker({ ...base, WORKER_KILL_AT: plan[i % plan.length] as string }));
      if (!runs.at(-1)?.killed && progress(dataDir).done === files.length) break;
    }
    console.log(`runs: ${runs.map((r) => `${r.killAt}${r.killed ? ' ✝' : ' (finished)'}`).join(', ')}`);
    expect(runs.filter((r) => r.killed).length).toBe(KILLS);
    // A last run without a kill finishes whatever is left.
    const last = await runWorker(base);
    expect(last.killed).toBe(false);

    // History: exactly one row per file, all completed; no row for anything else.
    const rows = historyRows(dataDir);
    expect(rows.length).toBe(files.length);
    expect(new Set(rows.map((r) => r.path))).toEqual(new Set(files));
    expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);
    // The service: one scan per file, the one history points at, and nothing else.
    for (const row of rows) {
      const response = await fetch(`${service.url}/file-scans/external-reference/${encodeURIComponent(row.reference)}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(response.status, row.path).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe(row.scanId);
    }
    expect(serviceScans()).toBe(files.length);
    expect(integrityCheck(join(dataDir, 'history.sqlite'))).toBe('ok');
    expect(integrityCheck(join(dir.path, 'service', 'local-service.sqlite'))).toBe('ok');
    // Settings survived every kill during a write: valid, no corrupt copy set aside.
    const settings = await openSettings(dataDir);
    expect(settings.warning).toBeNull();
    expect((await readdir(dataDir)).filter((name) => name.includes('corrupt'))).toEqual([]);
  });
});

function historyRows(dataDir: string): Array<{ path: string; status: string; reference: string; scanId: string | null }> {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT path, status, external_reference_id AS reference, service_scan_id AS scanId FROM scans').all() as Array<{
      path: string;
      status: string;
      reference: string;
      scanId: string | null;
    }>;
  } finally {
    db.close();
  }
}

function progress(dataDir: string): { done: number } {
  return { done: historyRows(dataDir).filter((r) => r.status === 'completed' || r.status === 'failed').length };
}

function serviceScans(): number {
  const db = new DatabaseSync(join(dir.path, 'service', 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}
