// Every failure code the core produces maps to specific guidance (not the
// generic "unexpected" text), checked against the core's own failure builders.
import { describe, expect, it } from 'vitest';
import { failureHelp, failureKind, type FailureKind } from '../../renderer/detail/failure-help.ts';
import type { IntakeErrorCode } from '../../electron/intake/intake-item.ts';
import { changedDuringUploadFailure, fileSystemFailure, notRegularFailure, tooLargeFailure } from '../../electron/scans/failures.ts';
import { en } from '../../renderer/i18n/en.ts';

describe('failure guidance', () => {
  it('covers every intake rejection code (the Record type makes the list complete)', () => {
    const expected: Record<IntakeErrorCode, FailureKind | 'unknown'> = {
      not_found: 'vanished',
      not_regular_file: 'notRegular',
      unreadable: 'unreadable',
      too_large: 'tooLarge',
      broken_link: 'vanished',
      symlink_loop: 'notRegular',
      invalid_path: 'unknown',
    };
    for (const [code, kind] of Object.entries(expected)) expect(failureKind(code), code).toBe(kind);
  });

  it('covers the pipeline’s own failures', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    expect(failureKind(fileSystemFailure(errno('ENOENT'))?.code)).toBe('vanished');
    expect(failureKind(fileSystemFailure(errno('EACCES'))?.code)).toBe('unreadable');
    expect(failureKind(fileSystemFailure(errno('EIO'))?.code)).toBe('unreadable');
    expect(failureKind(fileSystemFailure(errno('EISDIR'))?.code)).toBe('notRegular');
    expect(failureKind(tooLargeFailure(200 * 1024 * 1024).code)).toBe('tooLarge');
    expect(failureKind(notRegularFailure().code)).toBe('notRegular');
    expect(failureKind(changedDuringUploadFailure().code)).toBe('changed');
  });

  it('covers the service’s and the engine’s codes', () => {
    expect(failureKind('unauthorized')).toBe('auth');
    expect(failureKind('awaiting_api_key')).toBe('auth');
    expect(failureKind('file_too_large')).toBe('tooLarge');
    expect(failureKind('rate_limited')).toBe('rateLimited');
    expect(failureKind('network')).toBe('network');
    expect(failureKind('service_unreachable')).toBe('network');
    expect(failureKind('sync_scan_timeout')).toBe('timeout');
    for (const code of ['engine_error', 'engine_unavailable', 'engine_timeout', 'engine_size_limit', 'internal_error']) expect(failureKind(code), code).toBe('engine');
    expect(failureKind('file_unreadable')).toBe('unreadable');
    // An answer that is not a File Scanning Service's (an HTML page) is not a refusal: it points at the address.
    expect(failureKind('malformed_response')).toBe('notService');
    expect(failureKind('invalid_request')).toBe('rejected');
  });

  it('falls back to general guidance for an unknown or missing code', () => {
    expect(failureKind('something_new')).toBe('unknown');
    expect(failureKind(null)).toBe('unknown');
    expect(failureHelp(undefined)).toEqual({ kind: 'unknown', reason: 'failure.unknown.reason', next: 'failure.unknown.next' });
  });

  it('has a reason and a next step in the catalogue for every kind', () => {
    const kinds: FailureKind[] = ['auth', 'tooLarge', 'vanished', 'notRegular', 'unreadable', 'changed', 'network', 'rateLimited', 'timeout', 'engine', 'rejected', 'notService', 'unknown'];
    for (const kind of kinds) {
      expect(en).toHaveProperty(`failure.${kind}.reason`);
      expect(en).toHaveProperty(`failure.${kind}.next`);
    }
  });
});
