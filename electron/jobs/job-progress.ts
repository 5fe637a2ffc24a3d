// What a job's progress shows beyond its counts: files per second, and once the walk
// is complete an ETA, paced by the last completed job of the same kind (its files
// per second), or by this one's own pace when there was none.
import { displayName } from '../../shared/display-name.ts';
import type { JobProgress } from '../../shared/jobs/job.ts';
import { doneCount, type JobState } from './job-state.ts';

export type { JobProgress } from '../../shared/jobs/job.ts';

export function activeMs(job: JobState, now: number): number {
  return job.activeMs + (job.runningSince === null ? 0 : Math.max(0, now - job.runningSince));
}

export function filesPerSecond(job: JobState, now: number): number {
  const seconds = activeMs(job, now) / 1000;
  return seconds > 0 ? doneCount(job.counts) / seconds : 0;
}

export function progressOf(job: JobState, previous: JobState | null, now: number): JobProgress {
  const rate = filesPerSecond(job, now);
  const pace = previous ? filesPerSecond(previous, now) : 0;
  const remaining = Math.max(0, job.counts.found - doneCount(job.counts));
  const per = pace > 0 ? pace : rate;
  const etaSeconds = !job.walkComplete ? null : remaining === 0 ? 0 : per > 0 ? Math.ceil(remaining / per) : null;
  return { job: { ...job, counts: { ...job.counts } }, filesPerSecond: rate, etaSeconds };
}

/**
 * The summary line (CLI stderr, logs). `basicOnly`, `partial`: of the files scanned, those the built-in engine
 * judged clean and those scanned in part (the CLI counts them as it prints them): said with the count, never left inside "scanned".
 */
export function summaryLine(job: JobState, now: number, basicOnly = 0, partial = 0): string {
  const c = job.counts;
  const seconds = activeMs(job, now) / 1000;
  const how = job.status === 'cancelled' ? 'cancelled' : job.status === 'completed' ? 'done' : job.status;
  const notFull = [...(basicOnly > 0 ? [`${basicOnly} with basic checks only, not a full scan`] : []), ...(partial > 0 ? [`${partial} scanned in part`] : [])];
  const basic = notFull.length > 0 ? ` (${notFull.join('; ')})` : '';
  return (
    `${jobTitle(job)} ${how}: ${c.scanned} scanned${basic}, ${c.threats} ${c.threats === 1 ? 'threat' : 'threats'}, ` +
    `${c.couldNotScan} could not scan, ${c.skipped} skipped, in ${seconds.toFixed(1)} s (${filesPerSecond(job, now).toFixed(0)} files/s).`
  );
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A job's name in the CLI and the logs: "Quick scan", or a saved scan's job by the scan's name ("Saved scan “Photos”"). */
export const jobTitle = (job: Pick<JobState, 'kind' | 'savedScan'>): string => (job.savedScan ? `Saved scan “${displayName(job.savedScan.name)}”` : `${capitalized(job.kind)} scan`);
