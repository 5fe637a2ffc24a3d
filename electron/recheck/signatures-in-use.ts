// Which signatures the local engine path judges with now, as the one key verdicts are compared
// by (signatureKey(), the same the unchanged-file skip stores): the digest of the database files
// clamd loaded where Verdict can read them, else the signature version. null when there is
// nothing to judge again with (a remote service, the built-in engine, ClamAV not answering or
// failing its self-test, or custom databases Verdict cannot tell apart).
import { signatureKey } from '../../shared/engine/verdict-reuse.ts';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { identityOf } from '../core/engine-now.ts';

export function signaturesInUse(view: ProtectionView): string | null {
  const status = view.status;
  if (status === null || view.remote !== null) return null;
  if (status.engine.name !== 'clamav' || status.state === 'not_running' || status.state === 'failing') return null;
  return signatureKey(identityOf(status));
}
