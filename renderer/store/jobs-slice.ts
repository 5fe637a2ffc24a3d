// The scan jobs the window shows (quick, full and custom scans, one row each), newest
// first, kept in step with the core's job updates; and the summary of the last job that
// ended while the window was open (shown until dismissed).
import type { StateCreator } from 'zustand/vanilla';
import { isFinalStatus, type JobProgress, type JobState, type JobUpdate } from '../../shared/jobs/job.ts';
import type { VerdictStore } from './store.ts';

/** How many jobs the window keeps (the newest; older ones stay in history). */
export const JOBS_SHOWN = 10;

export interface JobsSlice {
  jobs: readonly JobProgress[];
  /** The last job that ended while the window listened: its summary line. */
  jobSummary: JobState | null;
  receiveJobs(jobs: readonly JobProgress[]): void;
  applyJobUpdate(update: JobUpdate): void;
  dismissJobSummary(): void;
}

export const createJobsSlice: StateCreator<VerdictStore, [], [], JobsSlice> = (set, get) => ({
  jobs: [],
  jobSummary: null,

  receiveJobs(jobs) {
    // Updates that came before the list are newer than it: keep them.
    const known = new Map(get().jobs.map((progress) => [progress.job.id, progress]));
    const merged = jobs.map((progress) => known.get(progress.job.id) ?? progress);
    const extra = get().jobs.filter((progress) => !merged.some((other) => other.job.id === progress.job.id));
    set({ jobs: sortedJobs([...extra, ...merged]) });
  },
  applyJobUpdate(update) {
    const { jobs, jobSummary } = get();
    if (update.type === 'removed') {
      const gone = new Set(update.ids);
      set({ jobs: jobs.filter((progress) => !gone.has(progress.job.id)), jobSummary: jobSummary && gone.has(jobSummary.id) ? null : jobSummary });
      return;
    }
    const { job } = update.progress;
    const before = jobs.find((progress) => progress.job.id === job.id);
    const next = sortedJobs([update.progress, ...jobs.filter((progress) => progress.job.id !== job.id)]);
    const ended = isFinalStatus(job.status) && (before === undefined || !isFinalStatus(before.job.status));
    set({ jobs: next, ...(ended ? { jobSummary: job } : {}) });
  },
  dismissJobSummary() {
    set({ jobSummary: null });
  },
});

const sortedJobs = (jobs: readonly JobProgress[]): JobProgress[] => [...jobs].sort((a, b) => b.job.id - a.job.id).slice(0, JOBS_SHOWN);
