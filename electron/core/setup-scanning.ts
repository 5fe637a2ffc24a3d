// The core's scanning capability: the scan pipeline, fed with the exclusion
// rules, the upload-consent rule and each file's backend (routing.ts).
import type { ScanOrigin, ScanRecord } from '../../shared/scans/record.ts';
import { needsUploadConsent } from '../../shared/settings/protection.ts';
import type { BackendManager } from '../backend/backend.ts';
import { LOCAL_LABEL, NO_REMOTE_LABEL } from '../backend/backend-state.ts';
import { createExclusionMatcher, exclusionConfigFromSettings, type ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { createFingerprintPool } from '../fingerprint/fingerprint-pool.ts';
import { tooLargeFailure } from '../scans/failures.ts';
import type { History } from '../history/history.ts';
import { expandPaths } from '../intake/expand-paths.ts';
import type { ScanEvents } from '../scans/events.ts';
import { createScanPipeline, type PipelineOptions, type ScanPipeline } from '../scans/pipeline.ts';
import type { Fingerprinter, Intake } from '../scans/ports.ts';
import type { CoreContext } from './core-context.ts';
import { isDiskFull } from './disk-full.ts';
import { createRouter } from './routing.ts';
import type { ThreatActions } from './threat-actions.ts';

/** Files up to this size are read once (fingerprint) and uploaded from memory; at most `concurrency` are held at a time. */
const SINGLE_READ_MAX_BYTES = 1024 * 1024;

/**
 * Manual scans ask before a file goes to a remote service; a watched folder and the command line do not.
 * A scheduled scan asks too, but with no one there to agree its run is skipped rather than left waiting
 * (scheduledUploadWaits, jobs/schedule/serve-kind.ts) until the user has agreed to that service's host.
 */
const ASKS_BEFORE_UPLOAD: ReadonlySet<ScanOrigin> = new Set(['drop', 'dialog', 'second-instance', 'rescan', 'schedule']);

export interface Scanning {
  scans: ScanPipeline;
  /** The exclusion rules of the current settings (compiled once, not per file). */
  exclusions(): ExclusionMatcher;
  /** The settings that make up the rules changed: compile them again on next use. */
  exclusionsChanged(): void;
  /** The remote service (its origin) whose upload a scheduled scan's files would wait for the user to agree to; null when they would not wait. */
  scheduledUploadWaits(): string | null;
}

export interface ScanningInput {
  history: History;
  installId: string;
  events: ScanEvents;
  threats: ThreatActions;
  backend: BackendManager;
  /** Which engine would scan now (engine-now.ts): a verdict is reused only when that engine made it. */
  engineNow?: PipelineOptions['engineNow'];
  /** Why files followed at a service wait for its engine (Starting ClamAV…), or null. */
  engineWait?: PipelineOptions['engineWait'];
}

export function setupScanning(ctx: CoreContext, input: ScanningInput): Scanning {
  const { settings, tuning, log, options } = ctx;
  const { threats, backend } = input;

  let matcher: ExclusionMatcher | null = null;
  const exclusions = (): ExclusionMatcher => {
    if (matcher) return matcher;
    matcher = createExclusionMatcher(exclusionConfigFromSettings(settings.get()));
    if (matcher.invalid.length > 0) log.warn({ invalid: matcher.invalid.map((rule) => `${rule.kind}: ${rule.message}`) }, 'exclusion rules that never match');
    return matcher;
  };
  // A service named by the caller (the CLI's --service, tests) is the caller's consent.
  const mayUpload = (record: ScanRecord, serviceLabel: string): boolean =>
    serviceLabel === 'local' || options.serviceOverride !== undefined || !ASKS_BEFORE_UPLOAD.has(record.origin) || !needsUploadConsent(settings.get(), serviceLabel);

  // A small file's bytes are kept and uploaded as hashed: one read per file instead of two.
  // A file grown past the service's limit since intake is refused before it is read.
  // sha256 alone (reuse and the check of the service's answer need it): md5 and sha1 come with the service's answer.
  const pool = createFingerprintPool({
    keepContentUpTo: SINGLE_READ_MAX_BYTES,
    maxSize: MAX_ASYNC_FILE_SIZE,
    digests: ['sha256'],
    onFallback: (error) => log.warn({ error: error.message }, 'fingerprint threads unavailable; fingerprinting on the main thread'),
  });
  ctx.onClose(() => pool.close());
  // Every file on the fingerprint thread: with the files of a turn in one message each way, the hop
  // costs this thread less than opening, reading and hashing even a small file here.
  const fingerprint: Fingerprinter = async (path, signal) => {
    const result = await pool.fingerprint(path, signal);
    if (result.kind === 'too_large') throw tooLargeFailure(result.size);
    return { ...result.fingerprint, after: result.after };
  };
  const intake: Intake = (paths, intakeOptions) => expandPaths(paths, intakeOptions);

  const route = createRouter(() => settings.get().watchedFolders);
  const scans = createScanPipeline({
    history: input.history,
    service: (record) => backend.availability(route(record.path)),
    backendLabel: (record) => backend.label(route(record.path)),
    fingerprint,
    intake,
    settings: () => settings.get(),
    installId: input.installId,
    events: input.events,
    concurrency: tuning.concurrency,
    maxProcessing: tuning.maxProcessing,
    retryBaseMs: tuning.retryBaseMs,
    retryMaxMs: tuning.retryMaxMs,
    log: ctx.stepLog,
    exclusions,
    watchedFolders: () => settings.get().watchedFolders,
    threatResponse: (record) => threats.respond(record),
    onThreat: (record, request) => threats.onThreat(record, request),
    mayUpload,
    ...(input.engineNow ? { engineNow: input.engineNow } : {}),
    ...(input.engineWait ? { engineWait: input.engineWait } : {}),
    storageFailure: {
      is: (error) => isDiskFull(error, ctx.dataDir),
      // Handed to the process's handlers, where each front end tells a full disk (the CLI: its line and exit 2;
      // the app: a notice naming the folder). An unhandled rejection on purpose: no caller is left to answer.
      report: (error) => void Promise.reject(error),
    },
  });
  ctx.onClose(() => scans.close());
  const scheduledUploadWaits = (): string | null => {
    const label = backend.label();
    // Not yet set up (no remote service named): its files wait for the service, not for consent.
    if (label === LOCAL_LABEL || label === NO_REMOTE_LABEL || options.serviceOverride !== undefined) return null;
    return needsUploadConsent(settings.get(), label) ? label : null;
  };
  return {
    scans,
    exclusions,
    scheduledUploadWaits,
    exclusionsChanged: () => {
      matcher = null;
    },
  };
}
