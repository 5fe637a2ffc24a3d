// Runs the local service in a worker thread of this process, so its half of
// the work (multipart parsing, hashing, its database, the engine's I/O) runs
// on another core than the caller's. The service is the same HTTP server as
// startLocalService's: clients talk to it over loopback exactly as before.
// A thread that dies after start-up is restarted on the same port (bounded),
// so the URL handed out stays valid; every exit is reported to the logger.
import type { DetectionSettings } from '../../../shared/settings/detection.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { EngineError } from '../../engine/engine.ts';
import type { EngineDescription } from '../../engine/select-engine.ts';
import { silentLogger, type ServiceLogger } from '../logger.ts';
import { createEngineCalls } from './engine-calls.ts';
import { SERVICE_THREAD_LIMITS, SERVICE_THREAD_NAME, SERVICE_THREAD_URL, takeWarmThread, type ThreadStart } from './warm-thread.ts';
import type { EngineReport, EngineScanOutcome, EngineScanRequest, ErrorData, FromThread, LogLevel, ThreadServiceOptions, ToThread } from './thread-protocol.ts';

export interface StartInThreadOptions extends ThreadServiceOptions {
  /** Receives the thread's log records (levels: `logLevels`) and reports of unexpected exits. */
  logger?: ServiceLogger;
  /** Which of the thread's log records cross over (default warn and error; info is one line per request). */
  logLevels?: readonly LogLevel[];
  /** V8 limits of the thread (default SERVICE_THREAD_LIMITS). */
  resourceLimits?: ResourceLimits;
  /** Restarts after unexpected exits: at most `max` within `windowMs` (default 3 per minute); false: none. */
  restart?: { max: number; windowMs: number } | false;
  /** How long close() waits for the thread to finish its own shutdown before terminating it (default 15 s). */
  closeTimeoutMs?: number;
  /** The thread's entry module (default SERVICE_THREAD_URL; tests substitute one that misbehaves). */
  threadEntry?: URL;
}

export interface ThreadedLocalService {
  /** e.g. http://127.0.0.1:41234; the same after a restart. */
  url: string;
  port: number;
  engine: EngineDescription;
  /** The live engine's state as last reported (null status before the first look, or with an engine instance). */
  engineReport(): EngineReport;
  /** Each report of a change (also the first report of a restarted thread). */
  onEngineReport(listener: (report: EngineReport) => void): () => void;
  /** Asks the service's engine to look again now; resolves with what it found. */
  checkEngine(): Promise<EngineReport>;
  /** Scans no request was waiting for have finished (LocalService.onFinished), of whichever thread runs now. */
  onFinished(listener: (scanIds: readonly string[]) => void): () => void;
  /** Tells the service its client has recorded these terminal scans (lost, harmlessly, while the thread restarts). */
  recorded(integrationId: string, scanIds: readonly string[]): void;
  /** "Scan with basic checks only" for these scans of the service (see LocalService.allowBasicOnly), or files at the engine with these references. */
  allowBasicOnly(scanIds: readonly string[]): void;
  /**
   * One file scanned by the service's engine with no HTTP request (engine-requests.ts). Rejects with
   * EngineThreadGoneError when the thread is not running or stops first, and with the signal's reason on abort.
   */
  scanFile(request: EngineScanRequest, signal: AbortSignal): Promise<EngineScanOutcome>;
  /** The running thread's V8 heap figures (null between a crash and its restart): for soak and memory reports. */
  heapStatistics(): Promise<HeapInfo | null>;
  /** The signature folder for Verdict's own clamd changed (kept for a restarted thread too). */
  setDatabaseDir(databaseDir: string | null): void;
  /** The detection settings for Verdict's own clamd changed (kept for a restarted thread too). */
  setDetection(detection: DetectionSettings): void;
  close(): Promise<void>;
}

type HeapInfo = Awaited<ReturnType<Worker['getHeapStatistics']>>;

/**
 * The thread itself could not run (its entry is missing, or it died before the
 * service could report anything): a problem of packaging or of the runtime, not of
 * the service's options. The service would start on the caller's thread.
 */
export class ServiceThreadUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceThreadUnavailableError';
  }
}

export { SERVICE_THREAD_LIMITS, SERVICE_THREAD_URL };

const DEFAULT_RESTART = { max: 3, windowMs: 60_000 };
const DEFAULT_CLOSE_TIMEOUT_MS = 15_000;
interface Running {
  worker: Worker;
  url: string;
  port: number;
  engine: EngineDescription;
  report: EngineReport;
  /** Resolves when the thread has exited, with why. */
  exited: Promise<{ code: number; error: Error | undefined }>;
}

export async function startLocalServiceInThread(options: StartInThreadOptions): Promise<ThreadedLocalService> {
  const { logger = silentLogger, logLevels = ['warn', 'error'], resourceLimits = SERVICE_THREAD_LIMITS, restart = DEFAULT_RESTART } = options;
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const serviceOptions: ThreadServiceOptions = {
    host: options.host,
    port: options.port,
    apiKeys: options.apiKeys,
    dataDir: options.dataDir,
    engine: options.engine,
    syncWindowMs: options.syncWindowMs,
    scanDelayMs: options.scanDelayMs,
    webhook: options.webhook,
    rateLimit: options.rateLimit,
    scanConcurrency: options.scanConcurrency,
  };
  const entry = options.threadEntry ?? SERVICE_THREAD_URL;
  if (entry.protocol === 'file:' && !existsSync(fileURLToPath(entry))) {
    throw new ServiceThreadUnavailableError(`The local service's thread entry is missing: ${fileURLToPath(entry)}`);
  }
  const reports = createReportHub();
  const finished = new Set<(scanIds: readonly string[]) => void>();
  const engineCalls = createEngineCalls();
  const onMessage = (message: FromThread) => {
    if (message.type === 'scan-files-done') return engineCalls.onMessage(message);
    if (message.type !== 'finished') return reports.onMessage(message);
    for (const listener of finished) listener(message.scanIds);
  };
  const launchOn = (port: number | undefined) => launch(entry, { ...dropUndefined(serviceOptions), port }, logLevels, logger, resourceLimits, onMessage);

  const first = await launchOn(serviceOptions.port);
  reports.set(first.report);
  let current: Running | null = first;
  let restarting: Promise<void> | null = null;
  let closing: Promise<void> | null = null;
  const restarts: number[] = [];

  const supervise = (running: Running) => {
    void running.exited.then(({ code, error }) => {
      reports.release();
      engineCalls.release(running.worker);
      if (closing || current !== running) return;
      current = null;
      const why = error ? `${error.name}: ${error.message}` : `exit code ${code}`;
      const now = Date.now();
      while (restarts.length > 0 && now - (restarts[0] as number) > (restart ? restart.windowMs : 0)) restarts.shift();
      if (!restart || restarts.length >= restart.max) {
        logger.error({ err: error, exitCode: code }, `the local service thread stopped unexpectedly (${why}); not restarting it`);
        return;
      }
      restarts.push(now);
      logger.error({ err: error, exitCode: code }, `the local service thread stopped unexpectedly (${why}); restarting it`);
      // The same port, so clients keep their URL; their retries bridge the gap.
      restarting = launchOn(first.port).then(
        (next) => {
          restarting = null;
          if (closing) return stop(next, closeTimeoutMs);
          current = next;
          reports.set(next.report);
          supervise(next);
        },
        (failure: unknown) => {
          restarting = null;
          logger.error({ err: failure }, 'the local service thread could not be restarted');
        },
      );
    });
  };
  supervise(first);

  return {
    url: first.url,
    port: first.port,
    engine: first.engine,
    engineReport: () => reports.last,
    onEngineReport: (listener) => reports.listen(listener),
    checkEngine: () => (current ? reports.ask(current.worker) : Promise.resolve(reports.last)),
    onFinished(listener) {
      finished.add(listener);
      return () => void finished.delete(listener);
    },
    recorded(integrationId, scanIds) {
      if (closing || !current || scanIds.length === 0) return;
      current.worker.postMessage({ type: 'recorded', integrationId, scanIds: [...scanIds] } satisfies ToThread);
    },
    allowBasicOnly(scanIds) {
      current?.worker.postMessage({ type: 'allow-basic-only', scanIds: [...scanIds] } satisfies ToThread);
    },
    scanFile: (request, signal) => engineCalls.scan(closing ? null : (current?.worker ?? null), request, signal),
    heapStatistics: async () => (current ? current.worker.getHeapStatistics().catch(() => null) : null),
    setDatabaseDir(databaseDir) {
      const ownClamd = serviceOptions.engine.ownClamd;
      if (ownClamd) {
        const { databaseDir: _old, ...rest } = ownClamd;
        serviceOptions.engine = { ...serviceOptions.engine, ownClamd: { ...rest, ...(databaseDir !== null ? { databaseDir } : {}) } };
      }
      current?.worker.postMessage({ type: 'set-database-dir', databaseDir } satisfies ToThread);
    },
    setDetection(detection) {
      const ownClamd = serviceOptions.engine.ownClamd;
      if (ownClamd) serviceOptions.engine = { ...serviceOptions.engine, ownClamd: { ...ownClamd, detection } };
      current?.worker.postMessage({ type: 'set-detection', detection } satisfies ToThread);
    },
    close() {
      closing ??= (async () => {
        await restarting;
        const running = current;
        current = null;
        if (running) await stop(running, closeTimeoutMs);
      })();
      return closing;
    },
  };
}

function launch(
  entry: URL,
  options: ThreadServiceOptions,
  levels: readonly LogLevel[],
  logger: ServiceLogger,
  resourceLimits: ResourceLimits | undefined,
  onMessage: (message: FromThread) => void,
): Promise<Running> {
  return new Promise((resolve, reject) => {
    // A thread started early (warm-thread.ts) gets its options as its first message.
    const early = takeWarmThread(entry, resourceLimits);
    const worker =
      early ??
      new Worker(entry, {
        workerData: { options, levels },
        name: SERVICE_THREAD_NAME,
        ...(resourceLimits ? { resourceLimits } : {}),
      });
    if (early) early.postMessage({ type: 'start', options, levels } satisfies ThreadStart);
    let resolveExit!: (exit: { code: number; error: Error | undefined }) => void;
    const exited = new Promise<{ code: number; error: Error | undefined }>((done) => (resolveExit = done));
    let thrown: Error | undefined;
    let startFailure: Error | undefined;
    let started = false;

    worker.on('message', (message: FromThread) => {
      switch (message.type) {
        case 'ready':
          started = true;
          resolve({ worker, url: message.url, port: message.port, engine: message.engine, report: message.report, exited });
          return;
        case 'engine':
        case 'engine-checked':
        case 'finished':
        case 'scan-files-done':
          onMessage(message);
          return;
        case 'start-failed':
          // The service has already released what it opened; the thread has nothing left to do.
          startFailure = errorFromData(message.error);
          void worker.terminate();
          return;
        case 'log':
          logger[message.level](message.fields, message.message);
          return;
        case 'closed':
          return;
      }
    });
    // An exception nobody caught in the thread: it ends the thread (reported through 'exit').
    worker.on('error', (error) => {
      thrown = error;
    });
    worker.on('exit', (code) => {
      resolveExit({ code, error: thrown });
      if (started) return;
      if (startFailure) reject(startFailure);
      else {
        const why = thrown ? `: ${thrown.message}` : ` (exit code ${code})`;
        reject(new ServiceThreadUnavailableError(`The local service thread stopped before it could start the service${why}`, { cause: thrown }));
      }
    });
  });
}

/** The engine reports of whichever thread runs the service now, and the answers to "check again". */
function createReportHub() {
  let last: EngineReport = { status: null, databaseDir: null };
  let nextId = 1;
  const listeners = new Set<(report: EngineReport) => void>();
  const asked = new Map<number, (report: EngineReport) => void>();
  const set = (report: EngineReport) => {
    const changed = JSON.stringify(report) !== JSON.stringify(last);
    last = report;
    if (changed) for (const listener of listeners) listener(report);
  };
  return {
    get last() {
      return last;
    },
    set,
    listen(listener: (report: EngineReport) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    ask(worker: Worker): Promise<EngineReport> {
      const id = nextId++;
      return new Promise<EngineReport>((resolve) => {
        asked.set(id, resolve);
        worker.postMessage({ type: 'check-engine', id } satisfies ToThread);
      });
    },
    /** A thread that ended answers no more: whoever asked it gets the last report. */
    release() {
      for (const resolve of asked.values()) resolve(last);
      asked.clear();
    },
    onMessage(message: FromThread) {
      if (message.type !== 'engine' && message.type !== 'engine-checked') return;
      set(message.report);
      if (message.type === 'engine-checked') {
        asked.get(message.id)?.(message.report);
        asked.delete(message.id);
      }
    },
  };
}

/** Asks the thread to close the service (server, scans, database, engine), then waits for it to exit. */
async function stop(running: Running, timeoutMs: number): Promise<void> {
  running.worker.postMessage({ type: 'close' } satisfies ToThread);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
  const outcome = await Promise.race([running.exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    await running.worker.terminate();
    await running.exited;
  }
}

/** The start-up error as the caller would have seen it in-process (same message, EngineError kept). */
function errorFromData(data: ErrorData): Error {
  const error = data.name === 'EngineError' ? new EngineError(data.code ?? 'engine_error', data.message) : new Error(data.message);
  if (data.name !== 'EngineError') {
    error.name = data.name;
    if (data.code !== undefined) Object.assign(error, { code: data.code });
  }
  if (data.stack) error.stack = data.stack;
  return error;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
