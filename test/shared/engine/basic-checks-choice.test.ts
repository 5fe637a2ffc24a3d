// Which records offer "Scan with basic checks only": waiting for ClamAV, or failed waiting; nothing else.
import { describe, expect, it } from 'vitest';
import { basicChecksChoiceFor } from '../../../shared/engine/basic-checks-choice.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';

type Shape = Pick<ScanRecord, 'status' | 'pendingReason' | 'error'>;
const waiting = (status: ScanRecord['status'], pendingReason: string | null): Shape => ({ status, pendingReason, error: null });

describe('basicChecksChoiceFor', () => {
  it('switches a file waiting for ClamAV at the service', () => {
    expect(basicChecksChoiceFor(waiting('processing', 'engine_waiting'))).toBe('switch');
    expect(basicChecksChoiceFor(waiting('uploading', 'engine_waiting'))).toBe('switch');
  });

  it('sends again a file that failed waiting for ClamAV', () => {
    expect(basicChecksChoiceFor({ status: 'failed', pendingReason: null, error: { code: 'clamav_unavailable', message: 'x' } })).toBe('resubmit');
  });

  it('offers nothing while Verdict\'s own clamd loads, for other waits and failures, or once judged', () => {
    expect(basicChecksChoiceFor(waiting('processing', 'engine_starting'))).toBeNull();
    expect(basicChecksChoiceFor(waiting('queued', 'engine_waiting'))).toBeNull();
    expect(basicChecksChoiceFor(waiting('processing', null))).toBeNull();
    expect(basicChecksChoiceFor({ status: 'failed', pendingReason: null, error: { code: 'engine_timeout', message: 'x' } })).toBeNull();
    expect(basicChecksChoiceFor(waiting('completed', null))).toBeNull();
  });
});
