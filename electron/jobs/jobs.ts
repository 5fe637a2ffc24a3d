// Scan jobs: quick, full and custom scans of whole folders, through the same scan
// pipeline as every other file. This coordinator starts, pauses, resumes and cancels
// them, resumes the unfinished ones after a restart, and tells subscribers their
// progress; each step lives in its own file (roots, exclusions, walk, run, progress).
import type { ModeChoice, ScanOrigin, ScanRecord } from '../../shared/scans/record.ts';
import type { History } from '../history/history.ts';
import type { ScanEvents } from '../scans/events.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import type { Intake } from '../scans/ports.ts';
import { createCompactor } from './compact-jobs.ts';
import { accrue, attach, markInterrupted, relaunch, runOptionsOf, startNew, type JobsContext } from './job-launch.ts';
import { progressOf, type JobProgress } from './job-progress.ts';
import { rootsFor, type JobPlaces } from './job-roots.ts';
import { wake, type JobRun } from './job-run.ts';
import { isFinal, type JobKind, type JobState } from './job-state.ts';
import { sameUnfinished } from './same-job.ts';
import { countFinished, DRAIN_MARK, isSettled, type JobDeps } from './run-job.ts';

export type { JobProgress } from './job-progress.ts';
export type { JobKind, JobState } from './job-state.ts';

export interface JobRequest {
  kind: JobKind;
  /** A custom job's folders and files. */
  roots?: readonly string[];
  origin?: ScanOrigin;
  mode?: ModeChoice;
  force?: boolean;
  /** Scan the job's files with basic checks only when ClamAV, known here, is not available (the CLI's --basic-only). */
  basicOnly?: boolean;
  /** A non-terminal row to stop waiting for (the CLI: no key, service down): counted as could not scan. */
  settled?: (record: ScanRecord) => boolean;
  /** A `drive` job's drive (electron/drives/): its label names the job. */
  drive?: JobState['drive'];
  /** Folders the job leaves out besides its kind's defaults (a saved scan's, electron/saved-scans/). */
  excluded?: readonly string[];
  /** The saved scan this job runs (electron/saved-scans/): it names the job, and `excluded` are its settings'. */
  savedScan?: string;
}

/** Progress (throttled; every change of state is sent), each of a job's files as it ends, and jobs history retention removed. */
export type JobEvent = { type: 'progress'; progress: JobProgress } | { type: 'file'; jobId: number; record: ScanRecord } | { type: 'removed'; ids: number[] };

export interface Jobs {
  start(request: JobRequest): Promise<JobState>;
  /**
   * The same scan run again (the CLI): the unfinished job of the same kind, folders and options, which
   * the start resumed, goes on with this caller's `settled`, its earlier files kept; else a new job starts.
   */
  continueOrStart(request: JobRequest): Promise<{ job: JobState; continued: boolean }>;
  /** The job's files that have ended so far, oldest first (read in batches; before the job is compacted). */
  finishedRecords(id: number): Generator<ScanRecord>;
  /** What stopped the job's run in this process before it ended (a full disk, a failing history), or null. */
  stoppedBy(id: number): unknown;
  /** Resolves with the final state, or null when the core closed first (the job resumes at the next start). */
  finished(id: number): Promise<JobState | null>;
  pause(id: number): JobState | null;
  /** A paused job goes on; an interrupted one (its run stopped by an error) starts again where it was. */
  resume(id: number): JobState | null;
  /** Stops the walk; the few files already queued still finish (each file exactly once). `reason`: not the user's (a drive removed). */
  cancel(id: number, reason?: JobState['stopReason']): JobState | null;
  get(id: number): JobState | null;
  list(limit?: number): JobState[];
  progress(id: number): JobProgress | null;
  onEvent(listener: (event: JobEvent) => void): () => void;
  /** History retention removed these finished jobs: tells subscribers. */
  removed(ids: readonly number[]): void;
  /**
   * After the pipeline's recovery started: jobs left running or paused go on where they were,
   * and finished jobs whose clean rows have not all moved to the compact store are compacted.
   */
  resumeUnfinished(): void;
  /** Resolves once a finished job's clean rows are in the history's compact store (compact-jobs.ts), or the core closes first. */
  compacted(id: number): Promise<void>;
  close(): Promise<void>;
}

export interface JobsInput {
  history: History;
  pipeline: Pick<ScanPipeline, 'submit'>;
  intake: Intake;
  events: Pick<ScanEvents, 'subscribe'>;
  places: JobPlaces;
  dataDir: string;
  now?: () => number;
  onError?: (error: unknown, job: JobState) => void;
  /** Lets these scans of the embedded service go on with basic checks only (a resumed basic-only job's rows waiting there). */
  allowBasicOnly?: (serviceScanIds: readonly string[]) => void;
  /** Moving a finished job's clean rows to the compact store failed (it is tried again at the next start). */
  onCompactError?: (error: unknown, jobId: number) => void;
  /** Awaited before a finished job's clean rows move to the compact store (the recheck remembers them by id first). */
  beforeCompact?: () => Promise<void>;
  /** A kind's own walk (the recheck's selection) instead of walking its roots. */
  walks?: JobDeps['walks'];
}

/** Progress events of a job go out at most this often (changes of state always). */
const PROGRESS_INTERVAL_MS = 200;

export function createJobs(input: JobsInput): Jobs {
  const { history } = input;
  const now = input.now ?? Date.now;
  const runs = new Map<number, JobRun>();
  const listeners = new Set<(event: JobEvent) => void>();
  const lastSent = new Map<number, number>();
  const send = (event: JobEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  const progress = (state: JobState) => progressOf(state, history.jobs.lastCompleted(state.kind, state.id), now());
  const emit = (run: JobRun, forced: boolean) => {
    const at = now();
    if (!forced && at - (lastSent.get(run.state.id) ?? -Infinity) < PROGRESS_INTERVAL_MS) return;
    lastSent.set(run.state.id, at);
    send({ type: 'progress', progress: progress(run.state) });
  };
  const fileDone = (run: JobRun, record: ScanRecord) => send({ type: 'file', jobId: run.state.id, record });
  const compactor = createCompactor({ history, onError: input.onCompactError, ...(input.beforeCompact ? { beforeCompact: input.beforeCompact } : {}) });
  const stoppedBy = new Map<number, unknown>();
  const deps: JobDeps = { history, pipeline: input.pipeline, intake: input.intake, now, emit, fileDone, ...(input.walks ? { walks: input.walks } : {}) };

  const unsubscribe = input.events.subscribe((event) => {
    if (event.type !== 'record') return;
    // A clean file that moved into the compact store is told under its new id, with the one it waited under.
    const id = event.was ?? event.record.id;
    for (const run of runs.values()) {
      if (!run.pending.has(id) || !isSettled(run, event.record)) continue;
      run.pending.delete(id);
      countFinished(run, event.record);
      fileDone(run, event.record);
      emit(run, false);
      if (run.pending.size <= DRAIN_MARK) wake(run);
    }
  });

  const ctx: JobsContext = { input, runs, stoppedBy, compactor, deps };

  const change = (id: number, apply: (run: JobRun) => void): JobState | null => {
    const run = runs.get(id);
    if (!run) return history.jobs.get(id);
    apply(run);
    history.jobs.save(run.state);
    emit(run, true);
    wake(run);
    return { ...run.state };
  };

  return {
    start: async (request) => startNew(ctx, request, await rootsFor(request.kind, input.places, request.roots ?? [])),
    async continueOrStart(request) {
      const roots = await rootsFor(request.kind, input.places, request.roots ?? []);
      const same = sameUnfinished(runs.values(), request.kind, roots, runOptionsOf(request), (id) => history.jobs.runOptions(id));
      if (!same) return { job: startNew(ctx, request, roots), continued: false };
      attach(ctx, same, request.settled);
      return { job: { ...same.state }, continued: true };
    },
    stoppedBy: (id) => stoppedBy.get(id) ?? null,
    finishedRecords: (id) => history.jobs.finishedRecords(id),
    finished: (id) => runs.get(id)?.finished ?? Promise.resolve(history.jobs.get(id)),
    pause: (id) =>
      change(id, (run) => {
        if (run.state.status !== 'running' || run.cancelled) return;
        accrue(ctx, run.state);
        run.state.status = 'paused';
      }),
    resume: (id) => {
      const saved = runs.has(id) ? null : history.jobs.get(id);
      if (saved && !isFinal(saved.status)) relaunch(ctx, saved);
      return change(id, (run) => {
        if (run.state.status !== 'paused' || run.cancelled) return;
        run.state.status = 'running';
        run.state.runningSince = now();
      });
    },
    cancel: (id, reason) =>
      change(id, (run) => {
        if (run.state.status === 'running') accrue(ctx, run.state);
        if (reason && !run.cancelled) run.state.stopReason = reason;
        run.cancelled = true;
      }),
    get: (id) => {
      const run = runs.get(id);
      return run ? { ...run.state } : history.jobs.get(id);
    },
    list: (limit) => history.jobs.list(limit).map((job) => (runs.has(job.id) ? { ...runs.get(job.id)!.state } : job)),
    progress: (id) => {
      const state = runs.get(id)?.state ?? history.jobs.get(id);
      return state ? progress(state) : null;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    removed(ids) {
      if (ids.length > 0) send({ type: 'removed', ids: [...ids] });
    },
    resumeUnfinished() {
      for (const saved of history.jobs.unfinished()) if (!runs.has(saved.id)) relaunch(ctx, saved);
      for (const id of history.jobs.uncompacted()) compactor.add(id);
    },
    compacted: (id) => compactor.done(id),
    async close() {
      unsubscribe();
      const open = [...runs.values()];
      for (const run of open) {
        run.stopping = true;
        // Stopped before its end: the next start (or the same scan run again) resumes it.
        markInterrupted(ctx, run);
        wake(run);
      }
      await Promise.all(open.map((run) => run.finished));
      await compactor.close();
      listeners.clear();
    },
  };
}
