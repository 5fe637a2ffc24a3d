// An error that ends a request with a given status and service error code.
// Handlers throw it; the request wrapper renders it in the caller's language.
import type { ErrorCode } from '../../../shared/service-contract/errors.ts';
import type { Message } from '../messages/catalogue.ts';

export interface HttpErrorOptions {
  /** Extra members of the error body, e.g. `file_scan_id` on 408. */
  extra?: Record<string, string>;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly detail: Message;
  readonly extra: Record<string, string>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: Message, options: HttpErrorOptions = {}) {
    super(`${code}: ${detail.key}`);
    this.name = 'HttpError';
    this.code = code;
    this.detail = detail;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}
