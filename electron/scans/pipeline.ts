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
import { TERMINAL_STATUSES, type ModeChoice, type ScanOrigin, type ScanRecord } from '../../shared/scans/record.ts';
import { describeExclusion, type ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';
import type { ScanRecordPatch } from '../history/history.ts';
import type { QuarantineRequest } from '../quarantine/quarantine.ts';
import type { ThreatResponse } from '../quarantine/threat-response.ts';
import type { ScanEvents } from './events.ts';
import {
  changedDuringUploadFailure,
  classifyError,
  fileChangedFailure,
  LocalFailure,
  notRegularFailure,
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
  /** The backend to send to right now (rebuilt by the backend module when settings or the key change). */
  service: () => ServiceAvailability;
  /** The label new records get before they are sent (`local` or the remote origin). */
  backendLabel: () => string;
  fingerprint: Fingerprinter;
  intake: Intake;
  settings: () => { mode: ModeChoice; reuseVerdictDays: number };
  installId: string;
  events: ScanEvents;
  /** Files fingerprinted/uploaded at once (default 3). */
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

export interface SubmitOptions {
  origin: ScanOrigin;
  mode?: ModeChoice;
  /** Bypass verdict reuse and exclusions (scan again, "scan anyway"). Implied by origin `rescan`. */
  force?: boolean;
  /** The service origin the user agreed to send these files to (see mayUpload). */
  uploadConsent?: string;
}

export interface PipelineState {
  paused: string | null;
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
  submit(paths: readonly string[], options: SubmitOptions): Promise<{ queued: number; skipped: number; ids: string[] }>;
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

type Owner = 'ready' | 'active' | 'following' | 'parked' | 'delayed' | 'follower' | 'held';
type AbortReason = 'closing' | 'paused' | 'backend_changed';

interface Prepared {
  size: number;
  digests: FileDigests;
}

const SAME_CONTENT_RETRIES = 3;
const INSERT_BATCH = 500;
const INSERT_BATCH_MS = 250;

export function createScanPipeline(options: PipelineOptions): ScanPipeline {
  const { history, events } = options;
  const concurrency = Math.max(1, options.concurrency ?? 3);
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

  let paused: { reason: string; message: string } | null = null;
  let backoff = { attempt: 0, until: 0 };
  let gateTimer: NodeJS.Timeout | null = null;
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

  const pump = () => {
    if (closed || !started || paused) return;
    const wait = backoff.until - now();
    if (wait > 0) {
      if (!gateTimer) {
        gateTimer = setTimeout(() => {
          gateTimer = null;
          pump();
        }, wait);
      }
      return;
    }
    while (activeCount < concurrency && followingCount < maxProcessing && !paused && !closed) {
      const id = ready.shift();
      if (id === undefined) break;
      if (owner.get(id) !== 'ready') continue; // moved elsewhere while it waited (stale entry)
      startWork(id);
    }
    notifyIdle();
  };

  const startWork = (id: string) => {
    setOwner(id, 'active');
    forgetWaitingPath(id);
    const controller = new AbortController();
    controllers.set(id, controller);
    const work = (async () => {
      try {
        await processRecord(id, controller.signal);
      } catch (error) {
        handleError(id, error, controller.signal, 'upload');
      } finally {
        if (controllers.get(id) === controller) controllers.delete(id);
        if (owner.get(id) === 'active') setOwner(id, null);
        events.countsChanged();
        pump();
        notifyIdle();
      }
    })();
    track(work);
  };

  // ---- one record, from queued to handed off ----------------------------------------

  async function processRecord(id: string, signal: AbortSignal): Promise<void> {
    let record = history.get(id);
    if (!record || TERMINAL_STATUSES.includes(record.status)) return;
    const availability = options.service();
    if (!availability.ok) {
      pauseQueue(availability.reason, availability.message);
      requeue(id, availability.reason, true);
      return;
    }
    const service = availability.service;

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
      succeeded();
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
      { path: record.path, name: record.fileName, size: prepared.size },
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
    succeeded();
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
      const failure = changedDuringUploadFailure();
      final = save(id, { ...common, status: 'failed', safe: null, error: { code: failure.code, message: failure.message } });
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
      const error = scan.error ?? { code: 'scan_failed', message: 'The service could not scan this file.' };
      final = save(id, { ...common, status: 'failed', safe: null, error: { code: error.code, message: error.message } });
    }
    forget(id);
    releaseLeader(record.sha256, id, final);
  }

  function failRecord(id: string, code: string, message: string) {
    const record = save(id, { status: 'failed', pendingReason: null, safe: null, error: { code, message }, completedAt: isoNow() });
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
    const controller = new AbortController();
    controllers.set(id, controller);
    const work = (async () => {
      try {
        const scan = await service.follow(record.serviceScanId!, controller.signal);
        succeeded();
        finishWithScan(id, scan, service.label);
      } catch (error) {
        handleError(id, error, controller.signal, 'follow');
      } finally {
        if (controllers.get(id) === controller) controllers.delete(id);
        if (owner.get(id) === 'following') setOwner(id, null);
        events.countsChanged();
        pump();
        notifyIdle();
      }
    })();
    track(work);
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
      case 'pause_for_key':
        pauseQueue(PENDING_REASONS.awaitingApiKey, outcome.message);
        if (phase === 'follow') park(id);
        else requeue(id, PENDING_REASONS.awaitingApiKey, true);
        return;
      case 'retry':
        retryLater(id, phase, outcome.reason, outcome.code, outcome.message, outcome.retryAfterMs);
        return;
      case 'retry_unclear': {
        const attempts = (unclearAttempts.get(id) ?? 0) + 1;
        unclearAttempts.set(id, attempts);
        if (attempts >= maxUnclearAttempts) {
          failRecord(id, outcome.code, `${outcome.message} (gave up after ${attempts} attempts)`);
          return;
        }
        retryLater(id, phase, PENDING_REASONS.retrying, outcome.code, outcome.message);
        return;
      }
      case 'adopt': {
        const availability = options.service();
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
            failRecord(id, 'scan_lost', 'The service keeps losing this scan (its id is unknown there). Scan the file again.');
            return;
          }
          lookupFirst.add(id);
          save(id, { serviceScanId: null, status: 'queued', pendingReason: null });
          setOwner(id, null);
          enqueue(id, true);
          pump();
          return;
        }
        failRecord(id, outcome.code, outcome.message);
        return;
      case 'file_problem':
        void recheckFile(id, record, outcome.message);
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

  /** The file could not be read during the upload: missing, changed, or unreadable? */
  async function recheckFile(id: string, record: ScanRecord, message: string) {
    setOwner(id, 'delayed');
    try {
      await statFile(record.path);
      const attempts = (changeAttempts.get(id) ?? 0) + 1;
      changeAttempts.set(id, attempts);
      if (attempts >= SAME_CONTENT_RETRIES) {
        const failure = fileChangedFailure();
        failRecord(id, failure.code, `${failure.message} (${message})`);
        return;
      }
      // Probably changed underneath the upload: fingerprint and send it again.
      setOwner(id, null);
      requeue(id, null, true);
    } catch (error) {
      const action = classifyError(error);
      failRecord(id, action.action === 'fail' ? action.code : 'file_unreadable', action.action === 'fail' ? action.message : message);
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

  /** A transient failure after the client's own retries: the whole queue backs off, the record keeps its place. */
  function retryLater(id: string, phase: 'upload' | 'follow', reason: string, code: string, message: string, retryAfterMs?: number) {
    backoff.attempt++;
    const exponential = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(backoff.attempt - 1, 20));
    const wait = Math.max(retryAfterMs ?? 0, Math.round(exponential * (0.5 + random() / 2)));
    backoff.until = Math.max(backoff.until, now() + wait);
    log?.warn('service trouble; trying again later', { id, code, waitMs: wait, attempt: backoff.attempt });
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
    save(id, { status: 'queued', pendingReason: reason, error: { code, message } });
    setOwner(id, null);
    enqueue(id, true);
    // The whole queue backs off, so every record waiting behind this one waits for the
    // same reason: say so on each (the UI and a one-shot CLI run rely on it).
    history.transaction(() => {
      for (const waiting of ready) {
        if (waiting !== id && owner.get(waiting) === 'ready' && history.get(waiting)?.pendingReason == null) save(waiting, { pendingReason: reason });
      }
    });
  }

  function succeeded() {
    backoff = { attempt: 0, until: 0 };
  }

  // ---- pausing for a key ------------------------------------------------------------

  function pauseQueue(reason: string, message: string) {
    if (paused?.reason === reason) return;
    paused = { reason, message };
    log?.warn('queue paused', { reason });
    // Every waiting record says why it waits; one transaction for the lot.
    history.transaction(() => {
      for (const id of ready) {
        if (owner.get(id) === 'ready') save(id, { pendingReason: reason });
      }
      for (const [id, where] of owner) {
        if (where === 'following') park(id);
      }
    });
  }

  /** A followed scan waits (still processing at the service) until the pause lifts. */
  function park(id: string) {
    const controller = controllers.get(id);
    setOwner(id, 'parked');
    save(id, { pendingReason: paused?.reason ?? PENDING_REASONS.awaitingApiKey });
    controller?.abort('paused' satisfies AbortReason);
  }

  function resume() {
    if (closed) return;
    if (paused) {
      const reason = paused.reason;
      paused = null;
      log?.info('queue resumed', { reason });
      history.transaction(() => {
        for (const id of ready) {
          if (owner.get(id) === 'ready') save(id, { pendingReason: null });
        }
      });
      for (const [id, where] of [...owner]) {
        if (where !== 'parked') continue;
        setOwner(id, null);
        enqueue(id, true);
      }
    }
    succeeded();
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

  /** Why an accepted file is not scanned (an exclusion or the automatic size limit), or null. */
  function exclusionOf(path: string, size: number, origin: ScanOrigin): { code: string; message: string } | null {
    if (!options.exclusions) return null;
    const automatic = origin === 'watch';
    const folder = automatic && options.watchedFolders ? findWatchedFolder(path, options.watchedFolders()) : null;
    const hit = options.exclusions().check(path, { size, automatic, ...(folder ? { folderId: folder.id } : {}) });
    return hit ? { code: hit.reason, message: describeExclusion(hit, size) } : null;
  }

  async function submit(paths: readonly string[], submitOptions: SubmitOptions): Promise<{ queued: number; skipped: number; ids: string[] }> {
    if (closed) throw new Error('The scan pipeline is closed.');
    const force = submitOptions.force === true || submitOptions.origin === 'rescan';
    const choice = submitOptions.mode ?? options.settings().mode;
    const ids: string[] = [];
    let queued = 0;
    let skipped = 0;
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
      for await (const entry of options.intake(paths)) {
        // Checked first: an excluded file is listed as skipped, never sent (a rescan is "scan anyway").
        const excluded = entry.ok && !force ? exclusionOf(entry.path, entry.size, submitOptions.origin) : null;
        const waiting = entry.ok && !force && !excluded ? waitingByPath.get(entry.path) : undefined;
        if (waiting !== undefined && owner.get(waiting) === 'ready') {
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
        } else if (entry.ok) {
          queued++;
          batch.push({
            ...base,
            size: entry.size,
            mode: decideMode({ origin: submitOptions.origin, size: entry.size, choice }),
            pendingReason: paused?.reason ?? null,
          });
        } else {
          batch.push({ ...base, status: 'failed', error: { code: entry.code, message: entry.message }, completedAt: at });
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
    return { queued, skipped, ids };
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
    return {
      id,
      path,
      fileName: basename(path) || path,
      size: null,
      md5: null,
      sha1: null,
      sha256: null,
      mode: null,
      origin,
      backend: options.backendLabel(),
      externalReferenceId: makeReference(options.installId, id),
      serviceScanId: null,
      status: 'queued',
      pendingReason: null,
      safe: null,
      detailed: null,
      findings: [],
      fileType: null,
      queuedAt: at,
      submittedAt: null,
      completedAt: null,
      durationMs: null,
      error: null,
      reusedFromId: null,
      disposition: null,
      quarantineId: null,
    };
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
    if (gateTimer) clearTimeout(gateTimer);
    gateTimer = null;
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    for (const controller of controllers.values()) controller.abort('closing' satisfies AbortReason);
    await Promise.allSettled([...running]);
    ready.clear();
    owner.clear();
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
      paused: paused?.reason ?? null,
      ready: ready.size,
      active: activeCount,
      following: followingCount,
      waiting: owner.size,
      backoffUntil: backoff.until,
    }),
    close,
  };
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
