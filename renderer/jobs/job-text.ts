// How a scan job reads: its kind and state as words, its ETA and duration, and the
// summary line at its end (the same counts the notification gives).
import type { JobKind, JobState, JobStatus } from '../../shared/jobs/job.ts';
import { formatCount, formatDuration } from '../i18n/format.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';

export const KIND_KEYS: Record<JobKind, MessageKey> = { quick: 'jobs.kind.quick', full: 'jobs.kind.full', custom: 'jobs.kind.custom', recheck: 'jobs.kind.recheck' };
export const STATUS_KEYS: Record<JobStatus, MessageKey> = {
  running: 'jobs.status.running',
  paused: 'jobs.status.paused',
  interrupted: 'jobs.status.interrupted',
  completed: 'jobs.status.completed',
  cancelled: 'jobs.status.cancelled',
};

/** The line shown (and kept until dismissed) when a job ends while the window is open. */
export function summaryText({ t, locale }: Pick<Translator, 't' | 'locale'>, job: JobState): string {
  const c = job.counts;
  return t(job.status === 'cancelled' ? 'jobs.summary.cancelled' : 'jobs.summary.completed', {
    kind: t(KIND_KEYS[job.kind]),
    scanned: formatCount(locale, c.scanned),
    threats: formatCount(locale, c.threats),
    couldNotScan: formatCount(locale, c.couldNotScan),
    skipped: formatCount(locale, c.skipped),
    duration: formatDuration(locale, job.activeMs),
  });
}
