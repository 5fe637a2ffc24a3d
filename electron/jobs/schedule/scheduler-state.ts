// The scheduler's state, its one named type, and what its steps are given: the
// clock, the power supply, the jobs it starts and waits for, the record store, and
// the settings. Each step (arm, serve a kind, wake up) is a function in its own file.
import type { ScanSchedules, ScheduledKind } from '../../../shared/settings/schedules.ts';
import type { JobKind, JobState } from '../job-state.ts';
import type { SchedulerClock, TimerHandle } from './clock.ts';
import type { PowerPort } from './power.ts';
import type { RecordStore, ScheduleRecords } from './schedule-records.ts';

/** idle; waiting for a job of the kind that was already running; running its own job. */
export type KindActivity = 'idle' | 'waiting' | 'running';

export interface SchedulerState {
  schedules: ScanSchedules;
  /** Persisted (schedule-records.ts): what is served, per kind. */
  records: ScheduleRecords;
  activity: Record<ScheduledKind, KindActivity>;
  /** The kind's serving loop while one runs: at most one per kind, so a due time never starts two jobs. */
  serving: Record<ScheduledKind, Promise<void> | null>;
  timer: TimerHandle | null;
  closed: boolean;
}

/** The scan jobs as the scheduler sees them (electron/jobs/jobs.ts behind it). */
export interface SchedulerJobs {
  start(kind: ScheduledKind): Promise<JobState>;
  /** The final state, or null when the core closed first, or the job's last saved state when nothing runs it. */
  finished(id: number): Promise<JobState | null>;
  /** Jobs of the kind that are running or paused, whoever started them. */
  active(kind: JobKind): JobState[];
}

export interface SchedulerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface SchedulerDeps {
  clock: SchedulerClock;
  power: PowerPort;
  jobs: SchedulerJobs;
  store: RecordStore;
  log: SchedulerLog;
  /** Tells listeners the state changed (next run, activity, last outcome). */
  changed(): void;
  /**
   * The remote service (its origin) a scheduled scan's files would wait at for the user's consent
   * to upload, with no one there to give it; null when they would be sent (or stay on this computer).
   */
  uploadWaitsForConsent?(): string | null;
}

export const idleActivity = (): Record<ScheduledKind, KindActivity> => ({ quick: 'idle', full: 'idle' });
