// The four protection states, their reasons and the action offered for each.
import { describe, expect, test } from 'vitest';
import { parseClamdVersion } from '../../../shared/engine/engine-identity.ts';
import { protectionStatus, type EngineFacts, type StreamLimit } from '../../../shared/engine/protection-state.ts';
import { MAX_ASYNC_FILE_SIZE, MB } from '../../../shared/service-contract/limits.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const clamav = (line: string, source: 'configured' | 'system' | 'own' = 'own', streamLimit: StreamLimit | null = null): EngineFacts => {
  const identity = parseClamdVersion(line);
  if (!identity) throw new Error(line);
  return { kind: 'clamav', source, where: 'unix:/x/clamd.sock', identity, streamLimit };
};
const status = (facts: EngineFacts) => protectionStatus(facts, NOW, MAX_ASYNC_FILE_SIZE);

describe('ClamAV answering', () => {
  test('signatures up to 3 days old: protected', () => {
    const result = status(clamav('ClamAV 1.4.6/27467/Sun Nov 22 12:00:00 2026'));
    expect(result).toMatchObject({ state: 'protected', reason: { code: 'signatures_fresh', params: { signatureVersion: 27467, ageDays: 3 } }, action: 'none' });
    expect(result.engine).toEqual({ name: 'clamav', source: 'own', where: 'unix:/x/clamd.sock', version: '1.4.6', signatures: { version: 27467, date: '2026-11-22T12:00:00.000Z', ageDays: 3 } });
  });

  test('older signatures: outdated; Verdict updates its own, a system clamd is the system\'s to update', () => {
    expect(status(clamav('ClamAV 1.4.6/27460/Sat Nov 21 11:59:59 2026'))).toMatchObject({
      state: 'outdated',
      reason: { code: 'signatures_old', params: { ageDays: 4, maxAgeDays: 3 } },
      action: 'update_signatures',
    });
    expect(status(clamav('ClamAV 1.4.6/27460/Sat Nov 21 11:59:59 2026', 'system')).action).toBe('check_system_updater');
    // One second past 3 days is outdated, though it shows as 3 days.
    expect(status(clamav('ClamAV 1.4.6/27461/Sun Nov 22 11:59:59 2026'))).toMatchObject({ state: 'outdated', reason: { params: { ageDays: 3 } } });
  });

  test('no dated signatures (custom databases only): outdated', () => {
    expect(status(clamav('ClamAV 1.4.6'))).toMatchObject({ state: 'outdated', reason: { code: 'signatures_undated' }, engine: { signatures: null } });
  });

  test('a stream limit below 100 MB is reported; one above is not', () => {
    const low = { bytes: 25 * MB, configPath: '/etc/clamav/clamd.conf' };
    expect(status(clamav('ClamAV 1.4.6', 'system', low)).streamLimit).toEqual(low);
    expect(status(clamav('ClamAV 1.4.6', 'system', { bytes: 200 * MB, configPath: '/etc/clamav/clamd.conf' })).streamLimit).toBeNull();
  });
});

describe('no ClamAV answering', () => {
  test('built-in engine: limited, with why and what to do', () => {
    expect(status({ kind: 'builtin', why: 'clamav_not_found' })).toMatchObject({ state: 'limited', action: 'install_clamav', engine: { name: 'builtin', source: 'builtin', version: null, signatures: null } });
    expect(status({ kind: 'builtin', why: 'database_not_found', params: { tried: '/var/lib/clamav' } })).toMatchObject({ state: 'limited', action: 'get_database', reason: { params: { tried: '/var/lib/clamav' } } });
    expect(status({ kind: 'builtin', why: 'builtin_requested' }).action).toBe('use_clamav');
  });

  test('ClamAV expected: not_running, while it loads and when it failed', () => {
    expect(status({ kind: 'starting', where: 'unix:/d/clamd.sock' })).toMatchObject({ state: 'not_running', reason: { code: 'clamd_starting' }, action: 'wait' });
    expect(status({ kind: 'not_running', source: 'own', where: 'unix:/d/clamd.sock', why: 'clamd_failed', params: { problem: 'clamd_failed', detail: 'ERROR: Malformed database' } })).toMatchObject({
      state: 'not_running',
      reason: { code: 'clamd_failed', params: { where: 'unix:/d/clamd.sock', detail: 'ERROR: Malformed database' } },
      action: 'start_clamav',
    });
  });
});
