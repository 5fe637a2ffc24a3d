// Where the renderer's long tasks go (cases 10 and 12): the production build, not
// minified, over a real core seeded as case 10 (or 12 with --jobs), profiled with
// CDP while loading, scrolling and during 1,000 updates/s. Each stretch of samples
// without an idle one longer than 40 ms is a long task; prints, per phase, the
// functions with the most time inside them (self and total).
//   node test/bench/profile/renderer-long-tasks.ts [--jobs] [--phase load|scroll|updates]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { openHistory } from '../../../electron/history/history.ts';
import { rendererConfig } from '../../../vite.config.ts';
import { ok } from '../../../shared/result.ts';
import { launchChromium } from '../../e2e/support/app-harness.ts';
import { startRealCore } from '../../e2e/support/real-core.ts';
import { installTestBridge } from '../../support/test-bridge/browser-bridge.ts';
import { BRIDGE_PREFIX, createTestBridge } from '../../support/test-bridge/bridge-server.ts';
import { startTestServer } from '../../support/test-bridge/test-server.ts';
import { makeRecord } from '../history.ts';
import { seedJobHistory } from '../job-history-seed.ts';
import { withLiveEvents } from '../cases/support/live-scan-events.ts';
import { installPageProbe, readPageProbe, scrollThroughList } from '../cases/support/page-probe.ts';

const { values } = parseArgs({ options: { jobs: { type: 'boolean', default: false }, phase: { type: 'string', default: 'all' }, reps: { type: 'string', default: '2' }, whole: { type: 'boolean', default: false }, trace: { type: 'boolean', default: false }, root: { type: 'string' } } });

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

function summarise(label: string, profile: Profile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (node: Node) => `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/^.*\/assets\//, '')}:${node.callFrame.lineNumber + 1}`;
  const isIdle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';
  // Stretches of busy samples.
  const stretches: Array<{ from: number; to: number; ms: number }> = [];
  let start = -1;
  let ms = 0;
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    if (isIdle(id)) {
      if (start >= 0 && ms > 40) stretches.push({ from: start, to: index, ms });
      start = -1;
      ms = 0;
      return;
    }
    if (start < 0) start = index;
    ms += delta;
  });
  // --whole: everything busy in the phase, not only its long stretches (the cost per frame, not its peaks).
  if (values.whole) stretches.splice(0, stretches.length, { from: 0, to: profile.samples.length, ms: 0 });
  console.log(`\n== ${label}: ${stretches.length} busy stretches over 40 ms: ${stretches.map((s) => s.ms.toFixed(0)).join(', ')}`);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const stretch of stretches) {
    for (let index = stretch.from; index < stretch.to; index++) {
      const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
      const id = profile.samples[index]!;
      self.set(name(byId.get(id)!), (self.get(name(byId.get(id)!)) ?? 0) + delta);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const key = name(byId.get(at)!);
        if (seen.has(key)) continue;
        seen.add(key);
        total.set(key, (total.get(key) ?? 0) + delta);
      }
    }
  }
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, value]) => `  ${value.toFixed(1).padStart(7)} ms  ${key}`).join('\n');
  console.log(`-- self\n${top(self, 25)}\n-- total\n${top(total, 40)}`);
}

/**
 * --trace: the renderer's main-thread tasks from a Chromium trace, each with its wall
 * time (dur) and its thread's CPU time (tdur): on a busy machine a task's wall time
 * grows with what else runs, its CPU time does not.
 */
function tasks(label: string, buffer: Buffer): void {
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: Array<{ name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }> }).traceEvents;
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const run = events.filter((event) => event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && main && event.pid === main.pid && event.tid === main.tid);
  const wall = run.map((event) => (event.dur ?? 0) / 1000).sort((a, b) => b - a);
  const cpu = run.map((event) => (event.tdur ?? 0) / 1000).sort((a, b) => b - a);
  const show = (list: number[]) => list.slice(0, 6).map((ms) => ms.toFixed(1)).join(', ');
  console.log(`${label}: ${run.length} tasks; longest wall ${show(wall)} ms; longest CPU ${show(cpu)} ms; CPU total ${cpu.reduce((a, b) => a + b, 0).toFixed(0)} ms`);
}

const dir = await mkdtemp(path.join(tmpdir(), 'verdict-profile-'));
process.env.NODE_ENV = 'production';
// --root DIR: the renderer of another tree (e.g. an older commit, git archive'd) to compare with.
const root = values.root ? path.resolve(values.root) : rendererConfig.root;
await build({ ...rendererConfig, root, configFile: false, mode: 'production', logLevel: 'warn', build: { ...rendererConfig.build, outDir: dir, emptyOutDir: true, minify: values.trace } });
const browser = await launchChromium();
let listed = 100_000;
const real = await startRealCore({
  clamd: null,
  prepare: (dataDir) => {
    if (values.jobs) {
      seedJobHistory(dataDir, { jobs: 10, filesPerJob: 100_000, singles: 100_000 });
      listed = 100_100;
      return;
    }
    const history = openHistory(dataDir);
    history.insertMany(Array.from({ length: 100_000 }, (_, i) => {
      const record = makeRecord(i);
      return record.status === 'queued' || record.status === 'processing' ? { ...record, status: 'completed' as const, safe: true, detailed: 'clean' as const, completedAt: record.queuedAt } : record;
    }));
    history.close();
  },
});
const live = withLiveEvents(real.core);
try {
  for (let rep = 0; rep < Number(values.reps); rep++) {
    const bridge = createTestBridge(live.api, { pick: async () => ok([]), reveal: async () => ok(null), copyText: async () => ok(null) });
    const server = await startTestServer({ staticDir: dir, bridge });
    const context = await browser.newContext({ colorScheme: 'light', locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const phase = async (label: string, run: () => Promise<unknown>) => {
      const wanted = values.phase === 'all' || values.phase === label;
      if (wanted && values.trace) await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
      else if (wanted) await cdp.send('Profiler.start');
      await run();
      if (wanted && values.trace) tasks(`rep ${rep + 1} ${label}`, await browser.stopTracing());
      else if (wanted) summarise(`rep ${rep + 1} ${label}`, ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile);
    };
    await page.addInitScript(installPageProbe);
    await page.addInitScript(installTestBridge, { prefix: BRIDGE_PREFIX, paths: {} });
    await phase('load', async () => {
      await page.goto(server.url);
      await page.getByText(`${listed.toLocaleString('en-US')} scans`).waitFor({ timeout: 60_000 });
      await page.locator('.row[data-index="0"]').waitFor({ timeout: 60_000 });
      await bridge.subscribed();
      await page.waitForTimeout(500);
    });
    await phase('scroll', () => page.evaluate(scrollThroughList, { stepPx: 600, frames: 240, settleFrames: 30 }));
    await phase('updates', async () => {
      await live.run(1000, 5_000);
      await page.waitForTimeout(300);
    });
    const probe = await page.evaluate(readPageProbe);
    console.log(`\nrep ${rep + 1} long tasks (page): ${probe.longTasks.map((task) => `${task.startTime.toFixed(0)}+${task.duration.toFixed(0)}`).join(', ')}`);
    await context.close();
    await server.close();
  }
} finally {
  await real.close();
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
