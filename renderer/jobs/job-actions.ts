// What the job controls do: start a quick, full or custom scan (the custom one's
// folders from the folder dialog), and pause, resume or cancel one. Each answer is
// an update of the job's row, so the row follows at once, before the next event.
import type { JobKind } from '../../shared/jobs/job.ts';
import { api, call } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

export async function startJob(kind: JobKind): Promise<void> {
  const store = verdictStore.getState();
  let roots: string[] | undefined;
  if (kind === 'custom') {
    roots = await call(api.files.pick('folder'));
    if (!roots || roots.length === 0) return;
  }
  const result = await api.scanJobs.start(roots ? { kind, roots } : { kind });
  if (!result.ok) {
    if (result.error.code === 'job_running' && kind !== 'custom') store.notify('info', `jobs.running.${kind}`);
    else store.notify('error', 'error.generic', { message: result.error.message });
    return;
  }
  verdictStore.getState().applyJobUpdate({ type: 'progress', progress: result.value });
  verdictStore.getState().notify('info', `jobs.started.${kind}`);
}

export async function controlJob(id: number, action: 'pause' | 'resume' | 'cancel'): Promise<void> {
  const progress = await call(api.scanJobs[action](id));
  if (progress) verdictStore.getState().applyJobUpdate({ type: 'progress', progress });
}
