// Runs the engine over accepted uploads with bounded concurrency, records the
// outcome (completed, or failed with a reason, never safe on failure), deletes
// the upload, and wakes whoever waits for the scan (sync requests, webhooks).
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { EngineError, type EngineVerdict, type ScanEngine } from '../engines/engine.ts';
import { isoNow } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import type { ScanStore, StoredScan, StoredScanError } from '../store/scan-store.ts';
import { ENGINE_FAILED_UNEXPECTEDLY } from './scan-view.ts';

export interface ScanRunnerOptions {
  engine: ScanEngine;
  store: ScanStore;
  uploadFileOf(scanId: string): string;
  concurrency: number;
  /** Each scan takes at least this long (lets clients exercise 408 and polling). */
  scanDelayMs: number;
  onTerminal(scan: StoredScan): void;
  logger: ServiceLogger;
}

export interface ScanRunner {
  enqueue(scanId: string): void;
  /** The terminal scan, or null when `timeoutMs` passes first. */
  waitForTerminal(scanId: string, timeoutMs: number): Promise<StoredScan | null>;
  /** Stops scanning: running scans are abandoned and stay `processing`, to be resumed on the next start. */
  close(): Promise<void>;
}

type EngineOutcome = { ok: true; verdict: EngineVerdict } | { ok: false; error: unknown };

export function createScanRunner(options: ScanRunnerOptions): ScanRunner {
  const { engine, store, logger } = options;
  const queue: string[] = [];
  const running = new Set<Promise<void>>();
  const waiters = new Map<string, Set<(scan: StoredScan | null) => void>>();
  const shutdown = new AbortController();

  const settle = (scan: StoredScan) => {
    for (const wake of [...(waiters.get(scan.id) ?? [])]) wake(scan);
    try {
      options.onTerminal(scan);
    } catch (error) {
      logger.error({ err: error, scanId: scan.id }, 'terminal-state listener failed');
    }
  };

  async function scanOne(scanId: string): Promise<void> {
    const signal = shutdown.signal;
    const file = options.uploadFileOf(scanId);
    const started = performance.now();
    const outcome: Promise<EngineOutcome> = Promise.resolve()
      .then(() => engine.scan(file, signal))
      .then((verdict) => ({ ok: true as const, verdict }), (error: unknown) => ({ ok: false as const, error }));
    await Promise.all([outcome, atLeast(started, options.scanDelayMs, signal)]);
    if (signal.aborted) return;

    const result = await outcome;
    const completedAt = isoNow();
    const scanDurationMs = Math.max(0, Math.round(performance.now() - started));
    let stored: StoredScan | null;
    if (result.ok) {
      const findings = result.verdict.findings.map((finding) => ({ name: String(finding.name), engine: engine.name }));
      stored = store.complete(scanId, {
        result: { safe: result.verdict.safe === true, detailed: String(result.verdict.detailed), findings },
        completedAt,
        scanDurationMs,
      });
    } else {
      logger.warn({ scanId, err: result.error }, 'scan failed');
      stored = store.fail(scanId, { error: failureOf(result.error), completedAt, scanDurationMs });
    }
    await rm(file, { force: true }).catch((error: unknown) => logger.warn({ scanId, err: error }, 'could not delete an upload'));
    if (stored) settle(stored);
  }

  function pump(): void {
    while (!shutdown.signal.aborted && running.size < options.concurrency && queue.length > 0) {
      const scanId = queue.shift() as string;
      const job: Promise<void> = scanOne(scanId)
        .catch((error: unknown) => {
          // Recording the outcome failed (e.g. the database is closing); the scan stays processing and resumes on start.
          if (!shutdown.signal.aborted) logger.error({ scanId, err: error }, 'could not record a scan outcome');
        })
        .finally(() => {
          running.delete(job);
          pump();
        });
      running.add(job);
    }
  }

  return {
    enqueue(scanId) {
      queue.push(scanId);
      pump();
    },
    waitForTerminal(scanId, timeoutMs) {
      const now = store.get(scanId);
      if (now && now.status !== 'processing') return Promise.resolve(now);
      return new Promise((resolve) => {
        const set = waiters.get(scanId) ?? new Set();
        waiters.set(scanId, set);
        const wake = (scan: StoredScan | null) => {
          clearTimeout(timer);
          set.delete(wake);
          if (set.size === 0 && waiters.get(scanId) === set) waiters.delete(scanId);
          resolve(scan);
        };
        const timer = setTimeout(() => wake(null), timeoutMs);
        set.add(wake);
      });
    },
    async close() {
      shutdown.abort();
      queue.length = 0;
      // Nobody will finish these scans in this process: release their waiters now rather than at the window's end.
      for (const set of [...waiters.values()]) for (const wake of [...set]) wake(null);
      await Promise.allSettled([...running]);
    },
  };
}

/** Resolves once `ms` have passed since `started` (timers may fire a hair early), or on abort. */
async function atLeast(started: number, ms: number, signal: AbortSignal): Promise<void> {
  for (let left = ms; left > 0 && !signal.aborted; left = ms - (performance.now() - started)) {
    await delay(Math.ceil(left), undefined, { signal }).catch(() => {});
  }
}

/** Engine errors carry their reason to the caller; anything else is a bug and says nothing internal. */
function failureOf(error: unknown): StoredScanError {
  if (error instanceof EngineError) return { code: error.code, detail: error.message };
  return { code: ENGINE_FAILED_UNEXPECTEDLY, detail: null };
}
