// Recent files judged again after each signature update (issue 27 §1). Whenever the signatures
// in use change (Verdict's own update, a system clamd's reload, another database folder: all of
// them change the signature key the protection state carries), a job of its own kind, `recheck`,
// judges the files first seen within the window that were judged clean under other signatures.
// It starts at most one at a time, waits for a full scan to end and pauses while one runs, and
// pauses on battery power when the schedules are set to skip on battery.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { isFinalStatus, type JobState } from '../../shared/jobs/job.ts';
import { verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import type { RecheckLink, RecheckStore, SeenFile } from '../history/recheck-candidates.ts';
import type { JobEvent, Jobs } from '../jobs/jobs.ts';
import type { PowerPort } from '../jobs/schedule/power.ts';
import { DAY_MS } from './recheck-walk.ts';
import type { RecheckFinding } from './seen-files.ts';
import { withRecheckLink } from './recheck-link.ts';
import { signaturesInUse } from './signatures-in-use.ts';

/** Why no recheck started: off in the settings, no ClamAV signatures to judge with, nothing selected, one already running. */
export type RecheckRefusal = 'off' | 'no_signatures' | 'nothing_to_recheck';

export interface Recheck {
  /** Starts a recheck job now (the CLI), or says why not; a running one is returned as it is. */
  start(origin: JobState['origin']): Promise<{ job: JobState; running: boolean } | { job: null; why: RecheckRefusal }>;
  /** How many files the selection holds under the signatures in use now. */
  selected(): number;
  /** A file a recheck judged other than clean (shell: the notice; tests). */
  onFinding(listener: (finding: RecheckFinding) => void): () => void;
  /** The scan a rechecked record replaces (its verdict changed), or null. */
  linkOf(recordId: string): RecheckLink | null;
  /**
   * The same for a record as a recheck job tells it: from the job's selection while it runs (the link's row is
   * written a moment after the record is told), else from the links kept.
   */
  linkFor(record: ScanRecord): RecheckLink | null;
  /** The record with the scan it replaces (ScanRecord.recheckOf), as `recheck --json` and the detail panel show it. */
  withLink(record: ScanRecord): ScanRecord;
  /** Resolves once no start is pending (tests). */
  settled(): Promise<void>;
  close(): void;
}

export interface RecheckInput {
  store: RecheckStore;
  jobs: Pick<Jobs, 'start' | 'finished' | 'pause' | 'resume' | 'get' | 'onEvent'>;
  /** Jobs not yet ended, whoever started them (the history's). */
  unfinished: () => JobState[];
  view: () => ProtectionView;
  onViewChange: (listener: (view: ProtectionView) => void) => () => void;
  settings: () => { recheckAfterUpdateDays: number; scanSchedules: { skipOnBattery: boolean } };
  power: PowerPort;
  now: () => number;
  /** Per running recheck job: what it selected (recheck-walk.ts and seen-files.ts share it). */
  selected: Map<number, Map<string, SeenFile>>;
  findings: Set<(finding: RecheckFinding) => void>;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** After the files of a change are judged (or there were none): the quarantine is judged under the same key. */
  afterChange?: (key: string) => Promise<unknown>;
  /** A record of the history by its id (the scan a changed verdict replaces); absent: none is found. */
  record?: (id: string) => ScanRecord | null;
  /** Automatic starts on signature changes (default true; the CLI starts it itself). */
  automatic?: boolean;
  /** How often a recheck paused on battery looks at the power supply again (default 60 s). */
  powerLookMs?: number;
  /**
   * How long after a change the automatic recheck waits (default 60 s, as a system clamd's reload is
   * given): clamd goes on scanning with its old signatures while it loads the new ones, and with custom
   * databases nothing it answers says when it is done. A newer change meanwhile starts the wait again.
   */
  settleMs?: number;
}

export function createRecheck(input: RecheckInput): Recheck {
  let lastKey: string | null = null;
  let closed = false;
  let pending: Promise<void> = Promise.resolve();
  /** The recheck job this process paused (battery, a full scan), never one the user paused. */
  const pausedByRule = new Set<number>();
  const windowStart = () => input.now() - input.settings().recheckAfterUpdateDays * DAY_MS;
  const running = () => input.unfinished().filter((job) => job.kind === 'recheck');
  const fullScans = () => input.unfinished().filter((job) => job.kind === 'full' && job.status !== 'interrupted');
  const mustWait = () => fullScans().length > 0 || (input.settings().scanSchedules.skipOnBattery && input.power.onBattery());

  async function start(origin: JobState['origin']): Promise<{ job: JobState; running: boolean } | { job: null; why: RecheckRefusal }> {
    const active = running()[0];
    if (active) return { job: active, running: true };
    if (input.settings().recheckAfterUpdateDays <= 0) return { job: null, why: 'off' };
    const key = signaturesInUse(input.view());
    if (key === null) return { job: null, why: 'no_signatures' };
    if (input.store.count(windowStart(), key) === 0) return { job: null, why: 'nothing_to_recheck' };
    const job = await startJob(origin);
    return { job, running: false };
  }

  async function startJob(origin: JobState['origin']): Promise<JobState> {
    // Files first seen before the window are never selected again: they leave the table (its retention).
    input.store.forgetFirstSeenBefore(windowStart());
    // Only the last jobs' selections are kept, for their late findings (a threat's quarantine can end after its job).
    for (const id of [...input.selected.keys()]) if (input.jobs.get(id)?.status === 'completed') input.selected.delete(id);
    const job = await input.jobs.start({ kind: 'recheck', origin, force: true });
    input.log.info({ jobId: job.id, origin }, 'recheck after a signature update started');
    govern(job.id);
    return job;
  }

  /** Automatic: after a change of signatures, once no full scan runs (and not on battery when schedules skip it). */
  function changed(view: ProtectionView): void {
    const key = signaturesInUse(view);
    if (closed || key === null || key === lastKey) return;
    lastKey = key;
    pending = pending.then(() => startWhenAllowed(key)).catch((error: unknown) => input.log.warn({ err: error }, 'the recheck after a signature update could not start'));
  }

  async function startWhenAllowed(key: string): Promise<void> {
    await delay(input.settleMs ?? 60_000);
    for (;;) {
      if (closed || key !== lastKey) return;
      const active = running()[0];
      // One at a time: a recheck under way goes on; once it ends, the new signatures are looked at again.
      if (active) {
        await input.jobs.finished(active.id);
        continue;
      }
      const full = fullScans()[0];
      if (full) {
        await input.jobs.finished(full.id);
        continue;
      }
      if (input.settings().scanSchedules.skipOnBattery && input.power.onBattery()) {
        await delay(input.powerLookMs ?? 60_000);
        continue;
      }
      if (input.settings().recheckAfterUpdateDays <= 0) return;
      if (input.store.count(windowStart(), key) > 0) {
        const job = await startJob('schedule');
        await input.jobs.finished(job.id);
      }
      if (!closed && key === lastKey) await input.afterChange?.(key);
      return;
    }
  }

  /** While the job runs: paused while a full scan runs or on battery, resumed after. */
  function govern(jobId: number): void {
    const look = () => {
      const job = input.jobs.get(jobId);
      if (!job || isFinalStatus(job.status) || closed) return stop();
      if (job.status === 'running' && mustWait()) {
        pausedByRule.add(jobId);
        input.jobs.pause(jobId);
      } else if (job.status === 'paused' && pausedByRule.has(jobId) && !mustWait()) {
        pausedByRule.delete(jobId);
        input.jobs.resume(jobId);
      }
    };
    const unsubscribe = input.jobs.onEvent((event: JobEvent) => {
      if (event.type === 'progress' && event.progress.job.id !== jobId && event.progress.job.kind === 'full') look();
      if (event.type === 'progress' && event.progress.job.id === jobId && isFinalStatus(event.progress.job.status)) stop();
    });
    const timer = setInterval(look, input.powerLookMs ?? 60_000);
    timer.unref?.();
    function stop() {
      clearInterval(timer);
      unsubscribe();
      pausedByRule.delete(jobId);
    }
    look();
  }

  const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

  const unsubscribe = input.automatic === false ? () => {} : input.onViewChange(changed);
  if (input.automatic !== false) changed(input.view());

  const linkFor = (record: ScanRecord): RecheckLink | null => {
    const picked = record.jobId === undefined ? undefined : input.selected.get(record.jobId)?.get(record.path);
    // As seen-files.ts links it: a completed verdict other than clean.
    if (picked && record.status === 'completed' && verdictOf(record) !== 'safe') return { recordId: record.id, recheckedFromId: picked.recordId, firstSeenMs: picked.firstSeenMs };
    return input.store.linkOf(record.id);
  };

  return {
    start,
    selected: () => {
      const key = signaturesInUse(input.view());
      return key === null ? 0 : input.store.count(windowStart(), key);
    },
    onFinding(listener) {
      input.findings.add(listener);
      return () => input.findings.delete(listener);
    },
    linkOf: (recordId) => input.store.linkOf(recordId),
    linkFor,
    withLink: (record) => withRecheckLink(record, { linkFor }, { get: (id) => input.record?.(id) ?? null }),
    async settled() {
      await pending;
    },
    close() {
      closed = true;
      unsubscribe();
    },
  };
}
