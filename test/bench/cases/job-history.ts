// Case 12 (issue 16): a history of 10 full scan jobs of 100,000 files each plus 100,000
// single scans (1.1 million rows, written straight into SQLite: job-history-seed.ts).
// Against the current targets of the history and renderer cases: opening it, the list's
// page queries as the window asks them (jobRows 'threats') and a job's own questions from
// the window (median of 25 runs each, < 5 ms; the core's once-per-job questions are
// reported without a target), and in
// Chromium the list's first paint and long tasks while loading, scrolling and during
// 1,000 updates/s (no task over 50 ms). Also the database's bytes per row.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { HISTORY_FILE_NAME, openHistory, type History } from '../../../electron/history/history.ts';
import type { HistoryQuery, Verdict } from '../../../shared/scans/record.ts';
import { buildRenderer, launchChromium } from '../../e2e/support/app-harness.ts';
import { startRealCore, type RealCore } from '../../e2e/support/real-core.ts';
import { time, typicalQueries } from '../history.ts';
import { seededUntilMs, seedJobHistory, type JobHistoryShape } from '../job-history-seed.ts';
import type { BenchCase, Metric } from './bench-case.ts';
import { measureOnce, taskCpuMetrics, taskCpuText, type RepFigures } from './renderer.ts';
import { withLiveEvents } from './support/live-scan-events.ts';
import { fromSamples } from './support/statistics.ts';

const FULL: JobHistoryShape = { jobs: 10, filesPerJob: 100_000, singles: 100_000 };
const QUICK: JobHistoryShape = { jobs: 2, filesPerJob: 5_000, singles: 5_000 };

interface HistoryFigures {
  openMs: number;
  /** The protection overview's question (30 days) right after opening, the page cache cold as when the window first shows it. */
  overviewMs: number;
  bytesPerRow: number;
  /** The slowest of the list's page queries and of a job's questions, with what it was. */
  slowestPage: { label: string; ms: number };
  slowestJob: { label: string; ms: number };
  /** Asked once per job, when it ends or resumes at start, never by the window. */
  slowestOnce: { label: string; ms: number };
  /** The rows the window's list holds: the single scans and the jobs' threats. */
  listed: number;
}

/** The window's list asks as renderer/scans/filters.ts pageQuery does: a job is one row, of its files only threats. */
const asTheList = (query: HistoryQuery): HistoryQuery => ({ limit: 200, order: 'newest', ...query, jobRows: 'threats' });

/**
 * A job's own questions: the job list, one job, its totals, and its expansion as
 * renderer/jobs/JobDetails.tsx and CleanSearch.tsx ask (threats, failures and skipped files,
 * 20 a page; clean files by name or hash, 10 a page). Its unfinished rows (asked once, when
 * an unfinished job resumes at start) are timed too.
 */
function jobQueries(history: History): Array<[string, () => unknown]> {
  const [newest] = history.jobs.list(1);
  if (!newest) throw new Error('the seeded history has no job');
  const job = newest.id;
  const files = (verdicts: Verdict[], search?: string, limit = 20) => () => history.query({ job, verdicts, limit, offset: 0, order: 'oldest', ...(search ? { search } : {}) });
  const sample = history.query({ job, limit: 1, offset: 777, order: 'oldest' }).items[0];
  if (!sample?.sha256) throw new Error('the seeded job has no rows');
  return [
    ['job list (newest 100)', () => history.jobs.list(100)],
    ['one job', () => history.jobs.get(job)],
    ['a job: its threats (20)', files(['unsafe', 'allowed'])],
    ['a job: could not scan (20)', files(['could-not-scan'])],
    ['a job: skipped (20)', files(['skipped'])],
    [`a job: clean files named "${sample.fileName}"`, files(['safe'], sample.fileName, 10)],
    ['a job: clean files named "file-4242" (substring)', files(['safe'], 'file-4242', 10)],
    ['a job: clean file by digest prefix (8 hex chars)', files(['safe'], sample.sha256.slice(0, 8), 10)],
  ];
}

/** Asked once per job by the core (finishJob, resumeUnfinished), not by the window. */
function onceQueries(history: History): Array<[string, () => unknown]> {
  const [newest] = history.jobs.list(1);
  if (!newest) throw new Error('the seeded history has no job');
  return [
    ['its totals by verdict (at its end, or on resume)', () => history.jobs.totals(newest.id)],
    ['its unfinished rows (on resume)', () => history.jobs.pendingIds(newest.id)],
  ];
}

function measureHistory(dataDir: string, rows: number, shape: JobHistoryShape): HistoryFigures {
  const file = path.join(dataDir, HISTORY_FILE_NAME);
  const bytesPerRow = statSync(file).size / rows;
  const start = performance.now();
  const history = openHistory(dataDir);
  const openMs = performance.now() - start;
  try {
    const overviewStart = performance.now();
    history.overview({ nowMs: seededUntilMs(shape), utcOffsetMinutes: 60, days: 30, topDetections: 5 });
    const overviewMs = performance.now() - overviewStart;
    // The list holds the single scans and the jobs' threats: its middle is the deepest page the window reaches in the middle.
    const listed = history.query(asTheList({ limit: 1 })).total;
    const sample = history.query(asTheList({ limit: 1, offset: Math.floor(listed / 2) })).items[0];
    if (!sample) throw new Error('the seeded history is empty');
    const pages = typicalQueries(sample, listed).map(([label, query]: [string, HistoryQuery]) => ({ label, ms: time(() => history.query(asTheList(query))) }));
    const timed = (list: Array<[string, () => unknown]>) => list.map(([label, run]) => ({ label, ms: time(() => void run()) }));
    const slowest = (list: Array<{ label: string; ms: number }>) => [...list].sort((a, b) => b.ms - a.ms)[0]!;
    return { openMs, overviewMs, bytesPerRow, slowestPage: slowest(pages), slowestJob: slowest(timed(jobQueries(history))), slowestOnce: slowest(timed(onceQueries(history))), listed };
  } finally {
    history.close();
  }
}

export const jobHistoryCase: BenchCase = {
  id: 'job-history',
  title: 'history and list: 10 jobs of 100,000 files + 100,000 scans',
  needs: ['chromium'],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const shape = context.quick ? QUICK : FULL;
    let built: Awaited<ReturnType<typeof buildRenderer>> | undefined;
    let browser: Browser | undefined;
    let real: RealCore | undefined;
    let rows = 0;
    let seedMs = 0;
    let history: HistoryFigures | undefined;
    // One seed; its queries timed once per repetition (as the history case does), the labels from the last.
    const measured: HistoryFigures[] = [];
    try {
      [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
      real = await startRealCore({
        clamd: null,
        // Seeded and measured before the core opens the database.
        prepare: (dataDir) => {
          const start = performance.now();
          rows = seedJobHistory(dataDir, shape);
          seedMs = performance.now() - start;
          for (let rep = 0; rep < context.reps; rep++) measured.push(measureHistory(dataDir, rows, shape));
          history = measured.at(-1);
        },
      });
      if (!history) throw new Error('the history was not measured');
      context.log(
        `job-history: ${rows.toLocaleString('en-US')} rows seeded in ${(seedMs / 1000).toFixed(1)} s, ${history.bytesPerRow.toFixed(0)} bytes/row; ` +
          `open ${history.openMs.toFixed(1)} ms; slowest page query ${history.slowestPage.label} ${history.slowestPage.ms.toFixed(2)} ms; ` +
          `slowest job query ${history.slowestJob.label} ${history.slowestJob.ms.toFixed(2)} ms; once per job: ${history.slowestOnce.label} ${history.slowestOnce.ms.toFixed(2)} ms`,
      );
      const live = withLiveEvents(real.core);
      const reps: RepFigures[] = [];
      for (let rep = 0; rep < context.reps; rep++) {
        const figures = await measureOnce(browser, built.dir, live, history.listed, context.quick);
        reps.push(figures);
        context.log(
          `job-history rep ${rep + 1}/${context.reps}: first row ${figures.firstRenderMs.toFixed(0)} ms, longest task loading ${figures.loadLongestMs.toFixed(0)} ms, ` +
            `scrolling ${figures.scrollLongestMs.toFixed(0)} ms, updates ${figures.updatesLongestMs.toFixed(0)} ms; ${taskCpuText(figures)}`,
        );
      }
      const pick = (key: keyof RepFigures) => reps.map((figures) => figures[key]);
      const pageTarget = { on: 'ours', op: '<', value: 5, text: '< 5 ms' } as const;
      const noLongTask = { on: 'ours', op: '<=', value: 50, text: 'no task over 50 ms' } as const;
      const count = rows.toLocaleString('en-US');
      const metrics: Metric[] = [
        fromSamples({ name: `history file per row, ${count} rows`, unit: 'bytes', note: 'history.sqlite after the seed (checkpointed), divided by its rows' }, measured.map((figures) => figures.bytesPerRow)),
        fromSamples({ name: 'open', unit: 'ms', note: 'openHistory on the seeded database (migrations checked)' }, measured.map((figures) => figures.openMs)),
        fromSamples(
          { name: 'protection overview, 30 days', unit: 'ms', target: { on: 'ours', op: '<', value: 100, text: '< 100 ms' }, note: 'the first overview:get query after opening (per-day counts incl. the compact store, verdict mix, top detections)' },
          measured.map((figures) => figures.overviewMs),
        ),
        fromSamples({ name: 'slowest list page query', unit: 'ms', target: pageTarget, note: `last repetition: ${history.slowestPage.label} (the history case's queries as the window asks them, jobRows threats, median of 25)` }, measured.map((figures) => figures.slowestPage.ms)),
        fromSamples({ name: "slowest job query", unit: 'ms', target: pageTarget, note: `last repetition: ${history.slowestJob.label} (the job list and a job's expansion, median of 25)` }, measured.map((figures) => figures.slowestJob.ms)),
        // No target: once per job in the core, like its walk (a resumed walk reads every recorded path too).
        fromSamples({ name: 'slowest once-per-job query', unit: 'ms', note: `a job of ${shape.filesPerJob.toLocaleString('en-US')} files: ${history.slowestOnce.label} (median of 25)` }, measured.map((figures) => figures.slowestOnce.ms)),
        fromSamples({ name: `first render, ${count} scans`, unit: 'ms', note: `navigation start → first row painted (the list: ${history.listed.toLocaleString('en-US')} rows)` }, pick('firstRenderMs')),
        fromSamples({ name: 'longest task while loading', unit: 'ms', target: noLongTask }, pick('loadLongestMs')),
        fromSamples({ name: 'longest task while scrolling', unit: 'ms', target: noLongTask }, pick('scrollLongestMs')),
        fromSamples({ name: 'longest task during 1,000 updates/s', unit: 'ms', target: noLongTask }, pick('updatesLongestMs')),
        ...taskCpuMetrics(reps),
      ];
      return metrics;
    } finally {
      await real?.close();
      await browser?.close();
      await built?.remove();
    }
  },
};
