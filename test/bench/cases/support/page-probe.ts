// Code that runs inside the page for the renderer case (serialized by
// playwright, so each function uses nothing from outside its own body). Long
// tasks come from PerformanceObserver('longtask'), installed before the app's
// own scripts; frame times are the intervals between animation frames.
// This file is typechecked without the DOM lib: the few browser APIs are declared here.

interface Entry {
  startTime: number;
  duration: number;
}
interface BrowserGlobals {
  performance: { now(): number };
  requestAnimationFrame(callback: (time: number) => void): number;
  PerformanceObserver: new (callback: (list: { getEntries(): Entry[] }) => void) => { observe(options: { type: string; buffered?: boolean }): void };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void; disconnect(): void };
  document: { querySelector(selector: string): { scrollTop: number; scrollHeight: number; clientHeight: number } | null };
  __verdictBench?: { longTasks: Entry[]; firstRowAt: number | null };
}

/** Init script: records every long task, and when the first list row was first painted. */
export function installPageProbe(): void {
  const page = globalThis as unknown as BrowserGlobals;
  const probe = { longTasks: [] as Entry[], firstRowAt: null as number | null };
  page.__verdictBench = probe;
  new page.PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const rows = new page.MutationObserver(() => {
    if (probe.firstRowAt !== null || !page.document.querySelector('.row')) return;
    rows.disconnect();
    // The frame after the row entered the DOM is the one that shows it.
    page.requestAnimationFrame(() => (probe.firstRowAt = page.performance.now()));
  });
  rows.observe(page.document, { childList: true, subtree: true });
}

/** The probe's figures so far, and the page's clock now. */
export function readPageProbe(): { now: number; longTasks: Entry[]; firstRowAt: number | null } {
  const page = globalThis as unknown as BrowserGlobals;
  return { now: page.performance.now(), longTasks: page.__verdictBench?.longTasks ?? [], firstRowAt: page.__verdictBench?.firstRowAt ?? null };
}

/**
 * Scrolls the list as a fast fling would: `stepPx` per frame for `frames`
 * frames, then jumps to the middle and to the end (a scrollbar drag), each
 * followed by `settleFrames` frames. Returns the frame intervals (ms).
 */
export function scrollThroughList(input: { stepPx: number; frames: number; settleFrames: number }): Promise<number[]> {
  const page = globalThis as unknown as BrowserGlobals;
  const scroller = page.document.querySelector('[data-testid="scan-list"]');
  if (!scroller) throw new Error('no scan list');
  const plan: Array<() => void> = [];
  for (let i = 0; i < input.frames; i++) plan.push(() => (scroller.scrollTop += input.stepPx));
  plan.push(() => (scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) / 2));
  for (let i = 0; i < input.settleFrames; i++) plan.push(() => (scroller.scrollTop += input.stepPx / 4));
  plan.push(() => (scroller.scrollTop = scroller.scrollHeight));
  for (let i = 0; i < input.settleFrames; i++) plan.push(() => undefined);
  plan.push(() => (scroller.scrollTop = 0));
  for (let i = 0; i < input.settleFrames; i++) plan.push(() => undefined);
  const times: number[] = [];
  return new Promise((resolve) => {
    const tick = (time: number) => {
      times.push(time);
      const step = plan.shift();
      if (!step) {
        resolve(times.slice(1).map((t, i) => t - times[i]!));
        return;
      }
      step();
      page.requestAnimationFrame(tick);
    };
    page.requestAnimationFrame(tick);
  });
}

/** Frame intervals (ms) over the next `ms` milliseconds. */
export function recordFrames(ms: number): Promise<number[]> {
  const page = globalThis as unknown as BrowserGlobals;
  const times: number[] = [];
  return new Promise((resolve) => {
    const tick = (time: number) => {
      times.push(time);
      if (time - times[0]! >= ms) resolve(times.slice(1).map((t, i) => t - times[i]!));
      else page.requestAnimationFrame(tick);
    };
    page.requestAnimationFrame(tick);
  });
}
