// The local File Scanning Service: a real HTTP server on loopback implementing
// every endpoint, state, error and limit of the spec. This module wires the
// parts together (store, engine, scan runner, webhooks, request pipeline).
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AddressInfo } from 'node:net';
import { SYNC_WINDOW_MS } from '../../shared/service-contract/limits.ts';
import { createApiKeyring, type ApiKeyConfig } from './auth/api-keys.ts';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './auth/rate-limiter.ts';
import type { ScanEngine } from '../engine/engine.ts';
import type { SelectEngineOptions } from '../engine/select-engine.ts';
import { startLiveEngine, type LiveEngine, type LiveEngineTuning } from '../engine/live/start-live-engine.ts';
import type { ServiceParts } from './handlers/context.ts';
import { answerClientError, answerUnknownExpectation } from './http/client-error.ts';
import { answerConnect } from './http/connect-request.ts';
import { createRequestHandler } from './http/handle-request.ts';
import { silentLogger, type ServiceLogger } from './logger.ts';
import { createFinishedScans } from './scanning/finished-scans.ts';
import { recoverInterruptedScans } from './scanning/recovery.ts';
import { createScanRunner } from './scanning/scan-runner.ts';
import { toScan } from './scanning/scan-view.ts';
import { prepareDataDir } from './store/data-dir.ts';
import { startFinishedScanRetention } from './store/finished-retention.ts';
import { openDatabase } from './store/database.ts';
import { createScanStore, type StoredScan } from './store/scan-store.ts';
import { UPLOAD_MEMORY_BUDGET_BYTES } from './upload/receive-submission.ts';
import { MemoryBudget } from './upload/upload-sink.ts';
import { createWebhookOutbox } from './webhooks/webhook-outbox.ts';
import { createWebhookSender, eventTypeOf, type WebhookOptions, type WebhookSender } from './webhooks/webhook-sender.ts';

export interface LocalServiceOptions {
  /** Default 127.0.0.1: the service is for this machine only. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /**
   * Each key is one integration (its own external_reference_id namespace and scans),
   * identified by a hash of the key unless the entry pins its integration id.
   */
  apiKeys: readonly ApiKeyConfig[];
  /** Database, uploads in flight and uploads awaiting scan (see store/data-dir.ts). */
  dataDir: string;
  /**
   * An engine instance (the caller keeps ownership), or how to pick one: then the service runs a
   * live engine (engines/live/) that picks again while it runs, and owns and closes it.
   */
  engine: ScanEngine | (SelectEngineOptions & LiveEngineTuning);
  /** How long a sync submission waits before 408 (default 90 s; shorter only for tests). */
  syncWindowMs?: number;
  /** How long a request's line and headers may take to arrive (default 30 s; shorter only for tests). */
  headersTimeoutMs?: number;
  /** How long a whole request, body included, may take to arrive (default 10 min; shorter only for tests). */
  requestTimeoutMs?: number;
  /** Each scan takes at least this long (default 0). */
  scanDelayMs?: number;
  webhook?: WebhookOptions;
  /** Per integration; `false` turns it off. Default DEFAULT_RATE_LIMIT. */
  rateLimit?: RateLimitOptions | false;
  /** Scans running at once (default: cores, 1 to 4). */
  scanConcurrency?: number;
  /** Delete terminal scans this long after they completed (store/finished-retention.ts); default: keep every scan. */
  keepFinishedMs?: number;
  logger?: ServiceLogger;
}

export interface LocalService {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  engine: ScanEngine;
  /** Scans the engine runs at once (scanConcurrency; as many clamd sessions are kept). */
  concurrency: number;
  /** Tests: each scan takes at least this long, over HTTP and on the local engine path alike. */
  scanDelayMs: number;
  /** The live engine, when the service picked its engine itself (its protection state, "check again"). */
  live: LiveEngine | null;
  /** Its client has recorded these terminal scans (ScanStore.forgetRecorded): the embedded service's retention. */
  forgetRecorded(integrationId: string, scanIds: readonly string[]): number;
  /** "Scan with basic checks only" for scans queued or waiting for ClamAV: they continue with the built-in engine. */
  allowBasicOnly(scanIds: readonly string[]): number;
  /** Scans no request was waiting for have finished (scanning/finished-scans.ts): the embedded service's doorbell. */
  onFinished(listener: (scanIds: readonly string[]) => void): () => void;
  close(): Promise<void>;
}

/** A request's line and headers must arrive within this (Node's default is 60 s). */
const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** A whole request must arrive within this: a 100 MB upload at 200 KB/s (Node's default is 5 min). */
const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const logger = options.logger ?? silentLogger;
  const keyring = createApiKeyring(options.apiKeys);
  const rateLimiter = options.rateLimit === false ? null : createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const syncWindowMs = positive(options.syncWindowMs ?? SYNC_WINDOW_MS, 'syncWindowMs');
  const headersTimeoutMs = positive(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, 'headersTimeoutMs');
  const requestTimeoutMs = positive(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs');
  // Node refuses a headers bound beyond the whole request's.
  if (headersTimeoutMs > requestTimeoutMs) throw new Error('headersTimeoutMs must not exceed requestTimeoutMs.');
  const scanDelayMs = nonNegative(options.scanDelayMs ?? 0, 'scanDelayMs');
  const concurrency = positive(options.scanConcurrency ?? Math.min(4, availableParallelism()), 'scanConcurrency');
  const layout = prepareDataDir(options.dataDir);

  // One clamd session with several scans in flight, files passed by descriptor where clamd can take them: no connection per file.
  const live = isEngine(options.engine)
    ? null
    : await startLiveEngine({ ...options.engine, dataDir: layout.root, clamd: { sessions: concurrency, sessionClient: true, ...options.engine.clamd } });
  const engine: ScanEngine = live ?? (options.engine as ScanEngine);
  const cleanups: Array<() => Promise<void> | void> = [];
  if (live) cleanups.push(() => live.close());

  try {
    const db = openDatabase(layout.databaseFile);
    cleanups.unshift(() => db.close());
    const store = createScanStore(db);

    const outbox = createWebhookOutbox(db);
    let webhooks: WebhookSender | null = null;
    if (options.webhook) {
      const sender = createWebhookSender(options.webhook, logger, outbox);
      webhooks = sender;
      cleanups.unshift(() => sender.close());
    } else {
      const dropped = outbox.clear();
      if (dropped > 0) logger.warn({ dropped }, 'webhooks are off: undelivered webhook events dropped');
    }

    const finished = createFinishedScans();
    const runner = createScanRunner({
      engine,
      store,
      uploadFileOf: layout.uploadFileOf,
      concurrency,
      scanDelayMs,
      logger,
      // The wire shape is built only when a webhook will carry it.
      onTerminal: webhooks ? announce(webhooks) : null,
      onFinished: (scanId) => finished.add(scanId),
    });
    cleanups.unshift(() => runner.close());

    const parts: ServiceParts = {
      layout,
      store,
      runner,
      syncWindowMs,
      uploadMemory: new MemoryBudget(UPLOAD_MEMORY_BUDGET_BYTES),
      onSubmitted: webhooks ? announce(webhooks) : null,
    };
    const handler = createRequestHandler({ keyring, rateLimiter, parts, logger });
    const server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        // Node checks the timeouts every `connectionsCheckingInterval` (default 30 s): often enough for a short one.
        connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeoutMs / 4)),
        // Node's Host check answers 400 with an empty body; the handler's (http/request-framing.ts) answers in JSON.
        requireHostHeader: false,
      },
      handler,
    );
    // Answer `Expect: 100-continue` ourselves, so a refused upload is refused before its body is sent.
    server.on('checkContinue', handler);
    // What Node's HTTP layer would answer with an empty body, or not at all (CONNECT), gets the documented JSON error body.
    server.on('checkExpectation', answerUnknownExpectation);
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, { headersTimeoutMs, requestTimeoutMs }, logger));
    server.on('connect', answerConnect(handler));

    // What an earlier run still owed the receiver goes first, in its order.
    const resumed = webhooks?.resume() ?? 0;
    if (resumed > 0) logger.info({ events: resumed }, 'delivering webhook events left by the last run');
    // Before listening: recovery empties incoming/, which must not hold a live upload yet.
    const recovered = await recoverInterruptedScans(layout, store, runner, {
      failed: (scan) => {
        const view = toScan(scan, 'en');
        webhooks?.send(eventTypeOf(view), view);
      },
      forgotten: (scanId) => outbox.removeScan(scanId),
    });
    if (recovered.resumed.length > 0 || recovered.failed.length > 0 || recovered.forgotten.length > 0) {
      logger.info(
        { resumed: recovered.resumed.length, failed: recovered.failed.length, forgotten: recovered.forgotten.length },
        'recovered scans left processing',
      );
    }

    if (options.keepFinishedMs !== undefined) cleanups.unshift(startFinishedScanRetention(store, positive(options.keepFinishedMs, 'keepFinishedMs'), logger));

    await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
    cleanups.unshift(() => closeServer(server));

    const port = (server.address() as AddressInfo).port;
    const host = options.host ?? '127.0.0.1';
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      engine,
      concurrency,
      scanDelayMs,
      live,
      forgetRecorded: (integrationId, scanIds) => {
        if (closing) return 0;
        try {
          return store.forgetRecorded(integrationId, scanIds);
        } catch (error) {
          // A retention step (a full disk, say): the scans stay until --keep-finished-hours; never the thread's end.
          logger.warn({ err: error, scans: scanIds.length }, 'could not forget recorded scans; they stay until retention');
          return 0;
        }
      },
      allowBasicOnly: (scanIds) => runner.allowBasicOnly(scanIds),
      onFinished: (listener) => finished.listen(listener),
      close: () => (closing ??= runCleanups(cleanups, logger)),
    };
  } catch (error) {
    await runCleanups(cleanups, logger);
    throw error;
  }
}

/** Newest first: the server stops taking requests, then scans stop, then webhooks, the database, the engine. */
async function runCleanups(cleanups: Array<() => Promise<void> | void>, logger: ServiceLogger): Promise<void> {
  for (const cleanup of cleanups) {
    try {
      await cleanup();
    } catch (error) {
      logger.warn({ err: error }, 'cleanup step failed');
    }
  }
}

/** Sends a scan's status change as its webhook event. */
function announce(webhooks: WebhookSender): (scan: StoredScan) => void {
  return (scan) => {
    const view = toScan(scan, 'en');
    webhooks.send(eventTypeOf(view), view);
  };
}

function isEngine(engine: LocalServiceOptions['engine']): engine is ScanEngine {
  return typeof (engine as ScanEngine).scan === 'function';
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Sync requests still waiting and idle keep-alive connections would hold close() open.
    server.closeAllConnections();
  });
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number.`);
  return value;
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be zero or more.`);
  return value;
}
