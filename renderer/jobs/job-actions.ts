// What the job controls do: start a quick, full or custom scan (the custom one's
// folders from the folder dialog), and pause, resume or cancel one. The row follows
// the job's events (each change of state is one); an answer can be older than an
// event that overtook it, so it only adds a row the events have not brought yet.
import { notifyFailure } from '../bridge/error-notice.ts';
import type { JobStart } from '../../shared/jobs/job.ts';
import { api, call } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

/** The kinds a user starts (a recheck or a drive's scan is started by Verdict). */
export async function startJob(kind: JobStart['kind']): Promise<void> {
  const store = verdictStore.getState();
  let roots: string[] | undefined;
  if (kind === 'custom') {
    roots = await call(api.files.pick('folder'));
    if (!roots || roots.length === 0) return;
  }
  const result = await api.scanJobs.start(roots ? { kind, roots } : { kind });
  if (!result.ok) {
    if (result.error.code === 'job_running' && kind !== 'custom') store.notify('info', `jobs.running.${kind}`);
    else notifyFailure(store, result.error);
    return;
  }
  if (!verdictStore.getState().jobs.some((known) => known.job.id === result.value.job.id)) {
    verdictStore.getState().applyJobUpdate({ type: 'progress', progress: result.value });
  }
  verdictStore.getState().notify('info', `jobs.started.${kind}`);
}

export async function controlJob(id: number, action: 'pause' | 'resume' | 'cancel'): Promise<void> {
  await call(api.scanJobs[action](id));
}
