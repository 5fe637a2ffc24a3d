// The self-test: the engine in use scans the EICAR test file (at start, daily and
// after each signature change). An engine that answers but calls it clean cannot
// be trusted to detect anything, so protection is `failing`, whatever else is true.
// Pure: the service runs the test, this says what its result means for the state.
import type { ProtectionAction, ProtectionStatus } from './protection-state.ts';

export const SELF_TEST_RESULTS = [
  'passed', // the engine reported EICAR: {detail: the signature's name}
  'failed', // the engine answered "clean"
  'error', // the engine could not scan it (not answering, timed out): {detail}; the state is not_running's business
] as const;
export type SelfTestOutcome = (typeof SELF_TEST_RESULTS)[number];

/** The engine a self-test ran on, as the protection state named it (signatures without their age, which grows). */
export type SelfTestEngine = Omit<ProtectionStatus['engine'], 'signatures' | 'transport'> & { signatures: { version: number; date: string } | null };

export interface SelfTestResult {
  /** ISO time the test ended. */
  at: string;
  result: SelfTestOutcome;
  engine: SelfTestEngine;
  /** The signature's name when it passed, the error's words when it could not run, else null. */
  detail: string | null;
  durationMs: number;
}

/** Daily, besides at start and after each signature change. */
export const SELF_TEST_INTERVAL_MS = 24 * 3_600_000;

/**
 * Without how files reach clamd (`transport`): it is known only once clamd has been asked, often by the
 * test itself, and a descriptor or a stream reaches the same detection; with it, a failed test would
 * not match the very engine it ran on.
 */
export function selfTestEngine(engine: ProtectionStatus['engine']): SelfTestEngine {
  const { signatures, transport: _transport, ...rest } = engine;
  return { ...rest, signatures: signatures ? { version: signatures.version, date: signatures.date } : null };
}

/** True when `engine` is the one the test ran on, with the same signatures (another folder, version or database content is not). */
export function sameTestedEngine(tested: SelfTestEngine, engine: ProtectionStatus['engine']): boolean {
  return stableJson(tested) === stableJson(selfTestEngine(engine));
}

/**
 * The state with the last self-test in it: `failing` when the test found the engine in use,
 * with these signatures, blind to EICAR. Scans go on; what to do is the update (Verdict's own
 * signatures) or the system's updater.
 */
export function withSelfTest(status: ProtectionStatus, test: SelfTestResult | null): ProtectionStatus {
  if (test === null) return status;
  const tested = { ...status, selfTest: test };
  if (test.result !== 'failed' || status.state === 'not_running' || !sameTestedEngine(test.engine, status.engine)) return tested;
  const action: ProtectionAction = status.engine.source === 'own' ? 'update_signatures' : status.engine.source === 'builtin' ? 'use_clamav' : 'check_system_updater';
  return { ...tested, state: 'failing', reason: { code: 'self_test_failed', params: { at: test.at } }, action };
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}
