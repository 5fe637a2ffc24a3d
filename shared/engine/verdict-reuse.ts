// Whether an earlier verdict for identical content may stand in for a new scan
// (`reuseVerdictDays`), given which engine made it and which would scan now.
// Pure: the pipeline asks it; the UI can explain its answer.
import type { EngineIdentity } from './engine-identity.ts';

export const REUSE_DECISIONS = [
  'unsafe_verdict', // reused: an unsafe verdict stays unsafe whatever scans now
  'same_signatures', // reused: ClamAV, the same signature version
  'same_engine', // reused: the built-in engine again (ClamAV still not available)
  'engine_unknown', // not reused: the verdict does not say which engine made it
  'other_engine', // not reused: made by the built-in engine, ClamAV scans now (or the reverse)
  'signatures_changed', // not reused: ClamAV with another signature version
  'signatures_unknown', // not reused: no signature version then or now (custom databases), so no way to tell
] as const;
export type ReuseDecision = (typeof REUSE_DECISIONS)[number];

export interface ReuseAnswer {
  reuse: boolean;
  why: ReuseDecision;
}

export function mayReuseVerdict(earlier: { safe: boolean; engine: EngineIdentity | null }, now: EngineIdentity): ReuseAnswer {
  if (!earlier.safe) return { reuse: true, why: 'unsafe_verdict' };
  if (earlier.engine === null) return { reuse: false, why: 'engine_unknown' };
  if (earlier.engine.name !== now.name) return { reuse: false, why: 'other_engine' };
  if (now.name === 'builtin') return { reuse: true, why: 'same_engine' };
  const then = earlier.engine.signatures?.version;
  const current = now.signatures?.version;
  if (then === undefined || current === undefined) return { reuse: false, why: 'signatures_unknown' };
  return then === current ? { reuse: true, why: 'same_signatures' } : { reuse: false, why: 'signatures_changed' };
}
