// Runs the engine over accepted uploads with bounded concurrency, records the
// outcome (completed, or failed with a reason, never safe on failure), deletes
// the upload, and wakes whoever waits for the scan (sync requests, webhooks).
// Small uploads may come with their bytes, which the engine then scans from
// memory (see handlers/submit-scan.ts for when such an upload has no file).
import { unlinkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { EngineVerdict, ScanEngine, ScanOptions } from '../../engine/engine.ts';
import { isoNow } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import type { ScanStore, StoredScan } from '../store/scan-store.ts';
import { resultOfVerdict, storedErrorOf } from './engine-outcome.ts';

export interface ScanRunnerOptions {
  engine: ScanEngine;
  store: ScanStore;
  uploadFileOf(scanId: string): string;
  concurrency: number;
  /** Each scan takes at least this long (lets clients exercise 408 and polling). */
  scanDelayMs: number;
  /**
   * Called inside the transaction that records the outcome (the webhook event commits with it);
   * null when nobody listens, and the outcome is one statement, its own transaction.
   */
  onTerminal: ((scan: StoredScan) => void) | null;
  /**
   * A scan that no request was waiting for has been recorded (an async one, or a sync one
   * answered 408): whoever follows it by polling may ask now. Outside the transaction.
   */
  onFinished?: (scanId: string) => void;
  logger: ServiceLogger;
  /** Bytes of queued uploads kept in memory at most (default MAX_HELD_BYTES); beyond it the engine reads the file. */
  maxHeldBytes?: number;
}

/** What the caller knows about a scan it queues. */
export interface EnqueueOptions {
  /** Basic checks only, when ClamAV is missing (see ScanOptions). */
  basicOnly?: boolean;
  /** The scan as just stored (processing): its outcome is recorded without reading the row back. */
  stored?: StoredScan;
  /**
   * No upload file was written (a small sync scan whose bytes are held): there is none to
   * delete afterwards, unless `uploadWritten` is called meanwhile. Ignored unless held.
   */
  withoutFile?: boolean;
}

/** Enough for a queue of many small files; a backlog past it costs only a read from disk per scan. */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

export interface ScanRunner {
  /** Whether `enqueue` would keep an upload of this size in memory now (the engine can scan bytes, the budget allows). */
  canHold(bytes: number): boolean;
  /**
   * `content`: the upload's bytes, when the caller has them in memory. They are kept for
   * the engine when `canHold` allows (true is returned); otherwise the engine reads the
   * upload's file, which must then exist. `basicOnly` goes to the engine with the file (kept in memory
   * only: after a restart the file waits for ClamAV again, the safe side).
   */
  enqueue(scanId: string, content?: Buffer, options?: EnqueueOptions): boolean;
  /** The upload of a scan queued `withoutFile` has been written since: it is deleted once the scan is recorded. */
  uploadWritten(scanId: string): void;
  /**
   * The user allows basic checks only for these scans, queued or waiting for ClamAV now
   * (the same scan continues: no second submission). Returns how many were queued or running.
   */
  allowBasicOnly(scanIds: readonly string[]): number;
  /**
   * The terminal scan, or null when `timeoutMs` passes first. `current`: the scan as the
   * caller has just stored it, so it need not be read back.
   */
  waitForTerminal(scanId: string, timeoutMs: number, current?: StoredScan): Promise<StoredScan | null>;
  /** Stops scanning: running scans are abandoned and stay `processing`, to be resumed on the next start. */
  close(): Promise<void>;
  /** close() was called (waiters woken by it get null, like a timeout). */
  readonly closing: boolean;
}

type EngineOutcome = { ok: true; verdict: EngineVerdict } | { ok: false; error: unknown };

export function createScanRunner(options: ScanRunnerOptions): ScanRunner {
  const { engine, store, logger } = options;
  const queue: string[] = [];
  const running = new Set<Promise<void>>();
  const waiters = new Map<string, Set<(scan: StoredScan | null) => void>>();
  const shutdown = new AbortController();
  const held = new Map<string, Buffer>();
  const basicOnly = new Set<string>();
  /** Scans queued with their stored view (EnqueueOptions.stored), until they start. */
  const known = new Map<string, StoredScan>();
  /** Held scans that have no upload file (EnqueueOptions.withoutFile). */
  const fileless = new Set<string>();
  /** The scans running now, each with the latch that lets it stop waiting for ClamAV. */
  const allowing = new Map<string, AbortController>();
  const maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_BYTES;
  let heldBytes = 0;

  const takeHeld = (scanId: string): Buffer | undefined => {
    const content = held.get(scanId);
    if (content) {
      held.delete(scanId);
      heldBytes -= content.length;
    }
    return content;
  };

  const wakeWaiters = (scan: StoredScan) => {
    for (const wake of [...(waiters.get(scan.id) ?? [])]) wake(scan);
  };

  async function scanOne(scanId: string): Promise<void> {
    const signal = shutdown.signal;
    const file = options.uploadFileOf(scanId);
    const content = takeHeld(scanId);
    const current = known.get(scanId);
    known.delete(scanId);
    const allowed = new AbortController();
    allowing.set(scanId, allowed);
    const scanOptions: ScanOptions = { basicOnly: basicOnly.delete(scanId), basicOnlyAllowed: allowed.signal };
    const started = performance.now();
    const outcome: Promise<EngineOutcome> = Promise.resolve()
      .then(() => (content && engine.scanBytes ? engine.scanBytes(content, signal, scanOptions) : engine.scan(file, signal, scanOptions)))
      .then((verdict) => ({ ok: true as const, verdict }), (error: unknown) => ({ ok: false as const, error }));
    await Promise.all([outcome, atLeast(started, options.scanDelayMs, signal)]);
    allowing.delete(scanId);
    if (signal.aborted) return;

    const result = await outcome;
    if (!result.ok) logger.warn({ scanId, err: result.error }, 'scan failed');
    const timing = { completedAt: isoNow(), scanDurationMs: Math.max(0, Math.round(performance.now() - started)) };
    const stored = recordOutcome(store, options.onTerminal, engine.name, { scanId, result, current, ...timing });
    // Read right after recording (no await between): an upload written for a 408 is deleted too.
    if (!fileless.delete(scanId)) {
      await removeUpload(file, content !== undefined).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn({ scanId, err: error }, 'could not delete an upload');
      });
    }
    if (!stored) return;
    const waited = waiters.has(scanId);
    wakeWaiters(stored);
    if (!waited) options.onFinished?.(scanId);
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

  const canHold = (bytes: number) => engine.scanBytes !== undefined && !shutdown.signal.aborted && heldBytes + bytes <= maxHeldBytes;

  return {
    get closing() {
      return shutdown.signal.aborted;
    },
    canHold,
    enqueue(scanId, content, enqueueOptions) {
      if (enqueueOptions?.basicOnly) basicOnly.add(scanId);
      if (enqueueOptions?.stored) known.set(scanId, enqueueOptions.stored);
      const holding = content !== undefined && canHold(content.length);
      if (holding) {
        held.set(scanId, content);
        heldBytes += content.length;
        if (enqueueOptions?.withoutFile) fileless.add(scanId);
      }
      queue.push(scanId);
      pump();
      return holding;
    },
    uploadWritten(scanId) {
      fileless.delete(scanId);
    },
    allowBasicOnly(scanIds) {
      let found = 0;
      for (const scanId of scanIds) {
        const running = allowing.get(scanId);
        if (running) running.abort();
        else if (queue.includes(scanId)) basicOnly.add(scanId);
        else continue;
        found += 1;
      }
      return found;
    },
    waitForTerminal(scanId, timeoutMs, current) {
      const now = current ?? store.get(scanId);
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
      held.clear();
      basicOnly.clear();
      known.clear();
      fileless.clear();
      allowing.clear();
      heldBytes = 0;
      // Nobody will finish these scans in this process: release their waiters now rather than at the window's end.
      for (const set of [...waiters.values()]) for (const wake of [...set]) wake(null);
      await Promise.allSettled([...running]);
    },
  };
}

/** Records a scan's outcome (completed, or failed with a reason) and tells `onTerminal` in the same transaction. */
function recordOutcome(
  store: ScanStore,
  onTerminal: ScanRunnerOptions['onTerminal'],
  engineName: string,
  done: { scanId: string; result: EngineOutcome; current: StoredScan | undefined; completedAt: string; scanDurationMs: number },
): StoredScan | null {
  const { scanId, result, current, completedAt, scanDurationMs } = done;
  const write = (): StoredScan | null => {
    if (!result.ok) return store.fail(scanId, { error: storedErrorOf(result.error), completedAt, scanDurationMs }, current);
    const { verdict } = result;
    return store.complete(scanId, { result: resultOfVerdict(verdict, engineName), engine: verdict.engine ?? null, completedAt, scanDurationMs }, current);
  };
  if (!onTerminal) return write();
  return store.transaction(() => {
    const stored = write();
    if (stored) onTerminal(stored);
    return stored;
  });
}

/** Resolves once `ms` have passed since `started` (timers may fire a hair early), or on abort. */
export async function atLeast(started: number, ms: number, signal: AbortSignal): Promise<void> {
  for (let left = ms; left > 0 && !signal.aborted; left = ms - (performance.now() - started)) {
    await delay(Math.ceil(left), undefined, { signal }).catch(() => {});
  }
}

/**
 * A small upload (its bytes were held) may have no file at all (a sync one, see
 * handlers/submit-scan.ts) or a small one: removing it on this thread costs less
 * than a round trip through the thread pool. ENOENT is the caller's to ignore.
 */
async function removeUpload(file: string, small: boolean): Promise<void> {
  if (small) unlinkSync(file);
  else await unlink(file);
}
