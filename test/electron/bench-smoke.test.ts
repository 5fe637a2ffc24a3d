// The smoke run of `npm run bench`, so the benchmarks cannot rot: the runner in
// quick mode, as a real child process, must report every case with numeric
// figures in its JSON and print the table. Targets are not checked here:
// benchmarks never decide pass or fail.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_CASES } from '../bench/cases/index.ts';
import type { BenchReport } from '../bench/report.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNNER = path.join(REPO, 'test/bench/run.ts');

function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'verdict-bench-smoke-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run bench', () => {
  it('runs every case in quick mode and reports numeric figures for each', { timeout: 600_000 }, async () => {
    const json = path.join(dir, 'bench.json');
    // One repetition: the smoke run checks that each case still runs and reports, not its figures (121 s → 80 s).
    const { code, stdout, stderr } = await runBench(['--quick', '--reps', '1', '--json', json]);
    expect(code, `the bench run failed:\n${stderr.slice(-4000)}`).toBe(0);

    const report = JSON.parse(await readFile(json, 'utf8')) as BenchReport & { cases: Array<{ metrics: Array<{ result: unknown }> }> };
    expect(report.mode).toBe('quick');
    expect(report.cases.map((result) => result.id)).toEqual(BENCH_CASES.map((benchCase) => benchCase.id));
    for (const result of report.cases) {
      if (result.status === 'skipped') {
        // Only outside CI, and only for a missing tool (the runner said which, loudly).
        expect(process.env.CI, `${result.id} was skipped in CI`).toBeFalsy();
        expect(result.reason).toMatch(/not installed/);
        continue;
      }
      expect(result.status, `${result.id}: ${result.reason}`).toBe('measured');
      expect(result.metrics.length, result.id).toBeGreaterThan(0);
      for (const metric of result.metrics) {
        const label = `${result.id} / ${metric.name}`;
        expect(Number.isFinite(metric.ours), label).toBe(true);
        expect(metric.samples.ours, label).toHaveLength(result.reps);
        expect(metric.samples.ours.every(Number.isFinite), label).toBe(true);
        if (metric.peer !== null) {
          expect(Number.isFinite(metric.peer), label).toBe(true);
          expect(metric.samples.peer, label).toHaveLength(result.reps);
          if (metric.ratio !== null) expect(Number.isFinite(metric.ratio), label).toBe(true);
        }
        if (metric.target?.on === 'ratio' || metric.target?.on === 'ours-peer') expect(metric.peer, label).not.toBeNull();
        if (metric.target?.on === 'ratio') expect(Number.isFinite(metric.ratio), label).toBe(true);
        expect(['met', 'missed', null], label).toContain((metric as { result?: unknown }).result);
        if (metric.target) expect((metric as { result?: unknown }).result, label).not.toBeNull();
      }
    }
    // Cases with a peer in the issue report one (ratio targets need it).
    const peers = (id: string) => report.cases.find((result) => result.id === id)?.metrics.some((metric) => metric.peer !== null);
    for (const id of ['upload', 'fingerprint', 'throughput', 'watch-latency', 'watch-idle']) {
      if (report.cases.find((result) => result.id === id)?.status === 'measured') expect(peers(id), id).toBe(true);
    }

    // The one table on stdout: a header and a row for each case.
    expect(stdout).toMatch(/\| # +\| case +\| metric +\| ours +\| peer +\| ratio +\| target +\| result +\|/);
    for (const benchCase of BENCH_CASES) expect(stdout).toContain(benchCase.title);
  });

  it('refuses an unknown case name', async () => {
    const { code, stderr } = await runBench(['--only', 'upload,no-such-case']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown case(s): no-such-case');
  });
});
