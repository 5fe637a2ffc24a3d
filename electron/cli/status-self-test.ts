// `status` tests detection as it looks: the engine it found scans the EICAR test file
// (the way the app's self-test does), so `failing` and the last self-test are this run's.
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { SelfTestResult } from '../../shared/engine/self-test.ts';
import { BuiltinEngine } from '../local-service/engines/builtin-engine.ts';
import { ClamdEngine } from '../local-service/engines/clamd-engine.ts';
import type { ScanEngine } from '../local-service/engines/engine.ts';
import { endpointOfLabel } from '../local-service/engines/live/live-state.ts';
import { runSelfTest } from '../local-service/engines/self-test/run-self-test.ts';

/** null when there is no engine to test (ClamAV not running, or an address that is not clamd's). */
export async function statusSelfTest(status: ProtectionStatus, timeoutMs = 10_000): Promise<SelfTestResult | null> {
  if (status.state === 'not_running') return null;
  let engine: ScanEngine;
  try {
    engine = status.engine.name === 'builtin' ? new BuiltinEngine() : new ClamdEngine({ endpoint: endpointOfLabel(status.engine.where) });
  } catch {
    return null;
  }
  try {
    return await runSelfTest({ engine, status, timeoutMs });
  } finally {
    await engine.close?.();
  }
}
