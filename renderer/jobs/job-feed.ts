// Feeds the store with the scan jobs: the newest ones once, then every update the
// core sends (progress, throttled in the core; the end of a job; jobs retention removed).
import type { StoreApi } from 'zustand/vanilla';
import type { VerdictApi } from '../../shared/bridge/api.ts';
import { JOBS_SHOWN } from '../store/jobs-slice.ts';
import type { VerdictStore } from '../store/store.ts';

export function startJobFeed(scanJobs: VerdictApi['scanJobs'], store: StoreApi<VerdictStore>): () => void {
  let disposed = false;
  const unsubscribe = scanJobs.onEvent((update) => store.getState().applyJobUpdate(update));
  scanJobs.list({ limit: JOBS_SHOWN }).then(
    (result) => {
      if (!disposed && result.ok) store.getState().receiveJobs(result.value);
    },
    () => undefined,
  );
  return () => {
    disposed = true;
    unsubscribe();
  };
}
