// Error bodies of the File Scanning Service. The spec leaves the shape open
// (section 7); our decision, recorded in SERVICE-DECISIONS.md, is
// `{"code": "...", "message": "..."}` plus `file_scan_id` on 408.
import { z } from 'zod';

export const ERROR_CODES = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  /** A known path with a method it does not support; the answer's `Allow` header lists the one it does. */
  method_not_allowed: 405,
  /** The request itself arrived too slowly (headers or body); never a scan that is still running. */
  request_timeout: 408,
  sync_scan_timeout: 408,
  duplicate_external_reference_id: 409,
  file_too_large: 413,
  /** A chunk extension over Node's 16 KiB bound: the framing, not the file, is too large. */
  request_too_large: 413,
  expectation_failed: 417,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  /** A request line of another HTTP version than 1.0 or 1.1 (HTTP/2 prior knowledge, HTTP/0.9, HTTP/9.9). */
  http_version_not_supported: 505,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const errorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  file_scan_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
