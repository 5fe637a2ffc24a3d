// The fuzz runner: `npm run fuzz -- [--minutes N] [--target NAME[,NAME]] [--seed S] [--runs N] [--keep-going] [--jobs N]`.
// Runs each target for its share of the time (default: 1 minute in all),
// first replaying its kept regression inputs, and prints executions, rate
// and findings per target. A new finding is added to test/fuzz/corpus/ (so it
// is replayed from then on, npm test included). Exit code 1 on any finding.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { keepInCorpus } from './harness/corpus.ts';
import { runInParallel } from './harness/parallel.ts';
import { runTarget, type TargetReport } from './harness/run-target.ts';
import { ALL_TARGETS } from './targets/index.ts';

const USAGE = `Usage: npm run fuzz -- [--minutes N] [--target NAME[,NAME...]] [--seed S] [--runs N] [--keep-going] [--jobs N]
  --minutes N   wall-clock budget for all selected targets together, split evenly (default 1, or none with --runs)
  --target      run only these targets: ${ALL_TARGETS.map((target) => target.name).join(', ')}
  --seed S      fast-check seed (default: random, printed)
  --runs N      stop each target after N generated inputs (instead of, or before, the time)
  --keep-going  record each distinct finding (unshrunk) and go on, instead of stopping at the first
  --jobs N      split the runs over N processes, at seeds S, S+1, … (for targets whose inputs take seconds: scan-tree)`;

function options() {
  const { values } = parseArgs({
    options: {
      'keep-going': { type: 'boolean' },
      minutes: { type: 'string' },
      target: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      jobs: { type: 'string' },
      // A --jobs child's: where its reports go (the parent keeps the findings), and no corpus replay but in the first.
      'report-to': { type: 'string' },
      'skip-corpus': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  const names = values.target?.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names?.filter((name) => !ALL_TARGETS.some((target) => target.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown target(s): ${unknown.join(', ')}`);
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error('--runs must be a whole number above 0');
  // --runs alone runs that many, however long they take.
  const minutes = values.minutes === undefined ? (runs === undefined ? 1 : undefined) : Number(values.minutes);
  if (minutes !== undefined && !(minutes > 0)) throw new Error('--minutes must be a positive number');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs);
  if (!(Number.isInteger(jobs) && jobs > 0)) throw new Error('--jobs must be a whole number above 0');
  const targets = ALL_TARGETS.filter((target) => !names || names.includes(target.name));
  return { targets, minutes, runs, seed, jobs, keepGoing: values['keep-going'] === true, reportTo: values['report-to'], skipCorpus: values['skip-corpus'] === true };
}

type Chosen = NonNullable<ReturnType<typeof options>>;

async function runHere(chosen: Chosen): Promise<TargetReport[]> {
  const share = chosen.minutes === undefined ? undefined : (chosen.minutes * 60_000) / chosen.targets.length;
  const budget = share === undefined ? `${chosen.runs} runs each` : `${(share / 1000).toFixed(0)} s each`;
  console.error(`[fuzz] seed ${chosen.seed}, ${chosen.targets.length} target(s), ${budget}`);
  const reports: TargetReport[] = [];
  for (const target of chosen.targets) {
    console.error(`[fuzz] ${target.name}: ${target.about}`);
    reports.push(await runTarget(target, { seed: chosen.seed, timeMs: share, runs: chosen.runs, keepGoing: chosen.keepGoing, skipCorpus: chosen.skipCorpus }));
  }
  return reports;
}

/** Prints each finding, keeping the new ones in the corpus. */
function reportFindings(reports: readonly TargetReport[]): void {
  for (const report of reports) {
    for (const failure of report.failures) {
      const kept = failure.source !== 'corpus' && failure.input !== undefined && keepInCorpus(report.target, failure.input, failure.message);
      console.error(`[fuzz] ${report.target} FINDING (${failure.source}${kept ? ', added to the corpus' : ''}): ${failure.message}\n  input: ${JSON.stringify(failure.input)?.slice(0, 2000)}`);
    }
  }
}

/** Inputs per second; a slow target's rate keeps two decimals. */
const rateOf = (report: TargetReport) => {
  const rate = report.executions / report.seconds;
  return rate < 10 ? rate.toFixed(2) : rate.toFixed(0);
};

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
  const names = chosen.targets.map((target) => target.name);
  const reports = chosen.jobs > 1 ? await runInParallel({ ...chosen, targets: names }) : await runHere(chosen);
  // A --jobs child: its parent prints the findings and keeps them.
  if (chosen.reportTo) {
    writeFileSync(chosen.reportTo, JSON.stringify(reports));
    return reports.some((report) => report.failures.length > 0) ? 1 : 0;
  }
  if (chosen.jobs > 1) console.error(`[fuzz] ${chosen.jobs} jobs, seeds ${chosen.seed}–${chosen.seed + chosen.jobs - 1}`);
  reportFindings(reports);
  const rows = reports.map((r) => `| ${r.target} | ${r.executions.toLocaleString('en')} | ${rateOf(r)}/s | ${r.seconds.toFixed(0)} s | ${r.corpusInputs} | ${r.failures.length} |`);
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
