// Scan pipeline benchmark (a report, not a test): `node --expose-gc test/bench/pipeline.ts [polls|burst|throughput|all]`.
//
// polls       GET requests per async scan through createCore when the service takes 1, 2, 3 and 5 s per
//             scan (20 files, every scan in parallel at the service, the app's default poller).
// burst       10,000 files handed in while the queue waits for a key: time until submit() returns, heap
//             growth, the longest event-loop stall.
// throughput  300 small files, sync and async, against the local service in the same process.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../electron/core/create-core.ts';
import { startTestService } from '../electron/scans/harness.ts';

const which = process.argv[2] ?? 'all';

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-bench-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function files(dir: string, n: number, tag: string): Promise<string> {
  const folder = join(dir, 'files');
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < n; i++) await writeFile(join(folder, `f${i}.txt`), `content ${i} ${tag}`);
  return folder;
}

async function polls() {
  const n = 20;
  for (const delay of [1000, 2000, 3000, 5000]) {
    await withDir(async (dir) => {
      const service = await startTestService(join(dir, 'service'), { scanDelayMs: delay, scanConcurrency: n, rateLimit: false });
      const folder = await files(dir, n, String(delay));
      const core = await createCore({ dataDir: join(dir, 'data'), serviceOverride: { baseUrl: service.url, apiKey: service.key } }, { watch: false });
      const started = performance.now();
      await core.submit([folder], { origin: 'watch' });
      await core.idle();
      const stats = core.backendStats();
      console.log(JSON.stringify({ bench: 'polls', scanDelayMs: delay, scans: n, gets: stats.polls, getsPerScan: +(stats.polls / n).toFixed(2), wallMs: Math.round(performance.now() - started) }));
      await core.close();
      await service.close();
    });
  }
}

async function burst() {
  const n = 10_000;
  await withDir(async (dir) => {
    const folder = await files(dir, n, 'burst');
    await mkdir(join(dir, 'data'));
    // A remote backend without a key: the queue holds, so this measures intake and queueing alone.
    await writeFile(join(dir, 'data', 'settings.json'), JSON.stringify({ version: 1, backend: { kind: 'remote', baseUrl: 'http://127.0.0.1:9' } }));
    const core = await createCore({ dataDir: join(dir, 'data'), keychainService: `verdict-bench-${process.pid}` }, { watch: false });
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    let maxLag = 0;
    let last = performance.now();
    const lag = setInterval(() => {
      const now = performance.now();
      maxLag = Math.max(maxLag, now - last - 10);
      last = now;
    }, 10);
    const started = performance.now();
    const submitted = await core.submit([folder], { origin: 'watch' });
    const submitMs = performance.now() - started;
    clearInterval(lag);
    globalThis.gc?.();
    const heapMB = (process.memoryUsage().heapUsed - before) / 1e6;
    console.log(JSON.stringify({ bench: 'burst', files: n, queued: submitted.ok && submitted.value.queued, submitMs: Math.round(submitMs), heapGrowthMB: +heapMB.toFixed(1), maxEventLoopLagMs: Math.round(maxLag) }));
    await core.close();
  });
}

async function throughput() {
  const n = 300;
  for (const mode of ['sync', 'async'] as const) {
    await withDir(async (dir) => {
      const service = await startTestService(join(dir, 'service'), { rateLimit: false });
      const folder = await files(dir, n, mode);
      const core = await createCore(
        { dataDir: join(dir, 'data'), serviceOverride: { baseUrl: service.url, apiKey: service.key } },
        { watch: false, budget: { ratePerSecond: 100, burst: 200 } },
      );
      const started = performance.now();
      await core.submit([folder], { origin: 'cli', mode });
      await core.idle();
      const ms = performance.now() - started;
      console.log(JSON.stringify({ bench: 'throughput', mode, files: n, totalMs: Math.round(ms), perFileMs: +(ms / n).toFixed(1), requests: core.backendStats().requests }));
      await core.close();
      await service.close();
    });
  }
}

if (which === 'polls' || which === 'all') await polls();
if (which === 'burst' || which === 'all') await burst();
if (which === 'throughput' || which === 'all') await throughput();
