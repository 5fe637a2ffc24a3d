// Starts the embedded File Scanning Service for the app or the CLI: loopback,
// a free port, the key of this run, its data under <dataDir>/local-service.
// It runs in a worker thread of its own (start-in-thread.ts), so receiving,
// hashing and recording uploads happens on another core than the pipeline's.
// By default the app's files skip the HTTP service and go straight to its engine
// in that thread (`path: 'engine'`, see local-engine-port.ts). Should the
// thread itself be unavailable (a build without its entry), the service runs on
// this thread instead, with a warning: slower, never missing.
import type { RateLimitOptions } from '../local-service/auth/rate-limiter.ts';
import { describeEngine, type EngineDescription, type EngineKind } from '../engine/select-engine.ts';
import type { ServiceLogger } from '../local-service/logger.ts';
import { ServiceThreadUnavailableError, startLocalServiceInThread } from '../local-service/thread/start-in-thread.ts';
import type { EngineReport, EngineScanOutcome, EngineScanRequest, ThreadServiceOptions } from '../local-service/thread/thread-protocol.ts';
import { createEngineRequests } from '../local-service/thread/engine-requests.ts';
import type { LiveEngineTuning } from '../engine/live/start-live-engine.ts';
import { LOCAL_SERVICE_REQUEST_BUDGET } from '../request-budget/request-budget.ts';
import type { DetectionSettings } from '../../shared/settings/detection.ts';
import type { ResolvedClamdChoice } from '../../shared/engine/clamd-choice.ts';
import { engineOptionsForChoice } from '../engine/clamd-choice-engine.ts';

/** The one integration the app uses on its embedded service. */
export const EMBEDDED_INTEGRATION_ID = 'verdict-embedded';

export interface LocalServiceHandle {
  url: string;
  /** The engine the service picked at start (the protection state describes it). */
  engine?: EngineDescription;
  /** The service's live engine: its protection state, its changes, and "check again". */
  engineReport?(): EngineReport;
  onEngineReport?(listener: (report: EngineReport) => void): () => void;
  checkEngine?(): Promise<EngineReport>;
  /**
   * The client has recorded these terminal scans durably (their history rows are committed): the
   * service deletes them. Absent: the service keeps every scan.
   */
  recorded?(scanIds: readonly string[]): void;
  /** "Scan with basic checks only" for these scans, queued or waiting for ClamAV at the service. */
  allowBasicOnly?(scanIds: readonly string[]): void;
  /** Scans no request was waiting for have finished: poll them now (the service's doorbell). */
  onFinished?(listener: (scanIds: readonly string[]) => void): () => void;
  /** The database folder setting changed: Verdict's own clamd starts again on it (null: the default order). */
  setDatabaseDir?(databaseDir: string | null): void;
  /** The detection settings changed (issue 28 §2): Verdict's own clamd starts again with them; files wait meanwhile. */
  setDetection?(detection: DetectionSettings): void;
  /**
   * The local engine path: one file scanned by the service's engine, with no HTTP request. Present
   * with `path: 'engine'` (the default); then the app's files go this way, not to the URL.
   */
  scanFile?(request: EngineScanRequest, signal: AbortSignal): Promise<EngineScanOutcome>;
  close(): Promise<void>;
}

export type LocalServiceStarter = (input: { apiKey: string; dataDir: string }) => Promise<LocalServiceHandle>;

export interface EmbeddedServiceOptions {
  engine?: EngineKind;
  clamdSocket?: string;
  /** The user's clamd choice (settings or `--clamd`); absent: the usual order. */
  clamd?: ResolvedClamdChoice;
  /**
   * Verdict's own clamd, started by the service when no clamd answers: its data directory (the
   * app's) and the signature folder (setting or --clamav-db; absent: Verdict's own, else the system's).
   */
  ownClamd?: { dataDir: string; databaseDir?: string; clamdPath?: string; detection?: DetectionSettings };
  /** The live engine's knobs (tests). */
  engineTuning?: LiveEngineTuning;
  scanDelayMs?: number;
  syncWindowMs?: number;
  /** Run the service on the calling thread instead of a worker thread (debugging; default false). */
  inProcess?: boolean;
  /** Warnings and errors of the service, and reports of its thread stopping. Default: errors on stderr. */
  logger?: ServiceLogger;
  /** The thread's entry module (tests). */
  threadEntry?: URL;
  /** What the service keeps of scans the app has recorded: nothing (default), or every scan as a standalone service does. */
  retention?: 'until-recorded' | 'keep';
  /**
   * How the app's files reach the engine: straight, as a message to the service's thread ('engine', the
   * default), or uploaded to the service over HTTP like to a remote one ('http': tests of that path).
   * The service listens either way.
   */
  path?: 'engine' | 'http';
}

/**
 * Above the app's own request budget for it, so the embedded service never answers
 * our requests with 429 (the budget is the binding limit). Callers without the key of
 * this run share one bucket of the same size: a 256-bit key is not guessed at any rate.
 */
export const EMBEDDED_RATE_LIMIT: RateLimitOptions = {
  requestsPerSecond: LOCAL_SERVICE_REQUEST_BUDGET.ratePerSecond * 2,
  burst: LOCAL_SERVICE_REQUEST_BUDGET.burst * 2,
};

/** Without a logger from the app, errors still show (a thread that dies must not go unnoticed). */
const stderrErrors: ServiceLogger = {
  info() {},
  warn() {},
  error(fields, message) {
    console.error(`[verdict local service] ${message}`, fields);
  },
};

export function embeddedServiceStarter(options: EmbeddedServiceOptions = {}): LocalServiceStarter {
  return async ({ apiKey, dataDir }) => {
    const { ownAllowed, ...choiceOptions } = engineOptionsForChoice(options.clamd ?? { kind: 'auto' });
    const serviceOptions: ThreadServiceOptions = {
      host: '127.0.0.1',
      port: 0,
      // The key changes every run; pinning the integration keeps earlier runs' scans
      // findable by reference, so crash recovery adopts them instead of scanning twice.
      apiKeys: [{ key: apiKey, integrationId: EMBEDDED_INTEGRATION_ID }],
      dataDir,
      rateLimit: EMBEDDED_RATE_LIMIT,
      engine: {
        kind: options.engine ?? 'auto',
        ...choiceOptions,
        ...(options.clamdSocket ? { clamdSocket: options.clamdSocket } : {}),
        ...(options.ownClamd && ownAllowed ? { ownClamd: options.ownClamd } : {}),
        ...options.engineTuning,
      },
      ...(options.scanDelayMs !== undefined ? { scanDelayMs: options.scanDelayMs } : {}),
      ...(options.syncWindowMs !== undefined ? { syncWindowMs: options.syncWindowMs } : {}),
    };
    const logger = options.logger ?? stderrErrors;
    const forgets = (options.retention ?? 'until-recorded') === 'until-recorded';
    const direct = (options.path ?? 'engine') === 'engine';
    if (!options.inProcess) {
      try {
        const threaded = await startLocalServiceInThread({ ...serviceOptions, logger, ...(options.threadEntry ? { threadEntry: options.threadEntry } : {}) });
        const recorded = forgets ? batchedPerTurn((ids) => threaded.recorded(EMBEDDED_INTEGRATION_ID, ids)) : undefined;
        return {
          url: threaded.url,
          engine: threaded.engine,
          engineReport: () => threaded.engineReport(),
          onEngineReport: (listener) => threaded.onEngineReport(listener),
          checkEngine: () => threaded.checkEngine(),
          ...(recorded ? { recorded } : {}),
          allowBasicOnly: (scanIds) => threaded.allowBasicOnly(scanIds),
          onFinished: (listener) => threaded.onFinished(listener),
          setDatabaseDir: (databaseDir) => threaded.setDatabaseDir(databaseDir),
          setDetection: (detection) => threaded.setDetection(detection),
          ...(direct ? { scanFile: (request, signal) => threaded.scanFile(request, signal) } : {}),
          close: () => threaded.close(),
        };
      } catch (error) {
        if (!(error instanceof ServiceThreadUnavailableError)) throw error;
        logger.error({ err: error }, `${error.message}; running the local service on the main thread instead`);
      }
    }
    // The same levels as from the thread: warnings and errors (info is one line per request).
    const warn = logger.warn.bind(logger);
    // Loaded only here: on the usual path the service runs in its thread, which loads it there (a CLI scan starts sooner).
    const { startLocalService } = await import('../local-service/server.ts');
    const service = await startLocalService({ ...serviceOptions, logger: { info() {}, warn, error: logger.error.bind(logger) } });
    const recorded = forgets ? batchedPerTurn((ids) => void service.forgetRecorded(EMBEDDED_INTEGRATION_ID, ids)) : undefined;
    const live = service.live;
    const report = (): EngineReport => ({ status: live?.status ?? null, databaseDir: live?.databaseDir ?? null });
    const atEngine = createEngineRequests(Promise.resolve(service), { warn });
    return {
      url: service.url,
      engine: describeEngine(service.engine),
      engineReport: report,
      onEngineReport: (listener) => live?.onChange(() => listener(report())) ?? (() => undefined),
      checkEngine: async () => {
        await live?.check().catch(() => undefined);
        return report();
      },
      ...(recorded ? { recorded } : {}),
      allowBasicOnly: (scanIds) => void (service.allowBasicOnly(scanIds), atEngine.allowBasicOnly(scanIds)),
      onFinished: (listener) => service.onFinished(listener),
      setDatabaseDir: (databaseDir) => void live?.setDatabaseDir(databaseDir ?? undefined).catch(() => undefined),
      setDetection: (detection) => void live?.setDetection(detection).catch(() => undefined),
      ...(direct ? { scanFile: (request, signal) => atEngine.scan(request, signal) } : {}),
      close: () => service.close(),
    };
  };
}

/** Acknowledgements made in one turn of the event loop (one grouped history commit's) travel as one message. */
function batchedPerTurn(send: (ids: string[]) => void): (ids: readonly string[]) => void {
  let pending: string[] = [];
  return (ids) => {
    if (ids.length === 0) return;
    if (pending.length === 0) {
      setImmediate(() => {
        const due = pending;
        pending = [];
        send(due);
      });
    }
    pending.push(...ids);
  };
}
