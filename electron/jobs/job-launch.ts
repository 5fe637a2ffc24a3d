// The steps that put a job's run into this process or take it out: a new job, one resumed
// from history, a caller attaching to one it did not start (the CLI run again), and a run
// that stops before its end (interrupted: never left "running" with no one working on it).
// createJobs (jobs.ts) wires them over JobsContext.
import path from 'node:path';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { LOCAL_LABEL } from '../backend/backend-state.ts';
import type { Compactor } from './compact-jobs.ts';
import { defaultExclusions } from './default-exclusions.ts';
import { activeMs } from './job-progress.ts';
import { wake, type JobRun } from './job-run.ts';
import { emptyCounts, type JobRunOptions, type JobState } from './job-state.ts';
import type { JobRequest, JobsInput } from './jobs.ts';
import { letGoUnheard, runJob, type JobDeps } from './run-job.ts';

/** What the jobs subsystem holds while the core runs. */
export interface JobsContext {
  readonly input: JobsInput;
  /** The runs in this process, by job id. */
  readonly runs: Map<number, JobRun>;
  /** What stopped a run before its end (a full disk, a failing history), by job id. */
  readonly stoppedBy: Map<number, unknown>;
  readonly compactor: Compactor;
  readonly deps: JobDeps;
}

/** Kept with the job: a resume after a restart or crash scans its other files alike. */
export const runOptionsOf = (request: JobRequest): JobRunOptions => ({
  ...(request.mode ? { mode: request.mode } : {}),
  ...(request.force ? { force: true } : {}),
  ...(request.basicOnly ? { basicOnly: true } : {}),
  ...(request.drive ? { drive: request.drive } : {}),
  ...savedScanOf(request),
});

/** A saved scan's job: its name and the folders its settings leave out (resolved, as the walk meets them). */
function savedScanOf(request: JobRequest): Pick<JobState, 'savedScan'> {
  if (request.savedScan === undefined) return {};
  return { savedScan: { name: request.savedScan, excluded: [...new Set((request.excluded ?? []).map((folder) => path.resolve(folder)))] } };
}

/** Adds the time since the run (re)started to the job's active time. */
export function accrue(ctx: JobsContext, state: JobState): void {
  state.activeMs = activeMs(state, ctx.deps.now());
  state.runningSince = null;
}

export function startNew(ctx: JobsContext, request: JobRequest, roots: JobState['roots']): JobState {
  const { input, deps } = ctx;
  const at = deps.now();
  const draft: Omit<JobState, 'id'> = {
    kind: request.kind,
    roots,
    excluded: [...new Set([...defaultExclusions(request.kind, input.places, input.dataDir, roots), ...(request.excluded ?? []).map((folder) => path.resolve(folder))])],
    origin: request.origin ?? 'dialog',
    status: 'running',
    walkComplete: false,
    counts: emptyCounts(),
    startedAt: new Date(at).toISOString(),
    finishedAt: null,
    activeMs: 0,
    currentFolder: null,
    runningSince: at,
    ...(request.drive ? { drive: request.drive } : {}),
    ...savedScanOf(request),
  };
  const run = runOptionsOf(request);
  const state: JobState = { ...draft, id: deps.history.jobs.insert(draft, run) };
  launch(ctx, state, null, new Set(), { ...run, settled: request.settled });
  return { ...state };
}

/**
 * An unfinished job from history runs again where it was: its waiting rows are followed, and its folders
 * are walked again, skipping what it recorded. Again even when its walk had ended: files that arrived
 * since (the scan run again an hour later) are part of the job too, or they would be missing from it.
 */
export function relaunch(ctx: JobsContext, saved: JobState): void {
  const { history } = ctx.deps;
  // Loaded now, before recovery's first row can finish unheard.
  const pending = new Set(history.jobs.pendingIds(saved.id));
  const recorded = new Set(history.jobs.paths(saved.id));
  const { pending: _waiting, ...totals } = history.jobs.totals(saved.id);
  const status = saved.status === 'paused' ? 'paused' : 'running';
  // The walk counts found and bytes again, recorded files included.
  const counts = { ...saved.counts, ...totals, found: 0, bytes: 0 };
  const state: JobState = { ...saved, status, walkComplete: false, counts, runningSince: status === 'running' ? ctx.deps.now() : null };
  const run = history.jobs.runOptions(saved.id);
  // Its rows the embedded service held when the app stopped: that service does not keep the choice across a restart.
  if (run.basicOnly) allowWaiting(ctx, pending);
  ctx.stoppedBy.delete(saved.id);
  launch(ctx, state, recorded, pending, run);
  if (status !== saved.status || saved.walkComplete) history.jobs.save(state);
}

/** The caller now waiting for a job it did not start (the CLI): its rows it gives up on end the wait too. */
export function attach(ctx: JobsContext, run: JobRun, settled: JobRequest['settled']): void {
  run.settled = settled;
  letGoUnheard(ctx.deps, run);
  wake(run);
}

/** Stopped before its end (the core closing, or its run failed): it says so, and the next start resumes it. */
export function markInterrupted(ctx: JobsContext, run: JobRun): void {
  if (run.state.status === 'running') {
    accrue(ctx, run.state);
    run.state.status = 'interrupted';
  }
  try {
    ctx.deps.history.jobs.save(run.state);
  } catch {
    // The history cannot be written (a full disk): its row still says unfinished, so the next start resumes it.
  }
  ctx.deps.emit(run, true);
}

function launch(ctx: JobsContext, state: JobState, recorded: Set<string> | null, pending: Set<string>, options: JobRunOptions & Pick<JobRun, 'settled'>): void {
  const run: JobRun = { state, pending, recorded, cancelled: false, stopping: false, wake: null, finished: Promise.resolve(null), settled: options.settled };
  ctx.runs.set(state.id, run);
  run.finished = runJob(ctx.deps, run, options)
    .then((final) => {
      if (final) ctx.compactor.add(final.id);
      return final;
    })
    .catch((error: unknown) => {
      // Never left "running" with no one working on it: interrupted, resumed by *Resume* or at the next start.
      ctx.stoppedBy.set(state.id, error);
      markInterrupted(ctx, run);
      ctx.input.onError?.(error, state);
      return null;
    })
    .finally(() => ctx.runs.delete(state.id));
  ctx.deps.emit(run, true);
}

function allowWaiting(ctx: JobsContext, pending: ReadonlySet<string>): void {
  const held = [...pending].map((id) => ctx.deps.history.get(id)).filter((record): record is ScanRecord => record?.backend === LOCAL_LABEL && record.serviceScanId !== null);
  if (held.length > 0) ctx.input.allowBasicOnly?.(held.map((record) => record.serviceScanId!));
}
