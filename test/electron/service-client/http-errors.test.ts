// Verdict's client reads each of the service's error codes for what it is:
// a slow request's 408 is a retryable timeout (never a running scan to
// follow), and a 413 about the request's framing is not "file too large".
import { describe, expect, it } from 'vitest';
import { errorFromStatus } from '../../../electron/service-client/http-errors.ts';

const context = { operation: 'POST /file-scans', origin: 'http://127.0.0.1:1' };
const answer = (status: number, code: string, extra: Record<string, string> = {}) =>
  errorFromStatus(status, {}, { code, message: `the service says ${code}`, ...extra }, context);

describe('errorFromStatus and the codes of answers from the HTTP layer', () => {
  it('408 request_timeout is a retryable timeout, not a sync scan to follow', () => {
    const error = answer(408, 'request_timeout');
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(error.scanId).toBeUndefined();
  });

  it('408 sync_scan_timeout with the scan id is still followed', () => {
    const error = answer(408, 'sync_scan_timeout', { file_scan_id: 'abc' });
    expect([error.kind, error.scanId]).toEqual(['sync_timeout', 'abc']);
  });

  it('413 request_too_large is an invalid request; 413 file_too_large stays a size problem', () => {
    expect(answer(413, 'request_too_large').kind).toBe('invalid_request');
    expect(answer(413, 'file_too_large').kind).toBe('file_too_large');
  });

  it('417 expectation_failed and 431 headers_too_large fail the request without a retry, keeping the service words', () => {
    for (const [status, code] of [[417, 'expectation_failed'], [431, 'headers_too_large']] as const) {
      const error = answer(status, code);
      expect(error.kind).toBe('invalid_request');
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(`the service says ${code}`);
      expect(error.code).toBe(code);
    }
  });
});
