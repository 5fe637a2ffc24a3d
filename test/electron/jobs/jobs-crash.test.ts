// A scan job in a child process SIGKILLed mid-job (at its 300th finished file, while
// hundreds more are queued or in flight): the next core resumes the job, and every
// file of the tree ends up recorded exactly once, all scanned. Real files, real
// SQLite, the real embedded service with the built-in engine; and the local engine
// path to a real clamd (issue 26 §4: verdicts in grouped commits), where each verdict
// the child was told must be on disk at its death, and no threat is lost.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST } from '../scans/harness.ts';
import { jobRows, repeats, writeTree } from './job-kit.ts';

const WORKER = fileURLToPath(new URL('./fixtures/job-kill-worker.ts', import.meta.url));
const FILES = 1_500;

const { dir, open, dataDir } = useCoreFixture('verdict-jobs-crash-');

function runWorker(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ signal, output }));
  });
}

describe('a scan job SIGKILLed mid-job', () => {
  it('resumes at the next start and records each file exactly once', async () => {
    const root = join(dir.path, 'tree');
    const files = await writeTree(root, FILES);

    const run = await runWorker({ WORKER_DATA_DIR: dataDir(), WORKER_ROOT: root, WORKER_KILL_AT: 'completed:300' });
    expect(run.signal, run.output).toBe('SIGKILL');
    const jobId = Number(/^job (\d+)$/m.exec(run.output)?.[1]);
    const atDeath = jobRows(dataDir(), jobId);
    expect(atDeath.length).toBeGreaterThanOrEqual(300);
    // The backpressure bounds what was written ahead: 300 finished plus at most 700 queued.
    expect(atDeath.length).toBeLessThanOrEqual(1_000);

    const core = await open(FAST);
    const job = await core.jobs.finished(jobId);
    expect(job).toMatchObject({ status: 'completed', counts: { found: FILES, scanned: FILES, couldNotScan: 0, skipped: 0 } });
    const rows = jobRows(dataDir(), jobId);
    expect(repeats(rows)).toEqual([]);
    expect(new Set(rows.map((row) => row.path))).toEqual(new Set(files));
    expect(rows.every((row) => row.status === 'completed' && row.verdict === 'safe')).toBe(true);
  });
});

describe('a scan job on the local engine path (a real clamd) SIGKILLed mid-job', () => {
  const FILES_HERE = 2_000;
  const THREATS = 20;
  let clamd: RunningClamd | null = null;
  beforeAll(async () => {
    clamd = await startClamd();
  }, 60_000);
  afterAll(async () => {
    await clamd?.stop();
  });

  it('has committed every verdict it told before it died, and after the restart each file has one terminal row and every threat its own', async (context) => {
    if (!clamd) return context.skip();
    const root = join(dir.path, 'tree');
    const files = await writeTree(root, FILES_HERE);
    // Threats spread through the tree: every 100th file holds the EICAR string.
    const threats = files.filter((_, i) => i % (FILES_HERE / THREATS) === 7);
    for (const path of threats) await writeFile(path, `x ${EICAR_TEST_STRING} y\n`);

    const run = await runWorker({ WORKER_DATA_DIR: dataDir(), WORKER_ROOT: root, WORKER_KILL_AT: 'completed:800', WORKER_CLAMD_SOCKET: clamd.socketPath, WORKER_TELL: '1' });
    expect(run.signal, run.output).toBe('SIGKILL');
    const jobId = Number(/^job (\d+)$/m.exec(run.output)?.[1]);
    const shown = [...run.output.matchAll(/^shown (safe|unsafe) (.+)$/gm)].map((match) => ({ verdict: match[1], path: match[2] ?? '' }));
    expect(shown.length).toBeGreaterThanOrEqual(800);
    // What subscribers were told is what the history held on disk when the process died.
    const atDeath = new Map(jobRows(dataDir(), jobId).map((row) => [row.path, row]));
    for (const { path, verdict } of shown) expect(atDeath.get(path), path).toMatchObject({ status: 'completed', verdict });

    const core = await open(FAST, { localService: { engine: 'clamd', clamdSocket: clamd.socketPath } });
    const job = await core.jobs.finished(jobId);
    expect(job).toMatchObject({ status: 'completed', counts: { found: FILES_HERE, scanned: FILES_HERE, threats: THREATS, couldNotScan: 0, skipped: 0 } });
    const rows = jobRows(dataDir(), jobId);
    expect(repeats(rows)).toEqual([]);
    expect(new Set(rows.map((row) => row.path))).toEqual(new Set(files));
    const unsafe = new Set(threats);
    for (const row of rows) expect(row, row.path).toMatchObject({ status: 'completed', verdict: unsafe.has(row.path) ? 'unsafe' : 'safe' });
  }, 120_000);
});
