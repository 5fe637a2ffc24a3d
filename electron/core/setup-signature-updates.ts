// The core's record of signature updates (electron/signature-updates/): from the protection
// state's reports into the history, for the overview's updates over time and the signatures' age.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { History } from '../history/history.ts';
import { watchSignatureUpdates } from '../signature-updates/signature-updates.ts';
import type { CoreContext } from './core-context.ts';

export function setupSignatureUpdates(ctx: CoreContext, history: History, engine: { current(): ProtectionView; onViewChange(listener: (view: ProtectionView) => void): () => void }): void {
  const stop = watchSignatureUpdates({ store: history.signatureUpdates, current: engine.current, onViewChange: engine.onViewChange, now: Date.now, log: ctx.log });
  ctx.onClose(stop);
}
