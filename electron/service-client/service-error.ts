// The one error type the service client throws. `kind` is what the scan
// pipeline branches on (pause for a key, continue a 408, adopt a 409, fail the
// file, or requeue); the message is safe to show and log: it never contains
// the API key or a local file path.

import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import { describeFailure } from '../scans/failure-text.ts';

export const SERVICE_ERROR_KINDS = [
  /** 401/403, or no usable key: pause submitting and ask for a key. Never retried. */
  'unauthorized',
  /** 408 sync_scan_timeout: the scan exists (`scanId`); continue with GET /file-scans/{id}. */
  'sync_timeout',
  /** 409: the external reference was already used; adopt the existing scan. */
  'duplicate_reference',
  /** 413: the file is over the service's limit (the message names it). */
  'file_too_large',
  /** 400 and other 4xx, or a request the client refuses to send (bad reference). */
  'invalid_request',
  /** 404: no such scan / reference (or wrong base URL). */
  'not_found',
  /** 429. Retryable; honours `retryAfterMs`. */
  'rate_limited',
  /** 5xx. Retryable; honours `retryAfterMs`. */
  'server_error',
  /** Connection refused/reset, DNS failure, socket closed mid-way. Retryable. */
  'network',
  /** Connect, response or upload-stall timeout. Retryable. */
  'timeout',
  /** The answer is not what the interface promises (not JSON, wrong shape, unexpected status). */
  'malformed_response',
  /** The caller's AbortSignal fired. */
  'aborted',
  /** The local file could not be read, or changed while it was being sent. Nothing was scanned. */
  'file_unreadable',
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

const RETRYABLE: ReadonlySet<ServiceErrorKind> = new Set(['rate_limited', 'server_error', 'network', 'timeout']);

export const isRetryableKind = (kind: ServiceErrorKind): boolean => RETRYABLE.has(kind);

export interface ServiceErrorDetails {
  /** HTTP status, when the service answered. */
  status?: number;
  /** The service's error code (`sync_scan_timeout`, ...) or a system code (`ECONNRESET`). */
  code?: string;
  /** From Retry-After, already converted to a delay. */
  retryAfterMs?: number;
  /** The scan the error is about (408: the already created scan). */
  scanId?: string;
  /** What the UI words the message from, when Verdict wrote it (the service's own message has none). */
  params?: ScanFailureParams;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly scanId: string | undefined;
  readonly params: ScanFailureParams | undefined;

  constructor(kind: ServiceErrorKind, message: string, details: ServiceErrorDetails = {}) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
    this.scanId = details.scanId;
    this.params = details.params;
  }

  /** 429, 5xx, network and timeouts: worth another attempt later. */
  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }

  toJSON() {
    return { name: this.name, kind: this.kind, message: this.message, status: this.status, code: this.code, scanId: this.scanId };
  }
}

export const isServiceError = (value: unknown): value is ServiceError => value instanceof ServiceError;

/** A ServiceError in Verdict's own words: the English sentence of `params` (failure-text.ts), kept with them for the UI. */
export const wordedServiceError = (kind: ServiceErrorKind, params: ScanFailureParams, details: Omit<ServiceErrorDetails, 'params'> = {}): ServiceError =>
  new ServiceError(kind, describeFailure(params), { ...details, params });

/** Replaces every occurrence of the secret in a text (defence in depth for server-echoed text). */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

/** The caller cancelled (its signal aborted). */
export const abortedError = (): ServiceError => new ServiceError('aborted', 'The request was cancelled.');
