// Crash safety (issue 7): a batch of 500 files (half sync, half async, a few
// of 2 MB so uploads take a moment) is worked on by a child process using
// createCore, which is SIGKILLed 10 times: twice in each phase — while
// fingerprinting, during an upload, waiting for the answer, with a poll out, and
// as a history row is written — at a random occurrence of it (the child saves
// settings every 5 ms, so kills land in settings writes too). The child reports
// what it was doing when it died, and each phase must have taken a kill. After
// each restart the batch continues. At the end: one completed history row per
// file, exactly one scan per file at the service (by reference, and by count),
// no orphan rows on either side, nothing left in the service's incoming/ and
// uploads/ folders, both databases pass `PRAGMA integrity_check`, and
// settings.json is intact.
import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings } from '../../../electron/settings/settings-store.ts';
import { startLocalService, type LocalService } from '../../../electron/local-service/server.ts';
import { tempDir } from '../scans/harness.ts';
import { integrityCheck, until, writeBatch } from './pipeline-kit.ts';

const WORKER = join(import.meta.dirname, 'fixtures', 'crash-worker.ts');
const KEY = 'reliability-crash-key-0001';
const FILES_PER_MODE = 250;
const KILLS = 10;
/** The phases a kill must land in (the worker's names). */
const PHASES = ['fingerprinting', 'upload', 'waiting-for-answer', 'polling', 'writing-history'] as const;
/** Occurrences of each phase a kill is drawn from: a run dies early, so the batch lasts for all ten. */
const OCCURRENCES: Record<(typeof PHASES)[number], number> = { fingerprinting: 12, upload: 2, 'waiting-for-answer': 12, polling: 12, 'writing-history': 40 };

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
  /** What the child was doing when it died, by its own account. */
  activeAtDeath: string[];
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
      const report = /^KILLED (.+)$/m.exec(output);
      const activeAtDeath = report ? (JSON.parse(report[1]!) as { active: string[] }).active : [];
      if (signal === 'SIGKILL' || output.includes('idle')) resolve({ killAt: env.WORKER_KILL_AT ?? '', killed: signal === 'SIGKILL', activeAtDeath, output });
      else reject(new Error(`worker exited with ${code ?? signal}:\n${output}`));
    });
  });
}

/** Two rounds over the phases, each in a random order, each kill at a random occurrence of its phase. */
function killPlan(random: () => number): string[] {
  const round = () => [...PHASES].sort(() => random() - 0.5).map((phase) => `${phase}:${1 + Math.floor(random() * OCCURRENCES[phase])}`);
  return [...round(), ...round()];
}

// Eleven or more child runs of a core: about 25 s alone, and a loaded machine must not fail it for taking longer.
const WHOLE_TEST_MS = 180_000;

describe('SIGKILL at random points during a batch', () => {
  it('ends with one scan and one completed row per file, sound databases and intact settings', { timeout: WHOLE_TEST_MS }, async () => {
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
    console.log(`runs: ${runs.map((r) => `${r.killAt}${r.killed ? ` ✝ while ${r.activeAtDeath.join(' + ') || 'nothing tracked'}` : ' (finished)'}`).join(', ')}`);
    const killed = runs.filter((r) => r.killed);
    expect(killed.length).toBe(KILLS);
    // Each kill came while the child was in the phase it was meant for, so every phase took at least one.
    for (const run of killed) expect(run.activeAtDeath, run.killAt).toContain(run.killAt.split(':')[0]);
    for (const phase of PHASES) expect(killed.filter((r) => r.activeAtDeath.includes(phase)).length, phase).toBeGreaterThan(0);
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
    // No orphan rows at the service: every scan is one history points at, and none is left processing.
    const references = new Set<string | null>(rows.map((r) => r.reference));
    expect(serviceRows().filter((r) => !references.has(r.reference) || r.status !== 'completed')).toEqual([]);
    // No leftovers: uploads being received (incoming/) and accepted ones waiting for a scan (uploads/) are all gone,
    // also those whose client was killed mid-upload (the service is never restarted here, so nothing cleared them at start).
    const leftovers = async () => [...(await readdir(join(dir.path, 'service', 'incoming'))), ...(await readdir(join(dir.path, 'service', 'uploads')))];
    await until(async () => (await leftovers()).length === 0, 'the service to remove its spill and upload files', 10_000).catch(() => {});
    expect(await leftovers()).toEqual([]);
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

function serviceRows(): Array<{ reference: string | null; status: string }> {
  const db = new DatabaseSync(join(dir.path, 'service', 'local-service.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT external_reference_id AS reference, status FROM scans').all() as Array<{ reference: string | null; status: string }>;
  } finally {
    db.close();
  }
}

function serviceScans(): number {
  const db = new DatabaseSync(join(dir.path, 'service', 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}
