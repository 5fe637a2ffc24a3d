// What the scan pipeline is given, and how a submission is described. Re-exported
// by pipeline.ts, the entry callers import.
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import type { ModeChoice, ScanOrigin, ScanRecord } from '../../../shared/scans/record.ts';
import type { ExclusionMatcher } from '../../exclusions/exclusion-matcher.ts';
import type { QuarantineRequest } from '../../quarantine/quarantine.ts';
import type { ThreatResponse } from '../../quarantine/threat-response.ts';
import type { ScanEvents } from '../events.ts';
import type { Fingerprinter, HistoryPort, Intake, IntakeEntry, IntakeOptions, ServiceAvailability } from '../ports.ts';

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
  /** At the service: Verdict's own clamd is loading its signatures ("Starting ClamAV…"). */
  engineStarting: 'engine_starting',
  /** At the service: ClamAV is expected but does not answer; the file waits for it (up to a limit). */
  engineWaiting: 'engine_waiting',
} as const;

/**
 * Files fingerprinted or uploaded at once. 6 rather than 3: small files spend most of their time
 * waiting on the service, and 6 gave 216–361 files/s against 173–217 with 3 when it was chosen
 * (`npm run bench -- --only throughput` measures it again: test/bench/cases/throughput.ts).
 */
export const DEFAULT_CONCURRENCY = 6;

/** The most files at once a service may ask for (ServicePort.concurrency): each holds up to a MiB of content. */
export const MAX_SERVICE_CONCURRENCY = 32;

export interface PipelineLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Which engine would scan a file sent to this service now. `ours: false`: not Verdict's
 * engine (a remote service): verdicts are reused per service, as they always were.
 * `engine: null`: Verdict's, but not known yet: only unsafe verdicts are reused.
 */
export type EngineNow = { ours: false } | { ours: true; engine: EngineIdentity | null };

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
  /** Files fingerprinted/uploaded at once (default DEFAULT_CONCURRENCY, or as many as the service says it takes). */
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
  /** The engine behind a service (see EngineNow); absent: every service is treated as not ours. */
  engineNow?: (serviceLabel: string) => Promise<EngineNow>;
  /** Why files followed at this service wait for its engine (PENDING_REASONS.engine*), or null. */
  engineWait?: (serviceLabel: string) => string | null;
  /**
   * Whether an error means the history cannot be written (a full data disk), and where it is told: such a
   * file is left for recovery, never recorded as failed.
   */
  storageFailure?: { is(error: unknown): boolean; report(error: unknown): void };
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
  /** "Scan with basic checks only": when ClamAV is gone, the built-in engine decides instead of the file waiting. */
  basicOnly?: boolean;
  /** The real path of the folder the paths were found in (a rescan of a link out of it): links are followed only into it. */
  within?: string;
  /** The scan job the rows belong to (electron/jobs/). */
  jobId?: number;
  /**
   * A scan job's own walk instead of the intake's, given the options the intake would get
   * (the exclusions): the job adds its default exclusions and skips what it already recorded.
   */
  walk?: (options: IntakeOptions) => AsyncIterable<IntakeEntry>;
  /**
   * Called with each batch once written and queued; the walk waits for it (a job's
   * backpressure: it returns once few enough of its files wait).
   */
  afterBatch?: (records: readonly ScanRecord[]) => Promise<void>;
}
