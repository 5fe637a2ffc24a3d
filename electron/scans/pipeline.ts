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
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Stats } from 'node:fs';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import { queuedRecord, TERMINAL_STATUSES, type ModeChoice, type RecordError, type ScanOrigin, type ScanRecord, type SubmitSummary } from '../../shared/scans/record.ts';
import { LINK_OUTSIDE } from '../../shared/scans/exclusion.ts';
import { exclusionError, type ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';
import type { ScanRecordPatch } from '../history/history.ts';
import type { QuarantineRequest } from '../quarantine/quarantine.ts';
import type { ThreatResponse } from '../quarantine/threat-response.ts';
import type { ScanEvents } from './events.ts';
import { gaveUp, scanFailure } from './failure-text.ts';
import {
  changedDuringUploadFailure,
  classifyError,
  fileChangedFailure,
  LocalFailure,
  notRegularFailure,
  recordErrorOf,
  tooLargeFailure,
  type ErrorAction,
} from './failures.ts';
import { IdQueue } from './id-queue.ts';
import { decideMode, modeForUpload } from './mode.ts';
import type { FileDigests, Fingerprinter, HistoryPort, Intake, ServiceAvailability, ServicePort } from './ports.ts';
import { makeReference } from './reference.ts';

/** Why a non-terminal record waits (ScanRecord.pendingReason). */
export const PENDING_REASONS = {
  awaitingApiKey: 'awaiting_api_key',
  backendUnavailable: 'backend_unavailable',
  retrying: 'retrying',
  serviceUnreachable: 'service_unreachable',
  fingerprinting: 'fingerprinting',
  waitingForIdentical: 'waiting_for_identical',
  /** A manual scan for a remote service the user has not agreed to send files to (yet). */
  awaitingUploadConsent: 'awaiting_upload_consent',
} as const;

export interface PipelineLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface PipelineOptions {
  history: HistoryPort & { transaction<T>(fn: () => T): T };
  /**
   * The service a record goes to right now: the settings' backend, or the one its watched folder
   * chose (rebuilt by the backend module when settings or the key change).
   */
  service: (route: RecordRoute) => ServiceAvailability;
  /**
   * The label of that service (`local` or the remote origin): stored in new records, and the name of the
   * lane the record waits in. Each lane pauses and backs off on its own, so a remote service without a key
   * or answering 503 never holds up files that go to the built-in engine.
   */
  backendLabel: (route: RecordRoute) => string;
  fingerprint: Fingerprinter;
  intake: Intake;
  settings: () => { mode: ModeChoice; reuseVerdictDays: number };
  installId: string;
  events: ScanEvents;
  /** Files fingerprinted/uploaded at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Scans followed at the service at once before new uploads wait (default 100). */
  maxProcessing?: number;
  /** The pipeline's own backoff after the client's retries are spent (default 5 s doubling to 5 min). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How often an unusable answer is retried before the file fails (default 5). */
  maxUnclearAttempts?: number;
  log?: PipelineLog;
  now?: () => number;
  random?: () => number;
  /** Exclusions and the size limit for automatic scans; absent: nothing is excluded. */
  exclusions?: () => Pick<ExclusionMatcher, 'check'>;
  /** The watched folders, to find whose rules apply to an automatic scan's file. */
  watchedFolders?: () => ReadonlyArray<{ id: string; path: string }>;
  /** What to do after a verdict (decided in the same write as the verdict); absent: nothing. */
  threatResponse?: (record: ScanRecord) => ThreatResponse;
  /** A threat to move to quarantine; its record already says `quarantine_pending`. Runs outside the pipeline's slots. */
  onThreat?: (record: ScanRecord, request: QuarantineRequest) => void;
  /**
   * Whether a record that was never sent to this service may be (the user's consent for
   * manual scans to a remote service). false: it waits, `awaiting_upload_consent`.
   */
  mayUpload?: (record: ScanRecord, serviceLabel: string) => boolean;
}

/** What decides where a record is sent: its path (the watched folder it lies in) and how it was handed in. */
export type RecordRoute = Pick<ScanRecord, 'path' | 'origin'>;

export interface SubmitOptions {
  origin: ScanOrigin;
  mode?: ModeChoice;
  /** Bypass verdict reuse and exclusions (scan again, "scan anyway"). Implied by origin `rescan`. */
  force?: boolean;
  /** The service origin the user agreed to send these files to (see mayUpload). */
  uploadConsent?: string;
  /** The real path of the folder the paths were found in (a rescan of a link out of it): links are followed only into it. */
  within?: string;
}

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
  /** `ids` has every record made (queued, skipped by an exclusion, or failed at intake). */
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
  idle(): Promise<void>;
  state(): PipelineState;
  close(): Promise<void>;
}

/** `lane`: waiting in its service's lane (paused, or backing off) rather than in the ready queue. */
type Owner = 'ready' | 'active' | 'following' | 'parked' | 'delayed' | 'follower' | 'held' | 'lane';
type AbortReason = 'closing' | 'paused' | 'backend_changed';

/** One service's share of the queue: its pause and backoff, and the records waiting for them to lift. */
interface Lane {
  label: string;
  paused: { reason: string; message: string } | null;
  backoff: { attempt: number; until: number };
  waiting: IdQueue;
  timer: NodeJS.Timeout | null;
}

interface Prepared {
  size: number;
  digests: FileDigests;
}

/**
 * Files fingerprinted or uploaded at once. 6 rather than 3: small files spend most of their time
 * waiting on the service, and 6 gave 216–361 files/s against 173–217 with 3 (notes/pipeline.md).
 */
export const DEFAULT_CONCURRENCY = 6;

const SAME_CONTENT_RETRIES = 3;
const INSERT_BATCH = 500;
const INSERT_BATCH_MS = 250;

export function createScanPipeline(options: PipelineOptions): ScanPipeline {
  const { history, events } = options;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const maxProcessing = Math.max(1, options.maxProcessing ?? 100);
  const retryBaseMs = options.retryBaseMs ?? 5_000;
  const retryMaxMs = options.retryMaxMs ?? 300_000;
  const maxUnclearAttempts = options.maxUnclearAttempts ?? 5;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log;

  const ready = new IdQueue();
  /** Where each non-terminal record the pipeline knows about is right now. */
  const owner = new Map<string, Owner>();
  const controllers = new Map<string, AbortController>();
  const running = new Set<Promise<void>>();
  const timers = new Map<string, NodeJS.Timeout>();
  /** Records whose POST may have reached the service: look the reference up before sending again. */
  const lookupFirst = new Set<string>();
  /** Records that must not reuse an earlier verdict (scan again). */
  const forced = new Set<string>();
  /** Records the user agreed to send, and to which service origin (given with the submission). */
  const consented = new Map<string, string>();
  const unclearAttempts = new Map<string, number>();
  const changeAttempts = new Map<string, number>();
  /** Identical content in flight: the first upload leads, the rest wait for its verdict. */
  const leaders = new Map<string, string>();
  const followers = new Map<string, string[]>();
  const idleWaiters: Array<() => void> = [];
  /**
   * Files waiting for their turn, by path: handing the same file in again before
   * it started adds nothing (it is read when its turn comes, so the newest content counts).
   */
  const waitingByPath = new Map<string, string>();
  const waitingPaths = new Map<string, string>();

  const lanes = new Map<string, Lane>();
  /** Path and origin of every record the pipeline holds (they never change), to find its lane without a read. */
  const routes = new Map<string, RecordRoute>();
  /** The service label each active or followed record is working with. */
  const workingAt = new Map<string, string>();
  let intakeRunning = 0;
  let started = false;
  let closed = false;
  let activeCount = 0;
  let followingCount = 0;

  // ---- bookkeeping ------------------------------------------------------------

  const isoNow = () => new Date(now()).toISOString();

  const save = (id: string, patch: ScanRecordPatch): ScanRecord | null => {
    const record = history.update(id, patch);
    if (record) events.record(record);
    events.countsChanged();
    return record;
  };

  /** A state shown to subscribers but not written (it is not needed to recover). */
  const announce = (record: ScanRecord, patch: Partial<ScanRecord>) => {
    events.record({ ...record, ...patch });
  };

  const setOwner = (id: string, next: Owner | null) => {
    const previous = owner.get(id);
    if (previous === 'active') activeCount--;
    if (previous === 'following') followingCount--;
    if (next === null) owner.delete(id);
    else owner.set(id, next);
    if (next === 'active') activeCount++;
    if (next === 'following') followingCount++;
  };

  const isIdle = () => owner.size === 0 && intakeRunning === 0;

  const notifyIdle = () => {
    if (!isIdle() && !closed) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const enqueue = (id: string, front = false) => {
    const current = owner.get(id);
    if (current === 'ready' || current === 'active') return;
    setOwner(id, 'ready');
    if (front) ready.pushFront(id);
    else ready.push(id);
  };

  const track = (promise: Promise<void>) => {
    running.add(promise);
    void promise.finally(() => running.delete(promise));
  };

  // ---- scheduling ---------------------------------------------------------------

  const laneNamed = (label: string): Lane => {
    let lane = lanes.get(label);
    if (!lane) {
      lane = { label, paused: null, backoff: { attempt: 0, until: 0 }, waiting: new IdQueue(), timer: null };
      lanes.set(label, lane);
    }
    return lane;
  };

  const laneFor = (route: RecordRoute): Lane => laneNamed(options.backendLabel(route));

  const routeOf = (id: string): RecordRoute | null => {
    const known = routes.get(id);
    if (known) return known;
    const record = history.get(id);
    if (!record) return null;
    const route = { path: record.path, origin: record.origin };
    routes.set(id, route);
    return route;
  };

  /** The lane a record waits in now (its route is decided again each time: the settings may have changed). */
  const laneOf = (id: string): Lane | null => {
    const route = routeOf(id);
    return route ? laneFor(route) : null;
  };

  /** The lane of the service a record was last working with, else where it would go now. */
  const workingLane = (id: string): Lane | null => {
    const label = workingAt.get(id);
    return label !== undefined ? laneNamed(label) : laneOf(id);
  };

  const laneBlocked = (lane: Lane) => lane.paused !== null || lane.backoff.until > now();

  /** The record waits in its lane until the pause lifts or the backoff ends; says why when a reason is given. */
  const holdInLane = (id: string, lane: Lane, reason: string | null, front: boolean) => {
    if (owner.get(id) !== 'ready') setOwner(id, null);
    setOwner(id, 'lane');
    if (front) lane.waiting.pushFront(id);
    else lane.waiting.push(id);
    if (reason !== null) save(id, { pendingReason: reason });
    armLaneTimer(lane);
  };

  const armLaneTimer = (lane: Lane) => {
    if (lane.timer || lane.paused || closed) return;
    // Armed even when the backoff has already ended (then for the next turn of the event loop): it can end
    // between the check that held a record and this line (a long transaction holding a big batch, a GC
    // pause), and a lane with records but no timer would keep them until something else happened.
    const wait = Math.max(0, lane.backoff.until - now());
    lane.timer = setTimeout(() => {
      lane.timer = null;
      releaseLane(lane);
    }, wait);
  };

  /** Everything waiting in the lane goes back to the front of the line, in its order. */
  const releaseLane = (lane: Lane) => {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    const waiting = [...lane.waiting];
    lane.waiting.clear();
    for (let i = waiting.length - 1; i >= 0; i--) {
      const id = waiting[i]!;
      if (owner.get(id) !== 'lane') continue;
      setOwner(id, 'ready');
      ready.pushFront(id);
    }
    pump();
  };

  const pump = () => {
    if (closed || !started) return;
    let held: Array<[string, Lane]> | null = null;
    while (activeCount < concurrency && followingCount < maxProcessing && !closed) {
      const id = ready.shift();
      if (id === undefined) break;
      if (owner.get(id) !== 'ready') continue; // moved elsewhere while it waited (stale entry)
      const lane = laneOf(id);
      if (lane && laneBlocked(lane)) {
        (held ??= []).push([id, lane]);
        continue;
      }
      startWork(id);
    }
    if (held) {
      // One transaction for the lot: a paused lane can pull thousands of records out of line at once.
      const moved = held;
      history.transaction(() => {
        for (const [id, lane] of moved) holdInLane(id, lane, lane.paused?.reason ?? null, false);
      });
    }
    notifyIdle();
  };

  const startWork = (id: string) => {
    setOwner(id, 'active');
    forgetWaitingPath(id);
    runCancellable(id, 'active', (signal) => processRecord(id, signal));
  };

  /** Runs a record's work with its own abort signal; whatever happens, the record is let go and the queue moves on. */
  function runCancellable(id: string, as: 'active' | 'following', work: (signal: AbortSignal) => Promise<void>) {
    const phase = as === 'active' ? 'upload' : 'follow';
    const controller = new AbortController();
    controllers.set(id, controller);
    track(
      (async () => {
        try {
          await work(controller.signal);
        } catch (error) {
          handleError(id, error, controller.signal, phase);
        } finally {
          if (controllers.get(id) === controller) controllers.delete(id);
          if (owner.get(id) === as) setOwner(id, null);
          events.countsChanged();
          pump();
          notifyIdle();
        }
      })(),
    );
  }

  // ---- one record, from queued to handed off ----------------------------------------

  async function processRecord(id: string, signal: AbortSignal): Promise<void> {
    let record = history.get(id);
    if (!record || TERMINAL_STATUSES.includes(record.status)) return;
    const route = { path: record.path, origin: record.origin };
    const availability = options.service(route);
    if (!availability.ok) {
      const lane = laneFor(route);
      pauseLane(lane, availability.reason, availability.message);
      holdInLane(id, lane, availability.reason, true);
      return;
    }
    const service = availability.service;
    workingAt.set(id, service.label);

    // Sent to this service before (with consent at the time): following or looking it up sends nothing new.
    const sentHere = record.submittedAt !== null && record.backend === service.label;
    if (!sentHere && options.mayUpload && consented.get(id) !== service.label && !options.mayUpload(record, service.label)) {
      setOwner(id, 'held');
      save(id, { status: 'queued', pendingReason: PENDING_REASONS.awaitingUploadConsent });
      return;
    }

    if (record.serviceScanId) {
      if (record.backend === service.label) {
        startFollowing(save(id, { status: 'processing', pendingReason: null }) ?? record, service);
        return;
      }
      // Followed at another backend (the settings changed meanwhile): submit here under the same reference.
      record = save(id, { serviceScanId: null, submittedAt: null, status: 'queued' }) ?? record;
    }

    if (lookupFirst.has(id) || (record.submittedAt !== null && record.serviceScanId === null)) {
      const found = await service.lookup(record.externalReferenceId, signal);
      lookupFirst.delete(id);
      succeeded(service.label);
      if (found) {
        adopt(id, found, service);
        return;
      }
    }

    // Fingerprinting is shown live but not written: until the upload starts, a crash leaves a plain queued row.
    announce(record, { status: 'uploading', pendingReason: PENDING_REASONS.fingerprinting });
    const prepared = await prepare(record, signal);
    const digests: ScanRecordPatch = {
      size: prepared.size,
      md5: prepared.digests.md5,
      sha1: prepared.digests.sha1,
      sha256: prepared.digests.sha256,
    };

    if (!forced.has(id) && record.origin !== 'rescan') {
      if (reuseEarlierVerdict(id, prepared.digests.sha256, service.label, digests)) return;
      const leader = leaders.get(prepared.digests.sha256);
      if (leader !== undefined && leader !== id) {
        setOwner(id, 'follower');
        const waiting = followers.get(prepared.digests.sha256) ?? [];
        waiting.push(id);
        followers.set(prepared.digests.sha256, waiting);
        save(id, { ...digests, status: 'queued', pendingReason: PENDING_REASONS.waitingForIdentical });
        return;
      }
    }
    leaders.set(prepared.digests.sha256, id);

    const fallbackMode = decideMode({ origin: record.origin, size: prepared.size, choice: options.settings().mode });
    const mode = modeForUpload(record.mode, prepared.size, fallbackMode);
    // Persisted before the POST (one write with the digests): from here on a crash is
    // recovered by looking the reference up.
    record =
      save(id, { ...digests, status: 'uploading', pendingReason: null, error: null, backend: service.label, mode, submittedAt: isoNow() }) ?? record;
    lookupFirst.add(id);
    const current = record;
    let sentAll = false;
    const scan = await service.submit(
      { path: record.path, name: record.fileName, size: prepared.size, content: prepared.digests.content },
      {
        mode,
        externalReferenceId: record.externalReferenceId,
        signal,
        onProgress: (sent, total) => {
          if (signal.aborted) return;
          events.progress({ id, sent, total });
          // Every byte is out: the service is scanning now (a sync answer can take up to 90 s).
          if (!sentAll && total > 0 && sent >= total && mode === 'sync') {
            sentAll = true;
            announce(current, { status: 'processing' });
          }
        },
      },
    );
    lookupFirst.delete(id);
    succeeded(service.label);
    adopt(id, scan, service);
  }

  /** Stat, fingerprint, stat again: the digests must describe one stable content. */
  async function prepare(record: ScanRecord, signal: AbortSignal): Promise<Prepared> {
    for (let attempt = 1; attempt <= SAME_CONTENT_RETRIES; attempt++) {
      const before = await statFile(record.path);
      const digests = await options.fingerprint(record.path, signal);
      const after = await statFile(record.path);
      if (sameFile(before, after) && digests.bytesRead === after.size) return { size: after.size, digests };
      log?.info('file changed while fingerprinting; reading it again', { id: record.id, attempt });
      await delay(200 * attempt, signal);
    }
    throw fileChangedFailure();
  }

  function reuseEarlierVerdict(id: string, sha256: string, backendLabel: string, digests: ScanRecordPatch): boolean {
    const days = options.settings().reuseVerdictDays;
    if (days <= 0) return false;
    const since = new Date(now() - days * 86_400_000).toISOString();
    const earlier = history.findReusable(sha256, since, { backend: backendLabel });
    if (!earlier || earlier.id === id) return false;
    finishWithReuse(id, earlier, digests);
    return true;
  }

  function finishWithReuse(id: string, earlier: ScanRecord, extra: ScanRecordPatch = {}) {
    setOwner(id, null);
    forgetWaitingPath(id);
    finish(id, {
      ...extra,
      status: 'completed',
      pendingReason: null,
      safe: earlier.safe,
      detailed: earlier.detailed,
      findings: earlier.findings,
      fileType: earlier.fileType,
      completedAt: isoNow(),
      durationMs: 0,
      error: null,
      reusedFromId: earlier.reusedFromId ?? earlier.id,
    });
    consented.delete(id);
  }

  /**
   * Writes a verdict together with what is done about it (one write, so a crash
   * never leaves a threat without its decision), then starts a quarantine.
   */
  function finish(id: string, patch: ScanRecordPatch, current?: ScanRecord): ScanRecord | null {
    let response: ThreatResponse = { kind: 'none' };
    if (patch.safe === false && patch.status === 'completed' && options.threatResponse) {
      const record = current ?? history.get(id);
      if (record) response = options.threatResponse({ ...record, ...patch } as ScanRecord);
    }
    if (response.kind === 'allowed') patch = { ...patch, disposition: 'allowed' };
    if (response.kind === 'quarantine') patch = { ...patch, disposition: 'quarantine_pending' };
    const saved = save(id, patch);
    if (saved && response.kind === 'quarantine') options.onThreat?.(saved, response.request);
    return saved;
  }

  /** Takes over a scan the service has (answer to our POST, a 409, or found by reference). */
  function adopt(id: string, scan: Scan, service: ServicePort) {
    if (scan.status === 'processing') {
      const record = save(id, {
        status: 'processing',
        pendingReason: null,
        serviceScanId: scan.id,
        mode: scan.execution_mode,
        submittedAt: scan.submitted_at,
        backend: service.label,
        error: null,
      });
      if (record) startFollowing(record, service);
      return;
    }
    finishWithScan(id, scan, service.label);
  }

  function finishWithScan(id: string, scan: Scan, backendLabel: string) {
    const record = history.get(id);
    if (!record) return;
    const common: ScanRecordPatch = {
      serviceScanId: scan.id,
      mode: scan.execution_mode,
      backend: backendLabel,
      submittedAt: scan.submitted_at,
      completedAt: scan.completed_at ?? isoNow(),
      durationMs: scan.scan_duration_ms ?? null,
      fileType: scan.file_type ?? null,
      pendingReason: null,
    };
    let final: ScanRecord | null;
    // The service's digest of what it received must be the content we fingerprinted (file_size's
    // unit is not specified, so only the hash is compared).
    const changed = scan.file_hash !== undefined && record.sha256 !== null && scan.file_hash.sha256 !== record.sha256;
    if (scan.status === 'completed' && changed) {
      final = save(id, { ...common, status: 'failed', safe: null, error: changedDuringUploadFailure().recordError });
    } else if (scan.status === 'completed' && scan.result) {
      final = finish(
        id,
        {
          ...common,
          status: 'completed',
          safe: scan.result.safe,
          detailed: scan.result.detailed,
          findings: scan.result.findings,
          error: null,
        },
        record,
      );
    } else {
      // The service's own error is kept as it worded it (in the language Verdict asked for): no parameters.
      const error = scan.error ? { code: scan.error.code, message: scan.error.message } : scanFailure({ cause: 'scan_failed' });
      final = save(id, { ...common, status: 'failed', safe: null, error });
    }
    forget(id);
    releaseLeader(record.sha256, id, final);
  }

  function failRecord(id: string, error: RecordError) {
    const record = save(id, { status: 'failed', pendingReason: null, safe: null, error, completedAt: isoNow() });
    forget(id);
    releaseLeader(record?.sha256 ?? null, id, record);
  }

  function forgetWaitingPath(id: string) {
    const path = waitingPaths.get(id);
    if (path === undefined) return;
    waitingPaths.delete(id);
    if (waitingByPath.get(path) === id) waitingByPath.delete(path);
  }

  /** Drops the in-memory state of a record that reached a terminal state. */
  function forget(id: string) {
    setOwner(id, null);
    forgetWaitingPath(id);
    routes.delete(id);
    workingAt.delete(id);
    lookupFirst.delete(id);
    forced.delete(id);
    consented.delete(id);
    unclearAttempts.delete(id);
    changeAttempts.delete(id);
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
  }

  /** The leader of some content is done: its followers reuse the verdict, or go back in line. */
  function releaseLeader(sha256: string | null, id: string, outcome: ScanRecord | null) {
    if (!sha256 || leaders.get(sha256) !== id) return;
    leaders.delete(sha256);
    const waiting = followers.get(sha256) ?? [];
    followers.delete(sha256);
    const verdict = outcome && outcome.status === 'completed' && outcome.safe !== null ? outcome : null;
    for (const follower of waiting) {
      if (owner.get(follower) !== 'follower') continue;
      if (verdict) finishWithReuse(follower, verdict);
      else {
        save(follower, { status: 'queued', pendingReason: null });
        setOwner(follower, null);
        enqueue(follower, true);
      }
    }
    pump();
  }

  // ---- following processing scans ----------------------------------------------------

  function startFollowing(record: ScanRecord, service: ServicePort) {
    const id = record.id;
    if (!record.serviceScanId) return;
    setOwner(id, 'following');
    workingAt.set(id, service.label);
    const scanId = record.serviceScanId;
    runCancellable(id, 'following', async (signal) => {
      const scan = await service.follow(scanId, signal);
      succeeded(service.label);
      finishWithScan(id, scan, service.label);
    });
  }

  // ---- errors -------------------------------------------------------------------

  function handleError(id: string, error: unknown, signal: AbortSignal, phase: 'upload' | 'follow') {
    if (signal.aborted) {
      handleAbort(id, signal.reason as AbortReason, phase);
      return;
    }
    const outcome: ErrorAction = classifyError(error);
    const record = history.get(id);
    if (!record || TERMINAL_STATUSES.includes(record.status)) return;
    releaseLeaderIfRequeued(record);
    switch (outcome.action) {
      case 'pause_for_key': {
        const lane = workingLane(id);
        if (lane) pauseLane(lane, PENDING_REASONS.awaitingApiKey, outcome.message);
        if (phase === 'follow') park(id);
        else if (lane) {
          save(id, { status: record.serviceScanId ? 'processing' : 'queued' });
          holdInLane(id, lane, PENDING_REASONS.awaitingApiKey, true);
        } else requeue(id, PENDING_REASONS.awaitingApiKey, true);
        return;
      }
      case 'retry':
        retryLater(id, phase, outcome.reason, outcome.code, outcome.message, outcome.retryAfterMs);
        return;
      case 'retry_unclear': {
        const attempts = (unclearAttempts.get(id) ?? 0) + 1;
        unclearAttempts.set(id, attempts);
        if (attempts >= maxUnclearAttempts) {
          failRecord(id, gaveUp(recordErrorOf(outcome), attempts));
          return;
        }
        retryLater(id, phase, PENDING_REASONS.retrying, outcome.code, outcome.message);
        return;
      }
      case 'adopt': {
        const availability = options.service({ path: record.path, origin: record.origin });
        if (availability.ok) {
          const adopted = save(id, { status: 'processing', serviceScanId: outcome.scanId, pendingReason: null });
          if (adopted) {
            setOwner(id, null);
            startFollowing(adopted, availability.service);
            return;
          }
        }
        requeue(id, null, true);
        return;
      }
      case 'lookup':
        lookupFirst.add(id);
        requeue(id, null, true);
        return;
      case 'fail':
        if (phase === 'follow' && outcome.code === 'not_found') {
          // The service no longer knows the scan id (its data was reset, or the key changed
          // integration): find it by reference or submit it again under the same reference.
          const attempts = (unclearAttempts.get(id) ?? 0) + 1;
          unclearAttempts.set(id, attempts);
          if (attempts >= maxUnclearAttempts) {
            failRecord(id, scanFailure({ cause: 'scan_lost' }));
            return;
          }
          lookupFirst.add(id);
          save(id, { serviceScanId: null, status: 'queued', pendingReason: null });
          setOwner(id, null);
          enqueue(id, true);
          pump();
          return;
        }
        failRecord(id, recordErrorOf(outcome));
        return;
      case 'file_problem':
        void recheckFile(id, record, recordErrorOf(outcome));
        return;
      case 'aborted':
        // Not our signal: the backend's client was closed under the request (the backend is being
        // switched). Back in line at once; the next attempt uses the new backend.
        if (phase === 'upload') lookupFirst.add(id);
        requeue(id, null, true);
        pump();
        return;
    }
  }

  function releaseLeaderIfRequeued(record: ScanRecord) {
    if (record.sha256 && leaders.get(record.sha256) === record.id) releaseLeader(record.sha256, record.id, null);
  }

  /** The file could not be read during the upload (`problem` says how): missing, changed, or unreadable? */
  async function recheckFile(id: string, record: ScanRecord, problem: RecordError) {
    setOwner(id, 'delayed');
    try {
      await statFile(record.path);
      const attempts = (changeAttempts.get(id) ?? 0) + 1;
      changeAttempts.set(id, attempts);
      if (attempts >= SAME_CONTENT_RETRIES) {
        failRecord(id, keptChanging(problem));
        return;
      }
      // Probably changed underneath the upload: fingerprint and send it again.
      setOwner(id, null);
      requeue(id, null, true);
    } catch (error) {
      const action = classifyError(error);
      failRecord(id, action.action === 'fail' ? recordErrorOf(action) : { ...problem, code: 'file_unreadable' });
    } finally {
      if (owner.get(id) === 'delayed') setOwner(id, null);
      pump();
      notifyIdle();
    }
  }

  function handleAbort(id: string, reason: AbortReason | undefined, phase: 'upload' | 'follow') {
    if (reason === 'closing' || reason === 'paused') return;
    if (reason === 'backend_changed') {
      const record = history.get(id);
      if (record) releaseLeaderIfRequeued(record);
      if (phase === 'upload' || owner.get(id) === 'following') {
        setOwner(id, null);
        save(id, { status: record?.serviceScanId ? 'processing' : 'queued', pendingReason: null });
        enqueue(id, true);
      }
    }
  }

  /** Back in line (at the front: it keeps its turn), waiting for the given reason. */
  function requeue(id: string, reason: string | null, front: boolean) {
    const record = history.get(id);
    const status = record?.serviceScanId ? 'processing' : 'queued';
    save(id, { status, pendingReason: reason });
    if (owner.get(id) !== 'ready') setOwner(id, null);
    enqueue(id, front);
  }

  /**
   * A transient failure after the client's own retries: the record's service backs off (its whole lane:
   * records for other services go on), the record keeps its place.
   */
  function retryLater(id: string, phase: 'upload' | 'follow', reason: string, code: string, message: string, retryAfterMs?: number) {
    const lane = workingLane(id) ?? laneNamed('unknown');
    const backoff = lane.backoff;
    backoff.attempt++;
    const exponential = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(backoff.attempt - 1, 20));
    const wait = Math.max(retryAfterMs ?? 0, Math.round(exponential * (0.5 + random() / 2)));
    backoff.until = Math.max(backoff.until, now() + wait);
    log?.warn('service trouble; trying again later', { id, code, waitMs: wait, attempt: backoff.attempt, backend: lane.label });
    if (phase === 'follow') {
      save(id, { pendingReason: reason, error: { code, message } });
      setOwner(id, 'delayed');
      const timer = setTimeout(() => {
        timers.delete(id);
        if (owner.get(id) !== 'delayed' || closed) return;
        setOwner(id, null);
        enqueue(id, true);
        pump();
      }, wait);
      timers.set(id, timer);
      return;
    }
    lookupFirst.add(id);
    save(id, { status: 'queued', error: { code, message } });
    // Every record waiting for this service waits for the same reason: say so on each
    // (the UI and a one-shot CLI run rely on it).
    history.transaction(() => {
      holdInLane(id, lane, reason, true);
      moveReadyInto(lane, reason, (waiting) => history.get(waiting)?.pendingReason == null);
    });
  }

  /** Records in the ready line that belong to `lane` wait in it instead (with `reason`, where `shouldSay` agrees). */
  function moveReadyInto(lane: Lane, reason: string, shouldSay: (id: string) => boolean = () => true) {
    const stay: string[] = [];
    for (let id = ready.shift(); id !== undefined; id = ready.shift()) {
      if (owner.get(id) !== 'ready') continue;
      if (laneOf(id) === lane) holdInLane(id, lane, shouldSay(id) ? reason : null, false);
      else stay.push(id);
    }
    for (const id of stay) ready.push(id);
  }

  function succeeded(label: string) {
    const lane = lanes.get(label);
    if (lane) lane.backoff = { attempt: 0, until: 0 };
  }

  // ---- pausing for a key ------------------------------------------------------------

  function pauseLane(lane: Lane, reason: string, message: string) {
    if (lane.paused?.reason === reason) return;
    lane.paused = { reason, message };
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    log?.warn('queue paused', { reason, backend: lane.label });
    // Every record waiting for this service says why it waits; one transaction for the lot.
    history.transaction(() => {
      for (const id of lane.waiting) {
        if (owner.get(id) === 'lane') save(id, { pendingReason: reason });
      }
      moveReadyInto(lane, reason);
      for (const [id, where] of owner) {
        if (where === 'following' && workingAt.get(id) === lane.label) park(id, reason);
      }
    });
  }

  /** A followed scan waits (still processing at the service) until the pause lifts. */
  function park(id: string, reason?: string) {
    const controller = controllers.get(id);
    setOwner(id, 'parked');
    save(id, { pendingReason: reason ?? workingLane(id)?.paused?.reason ?? PENDING_REASONS.awaitingApiKey });
    controller?.abort('paused' satisfies AbortReason);
  }

  /** Lifts every lane's pause and backoff (a key was set, a service became available) and works on. */
  function resume() {
    if (closed) return;
    for (const lane of lanes.values()) {
      const wasPaused = lane.paused;
      lane.paused = null;
      lane.backoff = { attempt: 0, until: 0 };
      if (wasPaused) {
        log?.info('queue resumed', { reason: wasPaused.reason, backend: lane.label });
        history.transaction(() => {
          for (const id of lane.waiting) if (owner.get(id) === 'lane') save(id, { pendingReason: null });
        });
      }
      releaseLane(lane);
    }
    for (const [id, where] of [...owner]) {
      if (where !== 'parked') continue;
      setOwner(id, null);
      enqueue(id, true);
    }
    pump();
  }

  function backendChanged() {
    if (closed) return;
    for (const [id, where] of [...owner]) {
      if (where === 'active' || where === 'following') controllers.get(id)?.abort('backend_changed' satisfies AbortReason);
      else if (where === 'held') release(id);
      else if (where === 'parked' || where === 'delayed') {
        const timer = timers.get(id);
        if (timer) clearTimeout(timer);
        timers.delete(id);
        setOwner(id, null);
        enqueue(id, true);
      }
    }
    resume();
  }

  // ---- intake ---------------------------------------------------------------------

  /** Why an accepted file, or a folder met by the intake, is not scanned (an exclusion or the automatic size limit), or null. */
  function exclusionOf(path: string, size: number | null, origin: ScanOrigin, kind: 'file' | 'folder' = 'file'): RecordError | null {
    if (!options.exclusions) return null;
    const automatic = origin === 'watch';
    const folder = automatic && options.watchedFolders ? findWatchedFolder(path, options.watchedFolders()) : null;
    const hit = options.exclusions().check(path, { size, automatic, kind, ...(folder ? { folderId: folder.id } : {}) });
    return hit ? exclusionError(hit, size, kind) : null;
  }

  async function submit(paths: readonly string[], submitOptions: SubmitOptions): Promise<SubmitSummary & { ids: string[] }> {
    if (closed) throw new Error('The scan pipeline is closed.');
    const force = submitOptions.force === true || submitOptions.origin === 'rescan';
    const choice = submitOptions.mode ?? options.settings().mode;
    const ids: string[] = [];
    let queued = 0;
    let skipped = 0;
    let linksNotFollowed = 0;
    let failed = 0;
    let batch: ScanRecord[] = [];
    let batchStartedAt = 0;
    intakeRunning++;
    const flush = () => {
      if (batch.length === 0) return;
      const records = batch;
      batch = [];
      history.insertMany(records);
      for (const record of records) {
        events.record(record);
        if (record.status === 'queued') {
          routes.set(record.id, { path: record.path, origin: record.origin });
          if (submitOptions.uploadConsent !== undefined) consented.set(record.id, submitOptions.uploadConsent);
          if (force) forced.add(record.id);
          else {
            waitingByPath.set(record.path, record.id);
            waitingPaths.set(record.id, record.path);
          }
          enqueue(record.id);
        }
      }
      events.countsChanged();
      pump();
    };
    try {
      // An excluded folder is not walked: the intake yields it once, listed as skipped (a rescan walks it).
      const excludedFolder = (folder: string) => exclusionOf(folder, null, submitOptions.origin, 'folder');
      const within = submitOptions.within === undefined ? {} : { within: submitOptions.within };
      for await (const entry of options.intake(paths, force ? within : { excludedFolder, ...within })) {
        // Checked first: an excluded file is listed as skipped, never sent (a rescan is "scan anyway").
        const excluded = entry.ok && !force ? exclusionOf(entry.path, entry.size, submitOptions.origin) : null;
        const waiting = entry.ok && !force && !excluded ? waitingByPath.get(entry.path) : undefined;
        if (waiting !== undefined && (owner.get(waiting) === 'ready' || owner.get(waiting) === 'lane')) {
          ids.push(waiting);
          queued++;
          continue;
        }
        const id = randomUUID();
        ids.push(id);
        const at = isoNow();
        const base = newRecord(id, entry.path, submitOptions.origin, at);
        if (entry.ok && excluded) {
          skipped++;
          batch.push({ ...base, size: entry.size, status: 'skipped', error: excluded, completedAt: at });
        } else if (!entry.ok && entry.excluded === true) {
          // An excluded folder, or a link out of the folder being walked: never followed, so nothing is sent
          // (a rescan of the link checks it against that folder again). Counted apart in the summary.
          if (entry.code === LINK_OUTSIDE) linksNotFollowed++;
          else skipped++;
          const { code, message, params } = entry;
          batch.push({ ...base, status: 'skipped', error: { code, message, ...(params ? { params } : {}) }, completedAt: at });
        } else if (entry.ok) {
          queued++;
          batch.push({
            ...base,
            size: entry.size,
            mode: decideMode({ origin: submitOptions.origin, size: entry.size, choice }),
            pendingReason: laneFor(base).paused?.reason ?? null,
          });
        } else {
          failed++;
          batch.push({ ...base, status: 'failed', error: recordErrorOf(entry), completedAt: at });
        }
        if (batch.length === 1) batchStartedAt = now();
        if (batch.length >= INSERT_BATCH || now() - batchStartedAt >= INSERT_BATCH_MS) flush();
        if (closed) break;
      }
      flush();
    } finally {
      intakeRunning--;
      notifyIdle();
    }
    return { queued, skipped, linksNotFollowed, failed, ids };
  }

  /** A record waiting for consent goes back in line (processRecord decides again). */
  function release(id: string) {
    if (owner.get(id) !== 'held') return;
    setOwner(id, null);
    save(id, { pendingReason: null });
    enqueue(id);
  }

  function allowUpload(ids: readonly string[], origin: string): number {
    if (closed) return 0;
    let released = 0;
    history.transaction(() => {
      for (const id of ids) {
        if (!owner.has(id)) continue;
        consented.set(id, origin);
        if (owner.get(id) === 'held') {
          release(id);
          released++;
        }
      }
    });
    pump();
    return released;
  }

  function recheckHeld() {
    if (closed) return;
    history.transaction(() => {
      for (const [id, where] of [...owner]) if (where === 'held') release(id);
    });
    pump();
  }

  function newRecord(id: string, path: string, origin: ScanOrigin, at: string): ScanRecord {
    return queuedRecord({
      id,
      path,
      fileName: basename(path) || path,
      origin,
      backend: options.backendLabel({ path, origin }),
      externalReferenceId: makeReference(options.installId, id),
      queuedAt: at,
    });
  }

  // ---- lifecycle ------------------------------------------------------------------

  function start() {
    if (started || closed) return;
    started = true;
    const pending = history.listPending();
    if (pending.length > 0) log?.info('resuming unfinished scans', { count: pending.length });
    history.transaction(() => {
      for (const record of pending) {
        if (owner.has(record.id)) continue;
        routes.set(record.id, { path: record.path, origin: record.origin });
        // Followed scans first (their uploads are done), then the rest in their original order.
        if (record.serviceScanId) {
          if (record.status !== 'processing' || record.pendingReason) save(record.id, { status: 'processing', pendingReason: null });
          enqueue(record.id, true);
        } else {
          if (record.status !== 'queued' || record.pendingReason) {
            save(record.id, { status: 'queued', pendingReason: null });
          }
          if (record.submittedAt) lookupFirst.add(record.id);
          if (record.origin === 'rescan') forced.add(record.id);
          else {
            waitingByPath.set(record.path, record.id);
            waitingPaths.set(record.id, record.path);
          }
          enqueue(record.id);
        }
      }
    });
    events.countsChanged();
    pump();
    notifyIdle();
  }

  async function close() {
    if (closed) return;
    closed = true;
    for (const lane of lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = null;
      lane.waiting.clear();
    }
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    for (const controller of controllers.values()) controller.abort('closing' satisfies AbortReason);
    await Promise.allSettled([...running]);
    ready.clear();
    owner.clear();
    routes.clear();
    workingAt.clear();
    notifyIdle();
  }

  return {
    start,
    submit,
    allowUpload,
    recheckHeld,
    resume,
    backendChanged,
    idle: () => (isIdle() || closed ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    state: () => ({
      paused: [...lanes.values()].find((lane) => lane.paused)?.paused?.reason ?? null,
      pausedLanes: Object.fromEntries([...lanes.values()].flatMap((lane) => (lane.paused ? [[lane.label, lane.paused.reason]] : []))),
      ready: ready.size,
      active: activeCount,
      following: followingCount,
      waiting: owner.size,
      backoffUntil: Math.max(0, ...[...lanes.values()].map((lane) => lane.backoff.until)),
    }),
    close,
  };
}

/** The file kept changing: what was found the last time (while it was sent, or replaced) is named too. */
function keptChanging(problem: RecordError): RecordError {
  const last = problem.params as ScanFailureParams | undefined;
  if (last?.cause === 'upload_problem') return scanFailure({ ...last, cause: 'kept_changing_upload' });
  if (last?.cause === 'replaced') return scanFailure({ cause: 'kept_changing_replaced', path: last.path });
  const kept = fileChangedFailure();
  return { code: kept.code, message: `${kept.message} (${problem.message})` };
}

async function statFile(path: string): Promise<Stats> {
  const info = await stat(path);
  if (!info.isFile()) throw notRegularFailure();
  if (info.size > MAX_ASYNC_FILE_SIZE) throw tooLargeFailure(info.size);
  return info;
}

const sameFile = (a: Stats, b: Stats) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export { LocalFailure };
