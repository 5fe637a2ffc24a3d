// Queues paths with the core and says how many files that was.
import { api, call } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

export async function submitPaths(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const result = await call(api.scans.submit(paths));
  if (!result) return;
  const { notify } = verdictStore.getState();
  if (result.queued === 0) notify('info', 'drop.nothingQueued');
  else notify('info', result.queued === 1 ? 'drop.queued_one' : 'drop.queued_other', { count: result.queued });
}

export async function pickAndSubmit(kind: 'files' | 'folder'): Promise<void> {
  const paths = await call(api.files.pick(kind));
  if (paths) await submitPaths(paths);
}
