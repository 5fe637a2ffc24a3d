// Whether an earlier verdict for identical content may stand in for a new scan
// (`reuseVerdictDays`), given which engine made it and which would scan now.
// Pure: the pipeline asks it; the UI can explain its answer.
import type { EngineIdentity } from './engine-identity.ts';

export const REUSE_DECISIONS = [
  'unsafe_verdict', // reused: an unsafe verdict stays unsafe whatever scans now
  'same_signatures', // reused: ClamAV, the same signature version
  'same_databases', // reused: ClamAV, the same VERSION and the same database files
  'same_engine', // reused: the built-in engine again (ClamAV still not available)
  'engine_unknown', // not reused: the verdict does not say which engine made it
  'other_engine', // not reused: made by the built-in engine, ClamAV scans now (or the reverse)
  'signatures_changed', // not reused: ClamAV with another signature version, or other database files
  'signatures_unknown', // not reused: no signature version then or now (custom databases), so no way to tell
  'settings_changed', // not reused: ClamAV under other detection settings (PUA, scan limits, archives, heuristics)
  'self_test_failed', // not reused: a clean verdict given while the engine's self-test failed (it missed EICAR)
] as const;
export type ReuseDecision = (typeof REUSE_DECISIONS)[number];

export interface ReuseAnswer {
  reuse: boolean;
  why: ReuseDecision;
}

export function mayReuseVerdict(earlier: { safe: boolean; engine: EngineIdentity | null }, now: EngineIdentity): ReuseAnswer {
  // Before the unsafe rule: a PUA finding must not outlive switching PUA off, nor a limit's alert a raised limit.
  if (earlier.engine?.name === 'clamav' && now.name === 'clamav' && earlier.engine.detection !== now.detection) return { reuse: false, why: 'settings_changed' };
  if (!earlier.safe) return { reuse: true, why: 'unsafe_verdict' };
  if (earlier.engine === null) return { reuse: false, why: 'engine_unknown' };
  if (earlier.engine.selfTest === 'failed') return { reuse: false, why: 'self_test_failed' };
  if (earlier.engine.name !== now.name) return { reuse: false, why: 'other_engine' };
  if (now.name === 'builtin') return { reuse: true, why: 'same_engine' };
  // Known by its database files now: only a verdict made with the same files stands (a custom
  // database or a third-party feed changes without changing the daily version).
  if (now.databases !== undefined) {
    if (earlier.engine.databases === undefined) return { reuse: false, why: 'signatures_unknown' };
    return earlier.engine.databases === now.databases ? { reuse: true, why: 'same_databases' } : { reuse: false, why: 'signatures_changed' };
  }
  const then = earlier.engine.signatures?.version;
  const current = now.signatures?.version;
  if (then === undefined || current === undefined) return { reuse: false, why: 'signatures_unknown' };
  return then === current ? { reuse: true, why: 'same_signatures' } : { reuse: false, why: 'signatures_changed' };
}

/**
 * The engine and signatures a clean verdict holds for, as one key (the unchanged-file skip
 * stores it with each file's identity and looks it up with the key of the engine now); null
 * when no key tells one signature set from another (ClamAV with custom databases whose
 * folder Verdict cannot read): then nothing is skipped.
 */
export function signatureKey(engine: EngineIdentity | null | undefined): string | null {
  // A clean verdict given while the self-test failed is not one to skip a file on later.
  if (!engine || engine.selfTest === 'failed') return null;
  if (engine.name === 'builtin') return 'builtin';
  // The detection settings are part of the key (absent for the defaults: keys stored before them still match).
  const settings = engine.detection === undefined ? '' : `:detection:${engine.detection}`;
  if (engine.databases !== undefined) return `clamav:databases:${engine.databases}${settings}`;
  if (engine.version === null || !engine.signatures) return null;
  return `clamav:${engine.version}:${engine.signatures.version}${settings}`;
}
