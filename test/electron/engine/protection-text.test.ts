// Every protection reason and action has English words, with its params filled in.
import { describe, expect, test } from 'vitest';
import { BUILTIN_IDENTITY, parseClamdVersion } from '../../../shared/engine/engine-identity.ts';
import { protectionStatus, PROTECTION_ACTIONS, PROTECTION_REASONS, type EngineFacts } from '../../../shared/engine/protection-state.ts';
import { selfTestEngine, withSelfTest } from '../../../shared/engine/self-test.ts';
import { MAX_ASYNC_FILE_SIZE, MB } from '../../../shared/service-contract/limits.ts';
import { engineIdentityText, engineLine, protectionActionText, protectionReasonText, streamLimitText } from '../../../electron/engine/protection-text.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const identity = (line: string) => parseClamdVersion(line) ?? BUILTIN_IDENTITY;
const FACTS: EngineFacts[] = [
  { kind: 'clamav', source: 'own', where: 'unix:/d/clamd.sock', identity: identity('ClamAV 1.4.6/27467/Tue Nov 24 09:21:02 2026') },
  { kind: 'clamav', source: 'system', where: 'unix:/run/clamav/clamd.ctl', identity: identity('ClamAV 1.4.6/27400/Tue Nov 10 09:21:02 2026'), streamLimit: { bytes: 25 * MB, configPath: '/etc/clamav/clamd.conf' } },
  { kind: 'clamav', source: 'configured', where: 'tcp:127.0.0.1:3310', identity: identity('ClamAV 1.4.6') },
  { kind: 'clamav', source: 'own', where: 'unix:/d/clamd.sock', identity: identity('ClamAV 1.4.6') },
  { kind: 'builtin', why: 'builtin_requested' },
  { kind: 'builtin', why: 'clamav_not_found', params: { tried: 'PATH' } },
  { kind: 'builtin', why: 'database_not_found', params: { tried: '/d/clamav-db, /var/lib/clamav' } },
  { kind: 'starting', where: 'unix:/d/clamd.sock' },
  { kind: 'not_running', source: 'configured', where: 'unix:/x.sock', why: 'clamd_not_answering' },
  { kind: 'not_running', source: 'own', where: '/d/clamd.conf', why: 'clamd_failed', params: { problem: 'clamd_failed', detail: 'ERROR: Malformed database' } },
];

describe('protection texts', () => {
  const statuses = FACTS.map((facts) => protectionStatus(facts, NOW, MAX_ASYNC_FILE_SIZE));
  // failing: Verdict's own clamd answered the self-test's EICAR as clean.
  statuses.push(withSelfTest(statuses[0]!, { at: NOW.toISOString(), result: 'failed', engine: selfTestEngine(statuses[0]!.engine), detail: null, durationMs: 1 }));

  test('every reason and every action is covered by these cases', () => {
    expect(new Set(statuses.map((s) => s.reason.code))).toEqual(new Set(PROTECTION_REASONS));
    expect(new Set(statuses.map((s) => s.action))).toEqual(new Set(PROTECTION_ACTIONS));
  });

  test.each(statuses.map((status) => [status.reason.code, status] as const))('%s: words with no hole in them', (_, status) => {
    const text = `${protectionReasonText(status)} ${protectionActionText(status)} ${engineLine(status)}`;
    expect(protectionReasonText(status).length).toBeGreaterThan(20);
    expect(text).not.toMatch(/undefined|null|NaN|\[object/);
    // German too, sentence for sentence.
    const german = `${protectionReasonText(status, 'de')} ${protectionActionText(status, 'de')}`;
    expect(german).not.toMatch(/undefined|null|NaN|\[object/);
    expect(protectionReasonText(status, 'de')).not.toBe(protectionReasonText(status));
  });

  test('the stream limit advice names the size and the file', () => {
    expect(streamLimitText(statuses[1]!)).toBe('This clamd refuses files over 25 MB: raise StreamMaxLength (and MaxFileSize, MaxScanSize) above 100M in /etc/clamav/clamd.conf, then restart clamd.');
    expect(streamLimitText(statuses[0]!)).toBeNull();
  });
});

test('engine identity, as the detail panel and the CLIs say it', () => {
  expect(engineIdentityText(identity('ClamAV 1.4.6/27467/Tue Nov 24 09:21:02 2026'))).toBe('ClamAV 1.4.6 · signatures 27467 of 24 Nov 2026');
  expect(engineIdentityText(identity('ClamAV 1.4.6'))).toBe('ClamAV 1.4.6 · custom signatures only');
  expect(engineIdentityText(BUILTIN_IDENTITY)).toBe('Basic checks only (EICAR test file): ClamAV was not available');
  expect(engineLine(protectionStatus(FACTS[0]!, NOW, MAX_ASYNC_FILE_SIZE))).toBe('Engine: ClamAV 1.4.6 · signatures 27467 of 24 Nov 2026 at unix:/d/clamd.sock (protected)');
});
