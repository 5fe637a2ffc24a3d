// Case 10: the renderer with 100,000 scans, in Chromium: the production build
// served with the e2e test bridge over a real core whose history database was
// seeded with 100,000 rows. Per repetition a fresh page: first render (until
// the first row is painted), a fast scroll through the list (a fling, then
// jumps to the middle and the end), and 1,000 scan events per second pushed
// through the bridge. Long tasks (over 50 ms) are recorded in the page with
// PerformanceObserver('longtask') from before the app's own scripts run.
import type { Browser } from 'playwright-core';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { buildRenderer, launchChromium } from '../../e2e/support/app-harness.ts';
import { startRealCore, type RealCore } from '../../e2e/support/real-core.ts';
import { installTestBridge } from '../../support/test-bridge/browser-bridge.ts';
import { BRIDGE_PREFIX, createTestBridge } from '../../support/test-bridge/bridge-server.ts';
import { startTestServer } from '../../support/test-bridge/test-server.ts';
import { ok } from '../../../shared/result.ts';
import { makeRecord } from '../history.ts';
import type { BenchCase, Metric } from './bench-case.ts';
import { withLiveEvents, type LiveEvents } from './support/live-scan-events.ts';
import { installPageProbe, readPageProbe, recordFrames, scrollThroughList } from './support/page-probe.ts';
import { fromSamples, percentile } from './support/statistics.ts';
import { withTaskCpu } from './support/task-cpu.ts';

/** Finished scans only: pending seeded rows would be resumed by the core and stir the list. */
function seededRecord(i: number): ScanRecord {
  const record = makeRecord(i);
  return record.status === 'queued' || record.status === 'processing'
    ? { ...record, status: 'completed', safe: true, detailed: 'clean', completedAt: record.queuedAt }
    : record;
}

export interface RepFigures {
  firstRenderMs: number;
  idleFrameP95: number;
  loadLongestMs: number;
  scrollFrameP95: number;
  scrollLongestMs: number;
  updatesFrameP95: number;
  updatesLongestMs: number;
  /** The longest task's CPU time (the thread's own time, task-cpu.ts) in each phase. */
  loadCpuMs: number;
  scrollCpuMs: number;
  updatesCpuMs: number;
  eventsPerSecond: number;
}

const longest = (tasks: Array<{ startTime: number; duration: number }>, from: number, to: number) =>
  Math.max(0, ...tasks.filter((task) => task.startTime >= from && task.startTime < to).map((task) => task.duration));

/** `loadedText`: what the page shows once the list has loaded (default: the count of `rows` scans). */
export async function measureOnce(browser: Browser, staticDir: string, live: LiveEvents, rows: number, quick: boolean, loadedText?: string): Promise<RepFigures> {
  const problems: string[] = [];
  const bridge = createTestBridge(live.api, {
    pick: async () => ok([]),
    reveal: async () => ok(null),
    copyText: async () => ok(null),
  });
  const server = await startTestServer({ staticDir, bridge });
  const context = await browser.newContext({ colorScheme: 'light', locale: 'en-US', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript(installPageProbe);
    await page.addInitScript(installTestBridge, { prefix: BRIDGE_PREFIX, paths: {} });
    // The app's icon first, from the same site: the renderer process it starts, whose first
    // tasks are Chromium's and not the page's (up to 90 ms of CPU), is up before the trace begins.
    await page.goto(new URL('/icon.svg', server.url).href);
    const loading = await withTaskCpu(browser, page, async () => {
      await page.goto(server.url);
      await page.getByText(loadedText ?? `${rows.toLocaleString('en-US')} scans`).waitFor({ timeout: 60_000 });
      await page.locator('.row[data-index="0"]').waitFor({ timeout: 60_000 });
      await bridge.subscribed();
      // Let the start settle (threat count, counts) before the next phase.
      await page.waitForTimeout(500);
    });
    const loaded = await page.evaluate(readPageProbe);
    if (loaded.firstRowAt === null) throw new Error('the first row was not seen');
    // The frame rate of this Chromium with nothing to do: the floor for the frame times below.
    const idleFrames = await page.evaluate(recordFrames, 1_000);
    const idle = await page.evaluate(readPageProbe);

    const frames = quick ? 60 : 240;
    const { result: scrollFrames, longestCpuMs: scrollCpuMs } = await withTaskCpu(browser, page, () => page.evaluate(scrollThroughList, { stepPx: 600, frames, settleFrames: quick ? 15 : 30 }));
    const scrolled = await page.evaluate(readPageProbe);

    const updateMs = quick ? 1_500 : 5_000;
    const updating = await withTaskCpu(browser, page, async () => {
      const both = await Promise.all([live.run(1000, updateMs), page.evaluate(recordFrames, updateMs)]);
      // The last events' frame, then the count of long tasks.
      await page.waitForTimeout(300);
      return both;
    });
    const [sent, updateFrames] = updating.result;
    const updated = await page.evaluate(readPageProbe);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return {
      firstRenderMs: loaded.firstRowAt,
      idleFrameP95: percentile(idleFrames, 95),
      loadLongestMs: longest(updated.longTasks, 0, loaded.now),
      scrollFrameP95: percentile(scrollFrames, 95),
      scrollLongestMs: longest(updated.longTasks, idle.now, scrolled.now),
      updatesFrameP95: percentile(updateFrames, 95),
      updatesLongestMs: longest(updated.longTasks, scrolled.now, updated.now),
      loadCpuMs: loading.longestCpuMs,
      scrollCpuMs,
      updatesCpuMs: updating.longestCpuMs,
      eventsPerSecond: (sent / updateMs) * 1000,
    };
  } finally {
    await context.close();
    await server.close();
  }
}

/** The longest task's CPU time per phase, in words for the log. */
export const taskCpuText = (figures: RepFigures): string =>
  `longest task's CPU: loading ${figures.loadCpuMs.toFixed(0)} ms, scrolling ${figures.scrollCpuMs.toFixed(0)} ms, updates ${figures.updatesCpuMs.toFixed(0)} ms`;

/**
 * The longest task's CPU time per phase (no target: the targets above are on wall time, as
 * the user feels it). Beside a long task's wall time it tells the app's own cost from a
 * busy machine's: a task of 15 ms of CPU that lasted 100 ms waited for a core.
 */
export function taskCpuMetrics(reps: readonly RepFigures[]): Metric[] {
  const note = 'the thread time of the longest task on the page\'s main thread (Chromium trace, task-cpu.ts)';
  return [
    fromSamples({ name: "longest task's CPU while loading", unit: 'ms', note }, reps.map((figures) => figures.loadCpuMs)),
    fromSamples({ name: "longest task's CPU while scrolling", unit: 'ms', note }, reps.map((figures) => figures.scrollCpuMs)),
    fromSamples({ name: "longest task's CPU during 1,000 updates/s", unit: 'ms', note }, reps.map((figures) => figures.updatesCpuMs)),
  ];
}

export const rendererCase: BenchCase = {
  id: 'renderer',
  title: 'renderer: 100,000 scans in Chromium',
  needs: ['chromium'],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const rows = context.quick ? 5_000 : 100_000;
    let built: Awaited<ReturnType<typeof buildRenderer>> | undefined;
    let browser: Browser | undefined;
    let real: RealCore | undefined;
    try {
      [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
      real = await startRealCore({
        clamd: null,
        // Written straight into the core's history database before the core opens it.
        prepare: (dataDir) => {
          const history = openHistory(dataDir);
          history.insertMany(Array.from({ length: rows }, (_, i) => seededRecord(i)));
          history.close();
        },
      });
      const live = withLiveEvents(real.core);
      const reps: RepFigures[] = [];
      for (let rep = 0; rep < context.reps; rep++) {
        const figures = await measureOnce(browser, built.dir, live, rows, context.quick);
        reps.push(figures);
        context.log(
          `renderer rep ${rep + 1}/${context.reps}: first row ${figures.firstRenderMs.toFixed(0)} ms, longest task loading ${figures.loadLongestMs.toFixed(0)} ms, ` +
            `scrolling ${figures.scrollLongestMs.toFixed(0)} ms (frame p95 ${figures.scrollFrameP95.toFixed(1)} ms), ` +
            `updates ${figures.updatesLongestMs.toFixed(0)} ms (frame p95 ${figures.updatesFrameP95.toFixed(1)} ms, ${figures.eventsPerSecond.toFixed(0)} events/s); ${taskCpuText(figures)}`,
        );
      }
      const pick = (key: keyof RepFigures) => reps.map((figures) => figures[key]);
      const noLongTask = { on: 'ours', op: '<=', value: 50, text: 'no task over 50 ms' } as const;
      const perRep = (key: keyof RepFigures) => `per repetition: ${pick(key).map((ms) => ms.toFixed(0)).join(', ')} ms (0 = no long task)`;
      const idlePeer = { peerLabel: 'idle page' };
      const count = rows.toLocaleString('en-US');
      return [
        fromSamples({ name: `first render, ${count} scans`, unit: 'ms', note: 'navigation start → first row painted (page 0 from the real core through the bridge)' }, pick('firstRenderMs')),
        fromSamples({ name: 'longest task while loading', unit: 'ms', target: noLongTask, note: perRep('loadLongestMs') }, pick('loadLongestMs')),
        fromSamples(
          { name: 'scroll: frame time p95', unit: 'ms', ...idlePeer, note: 'a fling of 600 px per frame, then jumps to the middle, the end and the top; peer: the same page idle' },
          pick('scrollFrameP95'),
          pick('idleFrameP95'),
        ),
        fromSamples({ name: 'longest task while scrolling', unit: 'ms', target: noLongTask, note: perRep('scrollLongestMs') }, pick('scrollLongestMs')),
        fromSamples(
          { name: '1,000 updates/s: frame time p95', unit: 'ms', ...idlePeer, note: 'scan events (new, uploading, progress, processing, completed) through the bridge, list at the top' },
          pick('updatesFrameP95'),
          pick('idleFrameP95'),
        ),
        fromSamples({ name: 'longest task during 1,000 updates/s', unit: 'ms', target: noLongTask, note: perRep('updatesLongestMs') }, pick('updatesLongestMs')),
        ...taskCpuMetrics(reps),
      ];
    } finally {
      await real?.close();
      await browser?.close();
      await built?.remove();
    }
  },
};
