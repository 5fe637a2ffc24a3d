// Whether ClamAV scans files sent to Verdict's own service now: the condition for
// "Scan again with ClamAV" (core and renderer ask the same question).
import type { ProtectionView } from './protection-view.ts';

/** ClamAV answers (protected or outdated): not when it is missing, loading or stopped, nor with a remote service. */
export function clamavScansNow(view: ProtectionView | null): boolean {
  const status = view?.status ?? null;
  return status !== null && status.engine.name === 'clamav' && status.state !== 'not_running';
}
