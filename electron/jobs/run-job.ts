// One run of a job, from its start (or its resume after a restart) to its end: the walk
// goes through the scan pipeline's submit in batches, and after each batch waits until
// few of its rows are left unfinished (and the job is not paused); once the walk is
// done it waits for its last rows, then writes the summary from the rows themselves.
import { TERMINAL_STATUSES, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import type { History } from '../history/history.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import type { Intake } from '../scans/ports.ts';
import { activeMs } from './job-progress.ts';
import { waitFor, type JobRun } from './job-run.ts';
import type { JobRunOptions, JobState } from './job-state.ts';
import { walkJob, type JobWalk } from './walk-job.ts';

/** The walk goes on once no more than this many of the job's rows are unfinished (then a batch of up to 200 follows). */
export const DRAIN_MARK = 200;

export interface JobDeps {
  history: Pick<History, 'jobs' | 'get' | 'flush'>;
  pipeline: Pick<ScanPipeline, 'submit'>;
  intake: Intake;
  now: () => number;
  /** Tells subscribers (forced: a change of state, always sent). */
  emit: (run: JobRun, forced: boolean) => void;
  /** One of the job's files reached its end (or one the caller stopped waiting for). */
  fileDone: (run: JobRun, record: ScanRecord) => void;
  /** A kind's own walk instead of its roots' (the recheck after a signature update walks its selection). */
  walks?: Partial<Record<JobState['kind'], JobWalk>>;
}

export async function runJob(deps: JobDeps, run: JobRun, options: JobRunOptions): Promise<JobState | null> {
  const { state } = run;
  await waitFor(run, () => state.status !== 'paused' || run.cancelled || run.stopping);
  if (!state.walkComplete && !run.cancelled && !run.stopping) {
    await deps.pipeline.submit(state.roots, {
      origin: state.origin,
      mode: options.mode,
      force: options.force,
      ...(options.basicOnly ? { basicOnly: true } : {}),
      jobId: state.id,
      walk: (intakeOptions) => (deps.walks?.[state.kind] ?? walkJob)(run, deps.intake, intakeOptions),
      afterBatch: (records) => afterBatch(deps, run, records),
    });
    if (run.stopping) return null;
    if (!run.cancelled) {
      state.walkComplete = true;
      state.currentFolder = null;
      deps.history.jobs.save(state);
      deps.emit(run, true);
    }
  }
  letGoUnheard(deps, run);
  await waitFor(run, () => run.cancelled || run.stopping || (run.pending.size === 0 && state.status === 'running'));
  if (run.stopping) return null;
  return finishJob(deps, run);
}

/**
 * Rows of the job that ended unheard (before a restart's subscription) are counted and told here. The
 * writes that wait for a grouped commit go first: this connection reads them already, but their events
 * come only after the commit, and a row let go before its event would never be told (a file missing
 * from the scan's results, seen under load: a verdict and the walk's last callback in one turn).
 */
export function letGoUnheard(deps: Pick<JobDeps, 'history' | 'fileDone'>, run: JobRun): void {
  deps.history.flush();
  for (const id of [...run.pending]) {
    const record = deps.history.get(id);
    if (!isSettled(run, record)) continue;
    run.pending.delete(id);
    if (!record) continue;
    countFinished(run, record);
    deps.fileDone(run, record);
  }
}

/** A batch was written: its rows finished at intake are counted, the others awaited; then the walk waits for room. */
async function afterBatch(deps: JobDeps, run: JobRun, records: readonly ScanRecord[]): Promise<void> {
  for (const record of records) {
    if (!TERMINAL_STATUSES.includes(record.status)) {
      run.pending.add(record.id);
      continue;
    }
    countFinished(run, record);
    deps.fileDone(run, record);
  }
  deps.history.jobs.save(run.state);
  deps.emit(run, false);
  await waitFor(run, () => run.cancelled || run.stopping || (run.state.status === 'running' && run.pending.size <= DRAIN_MARK));
}

/** A row of this job reached its end (or one the caller stopped waiting for). */
export function countFinished(run: JobRun, record: ScanRecord): void {
  const counts = run.state.counts;
  const verdict = verdictOf(record);
  if (verdict === 'skipped') counts.skipped++;
  // Basic checks only and scanned in part are verdicts too (counted as scanned, as jobTotals counts them); the CLI tells those files apart.
  else if (verdict === 'safe' || verdict === 'basic-only' || verdict === 'partial' || verdict === 'allowed' || verdict === 'unsafe') counts.scanned++;
  else counts.couldNotScan++;
  if (verdict === 'unsafe') counts.threats++;
  if (verdict === 'basic-only') counts.basicOnly = (counts.basicOnly ?? 0) + 1;
  if (verdict === 'partial') counts.partial = (counts.partial ?? 0) + 1;
}

export function isSettled(run: Pick<JobRun, 'settled'>, record: ScanRecord | null): boolean {
  return record === null || TERMINAL_STATUSES.includes(record.status) || run.settled?.(record) === true;
}

/** The summary: counted again from the job's rows (exact across restarts), kept as the job's row. */
function finishJob(deps: JobDeps, run: JobRun): JobState {
  const { state } = run;
  const now = deps.now();
  const totals = deps.history.jobs.totals(state.id);
  const { pending, ...counted } = totals;
  // Rows still waiting when a completed job ends are ones the caller gave up on: could not scan.
  const couldNotScan = counted.couldNotScan + (run.cancelled ? 0 : pending);
  state.counts = { ...state.counts, ...counted, couldNotScan };
  state.activeMs = activeMs(state, now);
  state.runningSince = null;
  state.currentFolder = null;
  state.status = run.cancelled ? 'cancelled' : 'completed';
  state.finishedAt = new Date(now).toISOString();
  deps.history.jobs.save(state);
  deps.emit(run, true);
  return state;
}
