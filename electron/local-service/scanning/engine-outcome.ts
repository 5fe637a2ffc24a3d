// What an engine's answer becomes in a scan: the result of a verdict (findings
// named with the engine that made them) or the stored error of a failure. Shared
// by the service's scan runner and the app's local engine path, so a scan reads
// the same whichever way the file reached the engine.
import type { ScanResult } from '../../../shared/service-contract/scan.ts';
import { EngineError, type EngineVerdict } from '../../engine/engine.ts';
import type { StoredScanError } from '../store/scan-store.ts';
import { ENGINE_FAILED_UNEXPECTEDLY } from './scan-view.ts';

/** `engineName`: the engine's name when it answered (the live engine's changes with ClamAV's presence). */
export function resultOfVerdict(verdict: EngineVerdict, engineName: string): ScanResult {
  const findings = verdict.findings.map((finding) => ({ name: String(finding.name), engine: engineName, ...(finding.feed ? { feed: String(finding.feed) } : {}), ...(finding.ruleFile ? { ruleFile: String(finding.ruleFile) } : {}) }));
  return { safe: verdict.safe === true, detailed: String(verdict.detailed), findings };
}

/** Engine errors carry their reason to the caller; anything else is a bug and says nothing internal. */
export function storedErrorOf(error: unknown): StoredScanError {
  if (error instanceof EngineError) return { code: error.code, detail: error.message };
  return { code: ENGINE_FAILED_UNEXPECTEDLY, detail: null };
}
