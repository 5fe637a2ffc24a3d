// Signature updates over time (issue 29 §5): whenever the protection state reports other
// signatures in use on the local engine path (Verdict's own update, a system clamd's reload,
// another database folder or clamd), the history keeps one row with when it was noticed, the
// engine, the signature version, the database digest and the build date. The same moment the
// recheck after an update starts from; unlike its key, a change of detection settings is no update.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { SignaturesNoticed, SignatureUpdates } from '../history/signature-updates.ts';

/** The signatures ClamAV judges with now, or null when there are none to tell (a remote service, the built-in engine, clamd not answering). */
export function signaturesNoticed(view: ProtectionView, nowMs: number): SignaturesNoticed | null {
  const status = view.status;
  if (status === null || view.remote !== null) return null;
  const { engine } = status;
  if (engine.name !== 'clamav' || status.state === 'not_running' || engine.version === null) return null;
  const databases = engine.databases ?? null;
  const signatureVersion = engine.signatures?.version ?? null;
  const identity = databases !== null ? `databases:${databases}` : signatureVersion !== null ? `version:${signatureVersion}` : null;
  if (identity === null) return null;
  return { noticedMs: nowMs, engine: 'clamav', engineVersion: engine.version, identity, signatureVersion, databases, signatureDate: engine.signatures?.date ?? null };
}

export interface SignatureWatchInput {
  store: SignatureUpdates;
  current(): ProtectionView;
  onViewChange(listener: (view: ProtectionView) => void): () => void;
  now(): number;
  log: { warn(fields: object, message: string): void };
}

/** Records the signatures in use now and each change from then on; returns the unsubscribe. */
export function watchSignatureUpdates(input: SignatureWatchInput): () => void {
  // The identity last written or found: most reports repeat it, and need no look at the history.
  let known: string | null = null;
  const look = (view: ProtectionView) => {
    const noticed = signaturesNoticed(view, input.now());
    if (noticed === null || noticed.identity === known) return;
    try {
      input.store.notice(noticed);
      known = noticed.identity;
    } catch (error) {
      input.log.warn({ err: error }, 'a signature update could not be written to the history');
    }
  };
  const stop = input.onViewChange(look);
  look(input.current());
  return stop;
}
