// The window's scan jobs in the store: newest first, updates replacing a job's row,
// the summary of a job that ends while the window listens (once), removals.
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobProgress, JobState } from '../../shared/jobs/job.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { summaryText } from '../../renderer/jobs/job-text.ts';
import { createVerdictStore } from '../../renderer/store/store.ts';

const job = (over: Partial<JobState> = {}): JobState => ({
  id: 1,
  kind: 'quick',
  roots: ['/home/u/Downloads'],
  excluded: [],
  origin: 'dialog',
  status: 'running',
  walkComplete: false,
  counts: { found: 10, bytes: 1000, scanned: 4, threats: 0, couldNotScan: 0, skipped: 0 },
  startedAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  activeMs: 1000,
  currentFolder: '/home/u/Downloads',
  runningSince: null,
  ...over,
});
const progress = (over: Partial<JobState> = {}): JobProgress => ({ job: job(over), filesPerSecond: 4, etaSeconds: null });

let store = createVerdictStore();
beforeEach(() => {
  store = createVerdictStore();
});

describe('jobs in the store', () => {
  it('keeps the newest first, replaces a job’s row on each update, and keeps updates newer than the first list', () => {
    store.getState().applyJobUpdate({ type: 'progress', progress: progress({ id: 3, counts: { ...job().counts, scanned: 9 } }) });
    store.getState().receiveJobs([progress({ id: 3 }), progress({ id: 2, status: 'completed' }), progress({ id: 1, status: 'cancelled' })]);
    expect(store.getState().jobs.map((p) => p.job.id)).toEqual([3, 2, 1]);
    expect(store.getState().jobs[0]!.job.counts.scanned).toBe(9);
    store.getState().applyJobUpdate({ type: 'progress', progress: progress({ id: 4 }) });
    store.getState().applyJobUpdate({ type: 'progress', progress: progress({ id: 3, status: 'paused' }) });
    expect(store.getState().jobs.map((p) => [p.job.id, p.job.status])).toEqual([
      [4, 'running'],
      [3, 'paused'],
      [2, 'completed'],
      [1, 'cancelled'],
    ]);
    // Finished jobs listed at start are not "ended now": no summary.
    expect(store.getState().jobSummary).toBeNull();
  });

  it('shows the summary once when a job ends, and drops removed jobs', () => {
    store.getState().applyJobUpdate({ type: 'progress', progress: progress({ id: 5 }) });
    const done = job({ id: 5, status: 'completed', walkComplete: true, counts: { found: 12, bytes: 1, scanned: 10, threats: 1, couldNotScan: 1, skipped: 1 }, activeMs: 90_000 });
    store.getState().applyJobUpdate({ type: 'progress', progress: { job: done, filesPerSecond: 0, etaSeconds: 0 } });
    expect(store.getState().jobSummary).toEqual(done);
    store.getState().dismissJobSummary();
    store.getState().applyJobUpdate({ type: 'progress', progress: { job: done, filesPerSecond: 0, etaSeconds: 0 } });
    expect(store.getState().jobSummary).toBeNull();

    expect(summaryText(translator('en'), done)).toBe('Quick scan finished. Scanned: 10 · Threats: 1 · Could not scan: 1 · Skipped: 1 · Duration: 1.5 min');
    expect(summaryText(translator('de'), { ...done, status: 'cancelled', kind: 'full' })).toBe(
      'Vollständige Prüfung abgebrochen. Geprüft: 10 · Bedrohungen: 1 · Nicht prüfbar: 1 · Übersprungen: 1 · Dauer: 1,5 Min.',
    );

    store.getState().applyJobUpdate({ type: 'removed', ids: [5] });
    expect(store.getState().jobs).toEqual([]);
  });
});
