// The CPU time of the renderer's longest task, from a Chromium trace: each task on
// the page's main thread with its wall time (dur) and its thread's own time (tdur).
// Long tasks from PerformanceObserver are wall time: on a machine whose cores are
// busy with other work a task of 15 ms of CPU can last 100 ms. The CPU time says
// what the app's own code costs, whatever else runs beside it.
import type { Browser, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Runs `phase` with the page traced; resolves with its result and the CPU time (ms) of the longest task on the page's main thread. */
export async function withTaskCpu<T>(browser: Browser, page: Page, phase: () => Promise<T>): Promise<{ result: T; longestCpuMs: number }> {
  await browser.startTracing(page, { categories: ['toplevel'] });
  let result: T;
  let trace: Buffer;
  try {
    result = await phase();
  } finally {
    trace = await browser.stopTracing();
  }
  return { result, longestCpuMs: longestTaskCpu(trace) };
}

export function longestTaskCpu(trace: Buffer): number {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's main thread (one renderer: the bench opens one page per context).
  const mains = events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const isMain = (event: TraceEvent) => mains.some((main) => main.pid === event.pid && main.tid === event.tid);
  const tasks = events.filter((event) => event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && isMain(event));
  return Math.max(0, ...tasks.map((event) => (event.tdur ?? 0) / 1000));
}
