// One self-test: the EICAR test file, built in memory, scanned by the engine the
// service scans with, as small files are passed to it (their bytes), with a time limit.
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { selfTestEngine, type SelfTestResult } from '../../../shared/engine/self-test.ts';
import { EICAR_TEST_STRING } from '../builtin-engine.ts';
import type { ScanEngine } from '../engine.ts';

const DEFAULT_TIMEOUT_MS = 30_000;

export async function runSelfTest(input: { engine: ScanEngine; status: ProtectionStatus; timeoutMs?: number; signal?: AbortSignal }): Promise<SelfTestResult> {
  const started = performance.now();
  const engine = selfTestEngine(input.status.engine);
  const timeout = AbortSignal.timeout(input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  const end = (result: SelfTestResult['result'], detail: string | null): SelfTestResult => ({
    at: new Date().toISOString(),
    result,
    engine,
    detail,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  try {
    if (!input.engine.scanBytes) return end('error', `the ${input.engine.name} engine cannot scan bytes`);
    const verdict = await input.engine.scanBytes(Buffer.from(EICAR_TEST_STRING, 'latin1'), signal);
    if (verdict.safe) return end('failed', null);
    return end('passed', verdict.findings.map((finding) => finding.name).join(', ') || verdict.detailed);
  } catch (error) {
    return end('error', (error as Error).message);
  }
}
