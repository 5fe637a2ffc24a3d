// What a self-test means for the protection state: `failing` only when it found the
// engine in use, with the same signatures, blind to EICAR; never for a test that could
// not run, one of another engine or signatures, or an engine that is not running.
import { describe, expect, it } from 'vitest';
import { protectionStatus, type ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { sameTestedEngine, selfTestEngine, withSelfTest, type SelfTestResult } from '../../../shared/engine/self-test.ts';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const clamav = (source: 'own' | 'system', signatureVersion = 27467): ProtectionStatus =>
  protectionStatus({ kind: 'clamav', source, where: 'unix:/run/clamd.sock', identity: { name: 'clamav', version: '1.4.6', signatures: { version: signatureVersion, date: '2026-11-27T08:00:00.000Z' } } }, NOW, 100 * 1024 * 1024);
const test = (of: ProtectionStatus, result: SelfTestResult['result']): SelfTestResult => ({ at: NOW.toISOString(), result, engine: selfTestEngine(of.engine), detail: null, durationMs: 1 });

describe('withSelfTest', () => {
  it('no test yet: the state as it is', () => {
    expect(withSelfTest(clamav('own'), null)).toEqual(clamav('own'));
  });

  it('passed: the state as it is, with the test', () => {
    expect(withSelfTest(clamav('own'), test(clamav('own'), 'passed'))).toEqual({ ...clamav('own'), selfTest: test(clamav('own'), 'passed') });
  });

  it('failed on this engine: failing, with the update (own) or the system updater (system) to do', () => {
    expect(withSelfTest(clamav('own'), test(clamav('own'), 'failed'))).toMatchObject({ state: 'failing', reason: { code: 'self_test_failed', params: { at: NOW.toISOString() } }, action: 'update_signatures' });
    expect(withSelfTest(clamav('system'), test(clamav('system'), 'failed'))).toMatchObject({ state: 'failing', action: 'check_system_updater' });
  });

  it('a test that could not run, or of other signatures, another engine, or an engine not running, is shown but decides nothing', () => {
    expect(withSelfTest(clamav('own'), test(clamav('own'), 'error')).state).toBe('protected');
    expect(withSelfTest(clamav('own', 27468), test(clamav('own'), 'failed')).state).toBe('protected');
    expect(withSelfTest(clamav('system'), test(clamav('own'), 'failed')).state).toBe('protected');
    const down = protectionStatus({ kind: 'not_running', source: 'own', where: 'unix:/run/clamd.sock', why: 'clamd_not_answering' }, NOW, 1);
    expect(withSelfTest(down, test(clamav('own'), 'failed')).state).toBe('not_running');
  });

  it('the signatures\' age, which grows by the day, is not part of what was tested', () => {
    const later = { ...clamav('own'), engine: { ...clamav('own').engine, signatures: { ...clamav('own').engine.signatures!, ageDays: 3 } } };
    expect(sameTestedEngine(selfTestEngine(clamav('own').engine), later.engine)).toBe(true);
  });
});
