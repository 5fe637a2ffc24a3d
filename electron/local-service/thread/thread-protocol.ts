// The messages between the app and a local service running in a worker thread
// (start-in-thread.ts ↔ service-thread.ts). Everything here must survive the
// structured clone: plain data, no functions, no class instances.
import type { DetectionSettings } from '../../../shared/settings/detection.ts';
import type { ApiKeyConfig } from '../auth/api-keys.ts';
import type { RateLimitOptions } from '../auth/rate-limiter.ts';
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import type { FileHash, ScanResult } from '../../../shared/service-contract/scan.ts';
import type { LiveEngineTuning } from '../../engine/live/start-live-engine.ts';
import type { HashedIdentity } from '../../engine/engine.ts';
import type { EngineDescription, SelectEngineOptions } from '../../engine/select-engine.ts';
import type { StoredScanError } from '../store/scan-store.ts';
import type { WebhookOptions } from '../webhooks/webhook-sender.ts';

/** LocalServiceOptions minus what cannot cross a thread boundary (an engine instance, a logger). */
export interface ThreadServiceOptions {
  host?: string;
  port?: number;
  apiKeys: readonly ApiKeyConfig[];
  dataDir: string;
  engine: SelectEngineOptions & LiveEngineTuning;
  syncWindowMs?: number;
  scanDelayMs?: number;
  webhook?: WebhookOptions;
  rateLimit?: RateLimitOptions | false;
  scanConcurrency?: number;
}

export type LogLevel = 'info' | 'warn' | 'error';

/** An Error as plain data (structured clone keeps neither `code` nor the class). */
export interface ErrorData {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

/** The live engine's protection state and signature folder, as the app shows them. */
export interface EngineReport {
  status: ProtectionStatus | null;
  databaseDir: string | null;
}

/** One file for the service's live engine, straight from the app (its local engine path: no HTTP, no store). */
export interface EngineScanRequest {
  path: string;
  /** The bytes the app hashed (a small file): scanned instead of the path, so the verdict is for exactly them. */
  content?: Uint8Array;
  size: number;
  /** The record's reference: "Scan with basic checks only" names a file waiting for ClamAV by it. */
  reference: string;
  /** The user chose basic checks only for this file (ScanOptions.basicOnly). */
  basicOnly: boolean;
  /** The file as the app opened it to hash it: an engine that scanned that file unchanged needs no second read of it. */
  hashed?: HashedIdentity;
}

/**
 * The engine's answer, as the service would record it (scanning/engine-outcome.ts). `fileHash` and `sizeNow`:
 * of a file scanned by its path, read again after the scan (absent with `content`, and when the engine scanned the file the app hashed, unchanged:
 * those bytes were the ones hashed).
 */
export type EngineScanOutcome = (
  | { ok: true; result: ScanResult; engine: EngineIdentity | null }
  | { ok: false; error: StoredScanError }
) & {
  fileType: string | null;
  fileHash: FileHash | null;
  sizeNow?: number;
  durationMs: number;
  /** clamd scanned, by its descriptor, the very file the app hashed, and it stayed unchanged until the verdict. */
  unchangedSinceHashed?: true;
};

export type FromThread =
  | { type: 'ready'; url: string; port: number; engine: EngineDescription; report: EngineReport }
  /** The engine's protection state changed. */
  | { type: 'engine'; report: EngineReport }
  /** The answer to a `check-engine` with the same id. */
  | { type: 'engine-checked'; id: number; report: EngineReport }
  | { type: 'start-failed'; error: ErrorData }
  /** Scans no request was waiting for have finished (LocalService.onFinished). */
  | { type: 'finished'; scanIds: string[] }
  | { type: 'log'; level: LogLevel; fields: Record<string, unknown>; message: string }
  /** The answers to `scan-files` by id, those of a turn in one message (none once the thread is closing: the thread's end fails them). */
  | { type: 'scan-files-done'; answers: Array<{ id: number; outcome: EngineScanOutcome }> }
  | { type: 'closed' };

export type ToThread =
  | { type: 'close' }
  | { type: 'check-engine'; id: number }
  /** The signature folder for Verdict's own clamd changed (the setting; null: the default order). */
  | { type: 'set-database-dir'; databaseDir: string | null }
  /** The detection settings for Verdict's own clamd changed (issue 28 §2): it starts again with them. */
  | { type: 'set-detection'; detection: DetectionSettings }
  /** The client has recorded these terminal scans durably: the service may delete them (ScanStore.forgetRecorded). */
  | { type: 'recorded'; integrationId: string; scanIds: string[] }
  /** The user allows basic checks only for these scans, or these references of files at the engine (fire and forget). */
  | { type: 'allow-basic-only'; scanIds: string[] }
  /** Files to scan, those the app handed over in one turn in one message, each with its id. */
  | { type: 'scan-files'; files: Array<{ id: number; request: EngineScanRequest }> }
  /** The app no longer waits for the file with this id: the engine stops (its answer, if any, is ignored). */
  | { type: 'scan-file-abort'; id: number };

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack ? { stack: error.stack } : {}),
  };
}

/** Log fields as plain data: Errors become ErrorData, anything uncloneable becomes its string form. */
export function plainFields(fields: object): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Error) plain[key] = errorData(value);
    else if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) plain[key] = value;
    else {
      try {
        plain[key] = structuredClone(value);
      } catch {
        plain[key] = String(value);
      }
    }
  }
  return plain;
}
