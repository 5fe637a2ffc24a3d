// One round: the tree built in a fresh folder, the earlier runs of the plan (each
// may be stopped, on a small disk, with changes), then the final run, judged by
// the oracle. Returns every problem found; the folder (and any tmpfs) is gone after.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseOutput } from './cli-output.ts';
import { buildTree, roundDirs } from './build-tree.ts';
import { expectationsFor } from './expectations.ts';
import { historyProblems, jobsLeftRunning } from './history-check.ts';
import { expectedExitCode, judgeLines, judgeSummary, type Problem } from './oracle.ts';
import { runCli, type RunOutcome } from './run-cli.ts';
import { growForFinalRun, mountSmall, unmount } from './small-disk.ts';
import type { Change, EarlierRun, TreeSpec } from './tree-spec.ts';
import { snapshotTree } from './tree-snapshot.ts';

/** Generous: a run takes about a second; only a hang comes near these. */
const EARLIER_TIMEOUT_MS = 60_000;
const FINAL_TIMEOUT_MS = 120_000;

export interface RoundSession {
  /** Where rounds make their folders. */
  dir: string;
  compileCache: string;
  /** Root may mount a tmpfs; otherwise a small-disk plan runs on the normal disk. */
  mountable: boolean;
}

export interface RoundResult {
  problems: Problem[];
  earlier: RunOutcome[];
  final: RunOutcome | null;
}

// README's exit codes: 3 is "no threat, but some files had basic checks only" (the built-in engine the runs use).
const EXIT_CODES = [0, 1, 2, 3];

/** A run that ended on its own terms: by the signal sent, or with a documented exit code. */
function endProblems(run: RunOutcome, name: string): Problem[] {
  const tail = run.stderr.trim().split('\n').slice(-3).join(' | ');
  if (run.hung) return [{ kind: `${name} hung`, detail: `it did not end within its time${run.stopped ? ` after ${run.stopped}` : ''}; stderr: ${tail}` }];
  if (run.signal !== null && run.signal !== run.stopped) return [{ kind: `${name} crashed`, detail: `ended by ${run.signal}; stderr: ${tail}` }];
  if (run.code !== null && !EXIT_CODES.includes(run.code)) return [{ kind: `${name} crashed`, detail: `exit code ${run.code}; stderr: ${tail}` }];
  return [];
}

/** Whether a run left work unfinished: stopped, hung, or ended without its summary (a full disk, a crash). */
const cutShort = (run: RunOutcome) => run.stopped !== null || run.hung || !/^(Custom scan done|No files found to scan)/m.test(run.stderr);

function judgeFinal(run: RunOutcome, expectations: ReturnType<typeof expectationsFor>, root: Buffer, earlier: RunOutcome[]): Problem[] {
  const ended = endProblems(run, 'final run');
  if (ended.length > 0) return ended;
  const output = parseOutput(run.stdout, run.stderr);
  const failure = /^(Stopped by an unexpected error|Could not start).*$/m.exec(run.stderr);
  const problems = failure ? [{ kind: 'final run failed', detail: failure[0] }] : [];
  problems.push(...judgeLines(output, expectations, root, earlier.some(cutShort)));
  const exit = expectedExitCode(output.lines);
  if (run.code !== exit) problems.push({ kind: 'exit code', detail: `${run.code}, expected ${exit} from the ${output.lines.length} lines printed` });
  problems.push(...judgeSummary(output));
  return problems;
}

export async function runRound(session: RoundSession, spec: TreeSpec): Promise<RoundResult> {
  const dirs = roundDirs(realpathSync(mkdtempSync(join(session.dir, 'r'))));
  const small = spec.plan.smallDiskKb !== null && session.mountable;
  let mounted = false;
  const run = (stop: EarlierRun['stop'], changes: readonly Change[], timeoutMs: number) =>
    runCli({ root: dirs.root, dataDir: dirs.data, stop, changes, timeoutMs, compileCache: session.compileCache });
  try {
    await buildTree(dirs, spec.entries);
    mkdirSync(dirs.data);
    if (small) {
      mountSmall(dirs.data, spec.plan.smallDiskKb!);
      mounted = true;
    }
    const earlier: RunOutcome[] = [];
    const problems: Problem[] = [];
    for (const planned of spec.plan.before) {
      const outcome = await run(planned.stop, planned.changes, EARLIER_TIMEOUT_MS);
      const name = `earlier run ${earlier.push(outcome)}`;
      problems.push(...endProblems(outcome, name));
      if (outcome.code !== null) problems.push(...jobsLeftRunning(dirs.data, `${name} (exit ${outcome.code}${outcome.stopped ? ` after ${outcome.stopped}` : ''})`));
    }
    if (mounted) growForFinalRun(dirs.data);
    const snapshot = snapshotTree(dirs.root);
    const expectations = expectationsFor(snapshot, dirs.root, [...earlier.flatMap((outcome) => outcome.changes), ...spec.plan.finalChanges]);
    const final = await run(null, spec.plan.finalChanges, FINAL_TIMEOUT_MS);
    problems.push(...judgeFinal(final, expectations, dirs.root, earlier), ...historyProblems(dirs.data));
    return { problems, earlier, final };
  } finally {
    if (mounted) unmount(dirs.data);
    rmSync(dirs.round, { recursive: true, force: true });
  }
}
