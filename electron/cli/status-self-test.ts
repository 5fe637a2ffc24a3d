// `status` tests detection as it looks: the engine it found scans the EICAR test file
// (the way the app's self-test does), so `failing` and the last self-test are this run's.
// It goes through the session client as the app's files do, so the run also finds how
// files reach clamd (by descriptor, or streamed when clamd takes none).
import type { ClamdTransfer, ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { SelfTestResult } from '../../shared/engine/self-test.ts';
import { BuiltinEngine } from '../engine/builtin-engine.ts';
import { ClamdEngine } from '../engine/clamd-engine.ts';
import type { ScanEngine } from '../engine/engine.ts';
import { endpointOfLabel } from '../engine/live/live-state.ts';
import { runSelfTest } from '../engine/self-test/run-self-test.ts';

export interface StatusSelfTest {
  /** null when there is no engine to test (ClamAV not running, or an address that is not clamd's). */
  result: SelfTestResult | null;
  /** How files reach the clamd tested; null for basic checks or no engine. */
  transport: ClamdTransfer | null;
}

export async function statusSelfTest(status: ProtectionStatus, timeoutMs = 10_000): Promise<StatusSelfTest> {
  if (status.state === 'not_running') return { result: null, transport: null };
  let engine: ScanEngine;
  try {
    engine = status.engine.name === 'builtin' ? new BuiltinEngine() : new ClamdEngine({ endpoint: endpointOfLabel(status.engine.where), sessions: 1, sessionClient: true });
  } catch {
    return { result: null, transport: null };
  }
  try {
    const result = await runSelfTest({ engine, status, timeoutMs });
    return { result, transport: engine instanceof ClamdEngine ? engine.transfer : null };
  } finally {
    await engine.close?.();
  }
}
