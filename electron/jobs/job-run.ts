// A job while it runs in this process: its state (job-state.ts) and what only a
// running job needs: the ids of its rows not yet finished (the backpressure: the walk
// waits while too many are), the paths it recorded before a restart, and who waits.
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { JobState } from './job-state.ts';

export interface JobRun {
  state: JobState;
  /** Its rows written and not yet finished. */
  pending: Set<string>;
  /** After a restart: paths already recorded for this job (the walk skips them); null once walked. */
  recorded: Set<string> | null;
  cancelled: boolean;
  /** The core is closing: the walk stops where it is and the job stays unfinished (it resumes at the next start). */
  stopping: boolean;
  /** Wakes the walk (waiting for the queue to drain or for resume) or the end (waiting for the last rows). */
  wake: (() => void) | null;
  /** A non-terminal row the caller stops waiting for (the CLI: no key, service down): counted as could not scan. */
  settled?: (record: ScanRecord) => boolean;
  /** Resolves with the final state (completed or cancelled), or null when the core closed mid-job. */
  finished: Promise<JobState | null>;
}

/** Waits until `until()` holds; each wake() checks again. */
export async function waitFor(run: JobRun, until: () => boolean): Promise<void> {
  while (!until()) await new Promise<void>((resolve) => (run.wake = resolve));
}

export function wake(run: JobRun): void {
  const resolve = run.wake;
  run.wake = null;
  resolve?.();
}
