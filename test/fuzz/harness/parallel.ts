// `--jobs N`: the same fuzz run split over N processes (the runs shared out, each
// at its own seed), for targets whose inputs cost seconds. Each child writes its
// reports to a file; the parent adds them up and alone writes the corpus, so two
// children never write it at once. Only the first child replays the corpus.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TargetReport } from './run-target.ts';

export interface ParallelRequest {
  jobs: number;
  targets: readonly string[];
  seed: number;
  minutes?: number;
  runs?: number;
  keepGoing: boolean;
}

const RUNNER = join(import.meta.dirname, '../run.ts');

function childArgs(request: ParallelRequest, index: number, reportFile: string): string[] {
  const share = request.runs === undefined ? undefined : Math.ceil(request.runs / request.jobs);
  return [
    ...process.execArgv,
    RUNNER,
    '--target',
    request.targets.join(','),
    '--seed',
    String(request.seed + index),
    '--report-to',
    reportFile,
    ...(request.minutes === undefined ? [] : ['--minutes', String(request.minutes)]),
    ...(share === undefined ? [] : ['--runs', String(share)]),
    ...(request.keepGoing ? ['--keep-going'] : []),
    ...(index > 0 ? ['--skip-corpus'] : []),
  ];
}

/** Runs the children; resolves with each target's reports added up (executions summed, time the longest child's). */
export async function runInParallel(request: ParallelRequest): Promise<TargetReport[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-fuzz-jobs-'));
  try {
    const children = Array.from({ length: request.jobs }, (_, index) => {
      const reportFile = join(dir, `job-${index}.json`);
      const child = spawn(process.execPath, childArgs(request, index, reportFile), { stdio: ['ignore', 'ignore', 'pipe'] });
      createInterface({ input: child.stderr }).on('line', (line) => console.error(`[job ${index}] ${line}`));
      return new Promise<TargetReport[]>((resolve, reject) =>
        child.once('close', (code) => {
          try {
            resolve(JSON.parse(readFileSync(reportFile, 'utf8')) as TargetReport[]);
          } catch {
            reject(new Error(`fuzz job ${index} ended (${code}) without its report`));
          }
        }),
      );
    });
    return merge(await Promise.all(children));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function merge(perJob: TargetReport[][]): TargetReport[] {
  const byTarget = new Map<string, TargetReport>();
  for (const report of perJob.flat()) {
    const sum = byTarget.get(report.target);
    if (!sum) byTarget.set(report.target, { ...report, failures: [...report.failures] });
    else {
      sum.executions += report.executions;
      sum.seconds = Math.max(sum.seconds, report.seconds);
      sum.corpusInputs = Math.max(sum.corpusInputs, report.corpusInputs);
      sum.failures.push(...report.failures);
    }
  }
  return [...byTarget.values()];
}
