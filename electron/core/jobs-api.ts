// The core's scan jobs API for the window and the tray (electron/jobs/ runs them):
// start, pause, resume, cancel and list, each answering with the job's progress, and
// the window's share of the job events (progress and removals; never each file).
import path from 'node:path';
import type { CoreApi } from '../../shared/bridge/api.ts';
import { jobIdSchema, jobStartSchema, type JobUpdate } from '../../shared/jobs/job.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import type { JobProgress, Jobs } from '../jobs/jobs.ts';
import { isFinal } from '../jobs/job-state.ts';
import type { Guard } from './core-context.ts';

const DEFAULT_LIST_LIMIT = 20;

export function jobsApi(guard: Guard, jobs: Jobs): CoreApi['scanJobs'] {
  const progressOf = (id: unknown): Result<JobProgress> => {
    const parsed = jobIdSchema.safeParse(id);
    const progress = parsed.success ? jobs.progress(parsed.data) : null;
    return progress ? ok(progress) : err('not_found', 'There is no scan job with this id.');
  };
  const control = (what: string, step: (jobs: Jobs, id: number) => unknown) => (id: number) =>
    guard(what, () => {
      const found = progressOf(id);
      if (!found.ok) return found;
      step(jobs, id);
      return progressOf(id);
    });

  return {
    start: (request) =>
      guard('Starting a scan job', async () => {
        const parsed = jobStartSchema.safeParse(request);
        if (!parsed.success) return err('invalid_request', 'A scan job is quick, full, or custom with the folders and files to scan.');
        const { kind, roots } = parsed.data;
        if (roots?.some((root) => !path.isAbsolute(root))) return err('invalid_request', 'A custom scan needs full paths to its folders and files.');
        // Two of the same kind at once would scan the same files twice; a custom scan names its own folders.
        const running = kind === 'custom' ? undefined : jobs.list(DEFAULT_LIST_LIMIT).find((job) => job.kind === kind && !isFinal(job.status));
        if (running) return err('job_running', `A ${kind} scan is already running; pause, resume or cancel it in its row.`, { id: running.id });
        const started = await jobs.start({ kind, ...(roots ? { roots } : {}), origin: 'dialog' });
        return progressOf(started.id);
      }),
    pause: control('Pausing a scan job', (all, id) => all.pause(id)),
    resume: control('Resuming a scan job', (all, id) => all.resume(id)),
    cancel: control('Cancelling a scan job', (all, id) => all.cancel(id)),
    list: (options) =>
      guard('Listing scan jobs', () => {
        const limit = Number.isInteger(options?.limit) && options!.limit! > 0 ? Math.min(options!.limit!, 100) : DEFAULT_LIST_LIMIT;
        return ok(jobs.list(limit).flatMap((job) => jobs.progress(job.id) ?? []));
      }),
    get: (id) => guard('Reading a scan job', () => progressOf(id)),
    onEvent: (listener: (update: JobUpdate) => void) =>
      jobs.onEvent((event) => {
        if (event.type === 'progress') listener({ type: 'progress', progress: event.progress });
        else if (event.type === 'removed') listener({ type: 'removed', ids: event.ids });
      }),
  };
}
