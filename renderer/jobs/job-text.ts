// How a scan job reads: its kind and state as words, its ETA and duration, and the
// summary line at its end (the same counts the notification gives).
import type { JobKind, JobState, JobStatus } from '../../shared/jobs/job.ts';
import { displayName } from '../../shared/display-name.ts';
import { formatCount, formatDuration } from '../i18n/format.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';

export const KIND_KEYS: Record<JobKind, MessageKey> = { quick: 'jobs.kind.quick', full: 'jobs.kind.full', custom: 'jobs.kind.custom', recheck: 'jobs.kind.recheck', drive: 'jobs.kind.drive' };
export const STATUS_KEYS: Record<JobStatus, MessageKey> = {
  running: 'jobs.status.running',
  paused: 'jobs.status.paused',
  interrupted: 'jobs.status.interrupted',
  completed: 'jobs.status.completed',
  cancelled: 'jobs.status.cancelled',
};

/** A job's name: its kind, a drive job's drive by its label, or a saved scan's job by the scan's name. */
export function jobName(t: Translator['t'], job: Pick<JobState, 'kind' | 'drive' | 'savedScan'>): string {
  if (job.savedScan) return t('jobs.kind.saved', { name: displayName(job.savedScan.name) });
  return t(KIND_KEYS[job.kind], job.kind === 'drive' ? { label: displayName(job.drive?.label ?? '?') } : {});
}

/** A job's state in words; a drive job cancelled because its drive went says so. */
export const statusKey = (job: Pick<JobState, 'status' | 'stopReason'>): MessageKey =>
  job.status === 'cancelled' && job.stopReason === 'drive_removed' ? 'jobs.status.driveRemoved' : STATUS_KEYS[job.status];

/** The line shown (and kept until dismissed) when a job ends while the window is open. */
export function summaryText({ t, locale }: Pick<Translator, 't' | 'locale'>, job: JobState): string {
  const c = job.counts;
  return t(job.status === 'cancelled' ? 'jobs.summary.cancelled' : 'jobs.summary.completed', {
    kind: jobName(t, job),
    scanned: formatCount(locale, c.scanned),
    threats: formatCount(locale, c.threats),
    couldNotScan: formatCount(locale, c.couldNotScan),
    skipped: formatCount(locale, c.skipped),
    duration: formatDuration(locale, job.activeMs),
  });
}
