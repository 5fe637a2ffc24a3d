// Maps what can go wrong on the wire to a ServiceError: an HTTP status with
// the service's error body, or a thrown transport error from undici / the OS.
import { errorBodySchema } from '../../shared/service-contract/errors.ts';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { parseRetryAfter } from './retry-policy.ts';
import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import { ServiceError, wordedServiceError, type ServiceErrorKind } from './service-error.ts';

export interface ErrorContext {
  /** `POST /file-scans`, `GET /file-scans/{id}`, ... (no ids, no secrets). */
  operation: string;
  origin: string;
}

/** A non-2xx answer → ServiceError, keeping the service's own (localized) message where it sent one. */
export function errorFromStatus(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  json: unknown,
  context: ErrorContext,
): ServiceError {
  const parsed = errorBodySchema.safeParse(json);
  const body = parsed.success ? parsed.data : undefined;
  const code = body?.code;
  const serviceMessage = body?.message?.trim() || undefined;
  const say = (fallback: string) => serviceMessage ?? fallback;
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  const details = { status, code, retryAfterMs };
  /** The service's own message as it is (it chose the language), else Verdict's, with what the UI words it from. */
  const sayOr = (kind: ServiceErrorKind, params: ScanFailureParams) =>
    serviceMessage === undefined ? wordedServiceError(kind, params, details) : new ServiceError(kind, serviceMessage, details);

  switch (status) {
    case 401:
    case 403:
      return new ServiceError('unauthorized', say('The service rejected the API key.'), details);
    case 404:
      return sayOr('not_found', { cause: 'http_not_found', operation: context.operation });
    case 408: {
      if (code === 'sync_scan_timeout' && body?.file_scan_id) {
        return new ServiceError('sync_timeout', say('The sync scan did not finish within the service\'s window; it continues in the background.'), {
          ...details,
          scanId: body.file_scan_id,
        });
      }
      // `request_timeout`, a proxy's 408, or one without the scan id: the request itself was too slow; send it again.
      return new ServiceError('timeout', say('The service timed out waiting for the request.'), details);
    }
    case 409:
      return new ServiceError('duplicate_reference', say('The external reference was already used for another submission.'), details);
    case 413:
      // `request_too_large` is about the request's framing, not the file: no limit to tell the user about.
      if (code === 'request_too_large') return sayOr('invalid_request', { cause: 'http_refused', status });
      return sayOr('file_too_large', { cause: 'http_too_large', syncLimit: MAX_SYNC_FILE_SIZE, asyncLimit: MAX_ASYNC_FILE_SIZE });
    case 429:
      return new ServiceError('rate_limited', say('The service is rate limiting requests.'), details);
    default:
      break;
  }
  // 417 `expectation_failed`, 431 `headers_too_large` and any other 4xx: this request will not be accepted as it is.
  if (status >= 500) return new ServiceError('server_error', say(`The service had an internal problem (HTTP ${status}).`), details);
  if (status >= 400) return sayOr('invalid_request', { cause: 'http_refused', status });
  if (status >= 300) return wordedServiceError('malformed_response', { cause: 'http_redirect', operation: context.operation, status }, details);
  return wordedServiceError('malformed_response', { cause: 'http_unexpected', operation: context.operation, status }, details);
}

const systemCode = (error: unknown): string | undefined => {
  const value = error as { code?: unknown; errors?: unknown[] } | null;
  if (typeof value?.code === 'string') return value.code;
  // net's happy-eyeballs connect raises an AggregateError of per-address errors.
  const first = Array.isArray(value?.errors) ? (value.errors[0] as { code?: unknown } | undefined) : undefined;
  return typeof first?.code === 'string' ? first.code : undefined;
};

/** A thrown transport error → ServiceError. Our own messages only: raw ones may carry hosts, paths or headers. */
export function errorFromThrown(error: unknown, context: ErrorContext & { headersTimeoutMs: number; connectTimeoutMs: number }): ServiceError {
  if (error instanceof ServiceError) return error;
  const code = systemCode(error);
  const host = (() => {
    try {
      return new URL(context.origin).host;
    } catch {
      return context.origin;
    }
  })();
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ServiceError('timeout', `Could not connect to the service at ${host} within ${seconds(context.connectTimeoutMs)}.`, { code });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ServiceError('timeout', `The service did not answer ${context.operation} within ${seconds(context.headersTimeoutMs)}.`, { code });
    case 'UND_ERR_BODY_TIMEOUT':
      return new ServiceError('timeout', `The service stopped sending its answer to ${context.operation}.`, { code });
    case 'ECONNREFUSED':
      return new ServiceError('network', `Could not connect to the service at ${host} (connection refused).`, { code });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ServiceError('network', `Could not find the service's host ${host} (${code}).`, { code });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
    case 'ETIMEDOUT':
      return new ServiceError('network', `The service at ${host} is unreachable (${code}).`, { code });
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return new ServiceError('network', `The connection to the service was closed during ${context.operation} (${code}).`, { code });
    default:
      break;
  }
  if (code?.startsWith('HPE_')) {
    return wordedServiceError('malformed_response', { cause: 'not_http', operation: context.operation, detail: code }, { code });
  }
  if (code?.startsWith('ERR_TLS') || code?.startsWith('CERT_') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') {
    return new ServiceError('network', `The TLS connection to ${host} failed (${code}).`, { code });
  }
  const name = (error as { name?: unknown } | null)?.name;
  return new ServiceError('network', `${context.operation} failed (${code ?? (typeof name === 'string' ? name : 'unknown error')}).`, { code });
}
