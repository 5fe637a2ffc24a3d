// The benchmark runner: `npm run bench [-- --json FILE] [--quick] [--only a,b] [--reps N]`.
// Runs the cases of test/bench/cases/ in order, prints ONE table (stdout) and
// writes the same as JSON. Progress goes to stderr. Every figure is a median
// over repetitions, ours and the peer's alternating in the same run. A case
// whose tools are missing is skipped loudly (an error in CI). Targets are
// reported, never enforced: the exit code is 1 only when a case could not be measured.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_CASES } from './cases/index.ts';
import { missingRequirements } from './cases/support/requirements.ts';
import { describeMachine, formatNotes, formatTable, toJson, type BenchReport, type CaseResult } from './report.ts';

const USAGE = `Usage: node test/bench/run.ts [--json FILE] [--quick] [--only ${BENCH_CASES.map((c) => c.id).join(',')}] [--reps N]
  --json FILE   also write the results as JSON
  --quick       small inputs, few repetitions, short windows (the smoke run in npm test)
  --only IDS    run only these cases (comma-separated)
  --reps N      repetitions per case (default: each case's own, fewer with --quick)`;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      json: { type: 'string' },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      reps: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const only = values.only?.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = only?.filter((id) => !BENCH_CASES.some((c) => c.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown case(s): ${unknown.join(', ')}`);
  const reps = values.reps === undefined ? undefined : Number(values.reps);
  if (reps !== undefined && !(Number.isInteger(reps) && reps >= 1)) throw new Error('--reps must be a whole number ≥ 1');
  return { json: values.json, quick: values.quick, only, reps, help: values.help };
}

export async function runBench(options: { quick: boolean; only?: string[]; reps?: number }): Promise<BenchReport> {
  const loadAtStart = os.loadavg().map((load) => Number(load.toFixed(2)));
  const selected = BENCH_CASES.filter((c) => !options.only || options.only.includes(c.id));
  const results: CaseResult[] = [];
  for (const benchCase of selected) {
    const reps = options.reps ?? (options.quick ? benchCase.reps.quick : benchCase.reps.full);
    const base = { number: BENCH_CASES.indexOf(benchCase) + 1, id: benchCase.id, title: benchCase.title, reps };
    const missing = missingRequirements(benchCase.needs);
    if (missing.length > 0) {
      const reason = missing.join('; ');
      if (process.env.CI) {
        results.push({ ...base, status: 'error', reason: `${reason} (CI must run every case)`, seconds: 0, metrics: [] });
      } else {
        console.error(`\n${'!'.repeat(100)}\n!!! bench case ${benchCase.id} SKIPPED: ${reason}\n${'!'.repeat(100)}\n`);
        results.push({ ...base, status: 'skipped', reason, seconds: 0, metrics: [] });
      }
      continue;
    }
    const tmp = await mkdtemp(path.join(os.tmpdir(), `verdict-bench-${benchCase.id}-`));
    const started = performance.now();
    console.error(`[bench] ${benchCase.id}: ${benchCase.title} (${reps} repetitions${options.quick ? ', quick' : ''})`);
    try {
      const metrics = await benchCase.run({ quick: options.quick, reps, tmp, log: (message) => console.error(`[bench]   ${message}`) });
      const seconds = (performance.now() - started) / 1000;
      results.push({ ...base, status: 'measured', seconds, metrics });
      console.error(`[bench] ${benchCase.id}: done in ${seconds.toFixed(1)} s`);
    } catch (error) {
      console.error(`[bench] ${benchCase.id} FAILED:`, error);
      results.push({ ...base, status: 'error', reason: error instanceof Error ? error.message.split('\n')[0] : String(error), seconds: (performance.now() - started) / 1000, metrics: [] });
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  return { date: new Date().toISOString(), mode: options.quick ? 'quick' : 'full', machine: describeMachine(loadAtStart), cases: results };
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  const report = await runBench(options);
  const { machine } = report;
  console.log(
    `\nVerdict benchmarks, ${report.date.slice(0, 10)}, ${report.mode} run in ${((performance.now() - started) / 1000).toFixed(0)} s: ` +
      `${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node.replace(/^v/, '')}, ` +
      `load average ${machine.loadAverage.start[0]} → ${machine.loadAverage.end[0]}\n`,
  );
  console.log(formatTable(report));
  const notes = formatNotes(report);
  if (notes) console.log(`\n${notes}`);
  if (options.json) await writeFile(options.json, toJson(report));
  return report.cases.some((result) => result.status === 'error') ? 1 : 0;
}

if (import.meta.main) {
  const code = await main();
  // Stop here even if a library left a handle open (a pool, a watcher): the results are written.
  process.stdout.write('', () => process.exit(code));
}
