// The fuzz runner: `npm run fuzz -- [--minutes N] [--target NAME[,NAME]] [--seed S] [--runs N] [--keep-going]`.
// Runs each target for its share of the time (default: 1 minute in all),
// first replaying its kept regression inputs, and prints executions, rate
// and findings per target. A new finding is added to test/fuzz/corpus/ (so it
// is replayed from then on, npm test included). Exit code 1 on any finding.
import { parseArgs } from 'node:util';
import { keepInCorpus } from './harness/corpus.ts';
import { runTarget, type TargetReport } from './harness/run-target.ts';
import { TARGETS } from './targets/index.ts';

const USAGE = `Usage: npm run fuzz -- [--minutes N] [--target NAME[,NAME...]] [--seed S] [--runs N] [--keep-going]
  --minutes N   wall-clock budget for all selected targets together, split evenly (default 1)
  --target      run only these targets: ${TARGETS.map((target) => target.name).join(', ')}
  --seed S      fast-check seed (default: random, printed)
  --runs N      stop each target after N generated inputs (instead of, or before, the time)
  --keep-going  record each distinct finding (unshrunk) and go on, instead of stopping at the first`;

function options() {
  const { values } = parseArgs({
    options: { 'keep-going': { type: 'boolean' }, minutes: { type: 'string' }, target: { type: 'string' }, seed: { type: 'string' }, runs: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return null;
  const names = values.target?.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names?.filter((name) => !TARGETS.some((target) => target.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown target(s): ${unknown.join(', ')}`);
  const minutes = values.minutes === undefined ? 1 : Number(values.minutes);
  if (!(minutes > 0)) throw new Error('--minutes must be a positive number');
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error('--runs must be a whole number above 0');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
  return { targets: TARGETS.filter((target) => !names || names.includes(target.name)), minutes, runs, seed, keepGoing: values['keep-going'] === true };
}

async function main(): Promise<number> {
  let chosen: ReturnType<typeof options>;
  try {
    chosen = options();
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!chosen) {
    console.log(USAGE);
    return 0;
  }
  const share = (chosen.minutes * 60_000) / chosen.targets.length;
  console.error(`[fuzz] seed ${chosen.seed}, ${chosen.targets.length} target(s), ${(share / 1000).toFixed(0)} s each`);
  const reports: TargetReport[] = [];
  for (const target of chosen.targets) {
    console.error(`[fuzz] ${target.name}: ${target.about}`);
    const report = await runTarget(target, { seed: chosen.seed, timeMs: share, runs: chosen.runs, keepGoing: chosen.keepGoing });
    reports.push(report);
    for (const failure of report.failures) {
      const kept = failure.source !== 'corpus' && failure.input !== undefined && keepInCorpus(target.name, failure.input, failure.message);
      console.error(`[fuzz] ${target.name} FINDING (${failure.source}${kept ? ', added to the corpus' : ''}): ${failure.message}\n  input: ${JSON.stringify(failure.input)?.slice(0, 2000)}`);
    }
  }
  const rows = reports.map((r) => `| ${r.target} | ${r.executions.toLocaleString('en')} | ${(r.executions / r.seconds).toFixed(0)}/s | ${r.seconds.toFixed(0)} s | ${r.corpusInputs} | ${r.failures.length} |`);
  console.log(['| target | executions | rate | time | kept inputs replayed | findings |', '|---|---|---|---|---|---|', ...rows].join('\n'));
  console.log(`seed ${chosen.seed}`);
  return reports.some((report) => report.failures.length > 0) ? 1 : 0;
}

// Targets leave no handles behind, but a finding may (a crashed thread's sockets): exit explicitly.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
