// The scan pipeline: every file handed to Verdict becomes a history row first
// (with its external reference), then is fingerprinted, reused or uploaded
// under bounded concurrency, followed until terminal, and recovered after a
// crash. The queue holds ids only; records live in history.
//
//   intake ──▶ queued ──▶ uploading ──▶ processing ──▶ completed | failed
//     │          ▲  │         │  │           │  ▲
//     │          │  │ (reuse) │  └──(sync)───┼──┘
//     │          │  └─────────┼──────────────┘ completed (reusedFromId)
//     └─(rejected)─▶ failed   │
//                └────────────┘ retry / 401 pause (stays queued, pendingReason)
//
// This file is the coordinator: it builds the pipeline's memory and context and
// wires the stages in pipeline/ (intake, queue, lanes, upload with prepare and
// reuse, follow, finish with the threat response, errors, pause, consent, recovery).
import type { SubmitSummary } from '../../shared/scans/record.ts';
import { allowUpload, recheckHeld } from './pipeline/consent.ts';
import type { Pipeline } from './pipeline/context.ts';
import { engineWaitChanged } from './pipeline/engine-wait.ts';
import { handleError } from './pipeline/errors.ts';
import { submit } from './pipeline/intake.ts';
import { createMemory, isIdle } from './pipeline/memory.ts';
import { DEFAULT_CONCURRENCY, type PipelineOptions, type SubmitOptions } from './pipeline/options.ts';
import { backendChanged, resume } from './pipeline/pause.ts';
import { pump } from './pipeline/queue.ts';
import { recover, shutDown } from './pipeline/recovery.ts';
import { processRecord } from './pipeline/upload.ts';

export { DEFAULT_CONCURRENCY, PENDING_REASONS, type PipelineLog, type PipelineOptions, type RecordRoute, type SubmitOptions } from './pipeline/options.ts';
export { LocalFailure } from './failures.ts';

export interface PipelineState {
  /** Why a lane is paused (the first one found), or null. */
  paused: string | null;
  /** Each paused lane (service label) and why. */
  pausedLanes: Record<string, string>;
  ready: number;
  active: number;
  following: number;
  waiting: number;
  backoffUntil: number;
}

export interface ScanPipeline {
  /** Crash recovery: picks up every non-terminal history row, then starts working. */
  start(): void;
  /**
   * `ids` has every record made (queued, skipped by an exclusion, or failed at intake); none for a
   * scan job (`jobId`: its rows carry the job's id, and its walk may yield millions).
   */
  submit(paths: readonly string[], options: SubmitOptions): Promise<SubmitSummary & { ids: string[] }>;
  /**
   * The user agreed to send these records to `origin`: those waiting for consent go on
   * (if `origin` is still the service in use). Returns how many were waiting.
   */
  allowUpload(ids: readonly string[], origin: string): number;
  /** Consent settings or the backend changed: records waiting for consent are checked again. */
  recheckHeld(): void;
  /** After a key was set or the backend became available: lifts a pause and works on. */
  resume(): void;
  /** The backend (URL, key, kind) changed: in-flight work is moved to the new one. */
  backendChanged(): void;
  /** A service's engine state changed: the files followed there get its wait reason (options.engineWait). */
  engineWaitChanged(): void;
  idle(): Promise<void>;
  state(): PipelineState;
  /** How many records the pipeline holds in memory: none once it is idle (a finished record is forgotten). */
  trackedCount(): number;
  close(): Promise<void>;
}

export function createScanPipeline(options: PipelineOptions): ScanPipeline {
  const p: Pipeline = {
    options,
    history: options.history,
    events: options.events,
    memory: createMemory(),
    limits: {
      concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
      serviceMaySay: options.concurrency === undefined,
      maxProcessing: Math.max(1, options.maxProcessing ?? 100),
      retryBaseMs: options.retryBaseMs ?? 5_000,
      retryMaxMs: options.retryMaxMs ?? 300_000,
      maxUnclearAttempts: options.maxUnclearAttempts ?? 5,
    },
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    log: options.log,
    pump: () => pump(p),
    work: (id, signal) => processRecord(p, id, signal),
    failed: (id, error, signal, phase) => handleError(p, id, error, signal, phase),
  };
  const memory = p.memory;
  const lanes = () => [...memory.lanes.values()];

  return {
    start: () => recover(p),
    submit: (paths, submission) => submit(p, paths, submission),
    allowUpload: (ids, origin) => allowUpload(p, ids, origin),
    recheckHeld: () => recheckHeld(p),
    resume: () => resume(p),
    backendChanged: () => backendChanged(p),
    engineWaitChanged: () => engineWaitChanged(p),
    idle: () => (isIdle(memory) || memory.closed ? Promise.resolve() : new Promise<void>((resolve) => memory.idleWaiters.push(resolve))),
    state: () => ({
      paused: lanes().find((lane) => lane.paused)?.paused?.reason ?? null,
      pausedLanes: Object.fromEntries(lanes().flatMap((lane) => (lane.paused ? [[lane.label, lane.paused.reason]] : []))),
      ready: memory.ready.size,
      active: memory.active,
      following: memory.following,
      waiting: memory.placed,
      backoffUntil: Math.max(0, ...lanes().map((lane) => lane.backoff.until)),
    }),
    trackedCount: () => memory.records.size,
    close: () => shutDown(p),
  };
}
