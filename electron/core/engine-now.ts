// The pipeline's port to "which engine would scan now" (verdict reuse, issue 14):
// read from the core's protection state, so it follows whatever picks the engine.
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { LOCAL_LABEL } from '../backend/backend-state.ts';
import type { EngineNow } from '../scans/pipeline/options.ts';

/**
 * `view`: the protection state as last reported, read without a look (this runs for every file);
 * before the first report the engine is not known, and then only unsafe verdicts are reused.
 */
export function engineNowPort(view: () => ProtectionView): (serviceLabel: string) => Promise<EngineNow> {
  return async (serviceLabel) => {
    // A remote service's engine is its own: its verdicts are reused per service, as before.
    if (serviceLabel !== LOCAL_LABEL) return { ours: false };
    const status = view().status;
    return { ours: true, engine: status ? identityOf(status) : null };
  };
}

/** The identity a verdict made now would carry; ClamAV that is not answering yet has no version. */
export function identityOf(status: ProtectionStatus): EngineIdentity {
  const { name, version, signatures, signatureBasis, databases, detection } = status.engine;
  const known = { ...(signatureBasis ? { signatureBasis } : {}), ...(databases ? { databases } : {}), ...(detection ? { detection } : {}) };
  return { name, version, signatures: signatures ? { version: signatures.version, date: signatures.date } : null, ...known };
}
