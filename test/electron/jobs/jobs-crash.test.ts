// A scan job in a child process SIGKILLed mid-job (at its 300th finished file, while
// hundreds more are queued or in flight): the next core resumes the job, and every
// file of the tree ends up recorded exactly once, all scanned. Real files, real
// SQLite, the real embedded service with the built-in engine.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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
