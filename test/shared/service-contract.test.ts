import { describe, expect, it } from 'vitest';
import { externalReferenceIdSchema, scanSchema, terminalScanSchema, asyncSubmissionSchema } from '../../shared/service-contract/scan.ts';
import { EXTERNAL_REFERENCE_MAX_LENGTH, MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { verdictOf } from '../../shared/scans/record.ts';

const completed = {
  id: '7f1c2a9e-0000-4000-8000-000000000001',
  status: 'completed',
  execution_mode: 'sync',
  file_name: 'a.txt',
  file_size: 3,
  file_type: 'text/plain',
  file_hash: { md5: 'a'.repeat(32), sha1: 'b'.repeat(40), sha256: 'c'.repeat(64) },
  result: { safe: true, detailed: 'clean', findings: [] },
  completed_at: '2026-11-22T03:00:00.123Z',
  scan_duration_ms: 12,
  submitted_at: '2026-11-22T03:00:00.111Z',
};

describe('service contract', () => {
  it('states the limits in bytes', () => {
    expect(MAX_ASYNC_FILE_SIZE).toBe(104_857_600);
    expect(MAX_SYNC_FILE_SIZE).toBe(10_485_760);
  });

  it('accepts references of allowed characters up to 255 and rejects the rest', () => {
    expect(externalReferenceIdSchema.safeParse('verdict/abc:1#x@y.z_-').success).toBe(true);
    expect(externalReferenceIdSchema.safeParse('a'.repeat(EXTERNAL_REFERENCE_MAX_LENGTH)).success).toBe(true);
    expect(externalReferenceIdSchema.safeParse('a'.repeat(EXTERNAL_REFERENCE_MAX_LENGTH + 1)).success).toBe(false);
    for (const bad of ['', 'has space', 'semi;colon', 'ümlaut', 'a?b', 'a\nb']) {
      expect(externalReferenceIdSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('keeps unknown fields when parsing a scan', () => {
    const parsed = scanSchema.parse({ ...completed, future_field: 42 });
    expect((parsed as Record<string, unknown>).future_field).toBe(42);
  });

  it('requires the verdict fields of a completed scan and the error of a failed one', () => {
    expect(terminalScanSchema.safeParse(completed).success).toBe(true);
    const { result: _result, ...withoutResult } = completed;
    const missing = terminalScanSchema.safeParse(withoutResult);
    expect(missing.success).toBe(false);
    expect(JSON.stringify(missing.error?.issues)).toContain('result');
    expect(terminalScanSchema.safeParse({ ...withoutResult, status: 'failed' }).success).toBe(false);
    expect(terminalScanSchema.safeParse({ ...withoutResult, status: 'failed', error: { code: 'engine_error', message: 'x' } }).success).toBe(true);
    expect(terminalScanSchema.safeParse({ ...completed, status: 'processing' }).success).toBe(false);
  });

  it('rejects an async response that is not processing', () => {
    const base = { id: 'x', status: 'processing', execution_mode: 'async', file_name: 'a', file_size: 1, submitted_at: '2026-11-22T03:00:00.000Z' };
    expect(asyncSubmissionSchema.safeParse(base).success).toBe(true);
    expect(asyncSubmissionSchema.safeParse({ ...base, status: 'completed' }).success).toBe(false);
    expect(asyncSubmissionSchema.safeParse({ ...base, submitted_at: '2026-11-22T03:00:00Z' }).success).toBe(false);
  });

  it('never reads a failed or unknown result as safe', () => {
    expect(verdictOf({ status: 'failed', safe: null, detailed: null })).toBe('could-not-scan');
    expect(verdictOf({ status: 'failed', safe: true, detailed: 'clean' })).toBe('could-not-scan');
    expect(verdictOf({ status: 'completed', safe: null, detailed: null })).toBe('could-not-scan');
    expect(verdictOf({ status: 'completed', safe: false, detailed: 'infected' })).toBe('unsafe');
    expect(verdictOf({ status: 'completed', safe: true, detailed: 'clean' })).toBe('safe');
    expect(verdictOf({ status: 'processing', safe: null, detailed: null })).toBe('pending');
  });
});

describe('settings patches', () => {
  it('carry only the fields they were given (no defaults filled in)', async () => {
    const { settingsPatchSchema, watchedFolderPatchSchema } = await import('../../shared/settings/settings.ts');
    expect(settingsPatchSchema.parse({ notifyClean: true })).toEqual({ notifyClean: true });
    expect(watchedFolderPatchSchema.parse({ paused: true })).toEqual({ paused: true });
    expect(settingsPatchSchema.safeParse({ apiKey: 'x' }).success).toBe(false);
  });
});
