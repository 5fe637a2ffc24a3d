// The soak run: `npm run soak -- [--files N] [--burst B] [--fault-every K] [--seed S]`.
// N files (default 200,000) land in a watched folder in bursts of B; the real
// core (createCore) scans them through a fault proxy (about one request in K
// broken at random) against the real local service in its thread, which is
// made to crash twice along the way and is restarted by its supervisor. A burst
// is removed once its files are settled (the watcher's own state stays small).
// Prints RSS, heap, open descriptors and the pipeline's tracked records at each
// 10 %, then the audit: each file exactly once, in history and at the service.
// Exit code 1 when a file was lost or duplicated. Run as `node --expose-gc
// test/soak/run.ts ...`, it collects garbage in both threads before each sample.
// With SOAK_HEAP_SNAPSHOTS=DIR it also writes the main thread's heap snapshot at each
// sample into DIR (compare two with test/bench/profile/heap-diff.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { createCore, type CoreInternals, type CoreTuning } from '../../electron/core/create-core.ts';
import { startLocalServiceInThread, type ThreadedLocalService } from '../../electron/local-service/thread/start-in-thread.ts';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';
import { auditSoak, sample, trackedCount, type Sample } from './audit.ts';
import { addRandomFaults, seededRandom } from './faults.ts';

const KEY = 'soak-key-0000000000000001';
const THREAD_ENTRY = new URL('./crashable-service-thread.ts', import.meta.url);
/** Backoff shortened as in the reliability tests; behaviour is the same, only quicker. */
const TUNING: CoreTuning = {
  watchSettleMs: 300,
  poll: { initialDelayMs: 50, maxDelayMs: 400 },
  clientRetry: { baseDelayMs: 20, maxDelayMs: 300, maxAttempts: 6, deadlineMs: 30_000 },
  retryBaseMs: 50,
  retryMaxMs: 1_000,
  budget: { ratePerSecond: 5_000, burst: 5_000 },
  logLevel: 'warn',
};

function options() {
  const { values } = parseArgs({ options: { files: { type: 'string' }, burst: { type: 'string' }, 'fault-every': { type: 'string' }, seed: { type: 'string' } } });
  const whole = (value: string | undefined, fallback: number, name: string) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0`);
    return n;
  };
  const files = whole(values.files, 200_000, '--files');
  return { files, burst: Math.min(files, whole(values.burst, 1_000, '--burst')), faultEvery: whole(values['fault-every'], 200, '--fault-every'), seed: whole(values.seed, 18, '--seed') };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const burstName = (burst: number) => `b${String(burst).padStart(5, '0')}`;

/** A file's path, from its burst and its place in it: the run keeps counts, not 200,000 paths (about 90 bytes of main heap per file). */
const filePath = (watchDir: string, burst: number, index: number) => join(watchDir, burstName(burst), `${burstName(burst)}-f-${index}.txt`);

/** Every file the run wrote, for the audit at the end (`sizes`: each burst's file count). */
const writtenPaths = (watchDir: string, sizes: readonly number[]) => sizes.flatMap((size, burst) => Array.from({ length: size }, (_, index) => filePath(watchDir, burst, index)));

/** Whether every file of a burst has its row and that row is terminal (file names start with the burst's name). */
async function burstSettled(core: CoreInternals, burst: number, count: number): Promise<boolean> {
  const search = `${burstName(burst)}-`;
  const [all, pending] = await Promise.all([
    core.scans.list({ search, limit: 1 }),
    core.scans.list({ search, limit: 1, statuses: ['queued', 'uploading', 'processing'] }),
  ]);
  return all.ok && pending.ok && all.value.total === count && pending.value.total === 0;
}

/** Terminal history rows so far (the rest are unsettled in the watcher, or pending in the pipeline). */
async function settledRows(core: CoreInternals): Promise<number> {
  const [page, counts] = await Promise.all([core.scans.list({ limit: 1 }), core.scans.counts()]);
  if (!page.ok || !counts.ok) throw new Error('the core could not count its records');
  return page.value.total - counts.value.queued - counts.value.uploading - counts.value.processing;
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`soak: timed out waiting for ${what}`);
    await wait(100);
  }
}

async function crashServiceThread(serviceDir: string, service: ThreadedLocalService): Promise<void> {
  writeFileSync(join(serviceDir, '..', 'crash-now'), '');
  await wait(500);
  await waitUntil(async () => (await fetch(`${service.url}/file-scans/soak-health`, { headers: { authorization: `Bearer ${KEY}` } }).catch(() => null))?.status === 404, 'the service thread to come back', 30_000);
}

/** Under `node --expose-gc`: full collections in both threads before a sample, so heaps show live memory (a leak), not garbage. */
async function collectGarbage(serviceDir: string): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return;
  writeFileSync(join(serviceDir, '..', 'gc-now'), '');
  await wait(300);
  collect();
}

/** SOAK_HEAP_SNAPSHOTS=DIR: the main thread's heap at this sample, for a diff between two of them. */
function snapshotHeap(percent: number): void {
  const dir = process.env.SOAK_HEAP_SNAPSHOTS;
  if (dir) console.error(`[soak] heap snapshot ${writeHeapSnapshot(join(dir, `soak-${String(percent).padStart(3, '0')}.heapsnapshot`))}`);
}

function printSamples(samples: Sample[]): void {
  const fmt = (n: number | null, digits = 0) => (n === null ? 'n/a' : n.toFixed(digits));
  console.log('| progress | files | time | RSS MiB | main heap used / total (young) MiB | external / arrayBuffers MiB (process) | service heap used / total / external / malloced MiB | open fds | tracked records |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const s of samples) {
    const service = `${fmt(s.serviceHeapMb, 1)} / ${fmt(s.serviceHeapTotalMb, 1)} / ${fmt(s.serviceExternalMb, 1)} / ${fmt(s.serviceMallocedMb, 1)}`;
    console.log(`| ${s.percent} % | ${s.files} | ${fmt(s.seconds)} s | ${fmt(s.rssMb, 1)} | ${fmt(s.heapMb, 1)} / ${fmt(s.heapTotalMb, 1)} (${fmt(s.newSpaceMb, 0)}) | ${fmt(s.externalMb, 1)} / ${fmt(s.arrayBuffersMb, 1)} | ${service} | ${s.fds} | ${fmt(s.tracked)} |`);
  }
}

async function main(): Promise<number> {
  const run = options();
  const root = mkdtempSync(join(tmpdir(), 'verdict-soak-'));
  const serviceDir = join(root, 'service', 'data');
  const watchDir = join(root, 'watched');
  mkdirSync(serviceDir, { recursive: true });
  mkdirSync(watchDir);
  const random = seededRandom(run.seed);
  let restartsLogged = 0;
  const logger = { info() {}, warn() {}, error: (_fields: object, message: string) => void (/restarting it/.test(message) && restartsLogged++), child() { return logger; } };
  const service = await startLocalServiceInThread({ apiKeys: [KEY], dataDir: serviceDir, engine: { kind: 'builtin' }, rateLimit: false, threadEntry: THREAD_ENTRY, restart: { max: 3, windowMs: 60_000 }, logger: logger as never });
  const proxy: FaultProxy = await startFaultProxy(service.url);
  // Posts plus a few polls and retries per file.
  const faults = addRandomFaults(proxy, run.files * 3, run.faultEvery, random);
  const core = await createCore({ dataDir: join(root, 'data'), serviceOverride: { baseUrl: proxy.url, apiKey: KEY } }, TUNING);
  const added = await core.watch.add({ path: watchDir, recursive: true });
  if (!added.ok) throw new Error(added.error.message);
  await waitUntil(
    async () => {
      const folders = await core.watch.list();
      return folders.ok && folders.value.some((status) => status.state === 'watching');
    },
    'the folder to be watched',
    30_000,
  );

  console.error(`[soak] ${run.files} files in bursts of ${run.burst}, about 1 request in ${run.faultEvery} faulted (${faults} faults placed), seed ${run.seed}; in ${root}`);
  const started = performance.now();
  const samples: Sample[] = [await sample(0, 0, core, started, service)];
  /** Files written so far, and each burst's count (the paths follow from them: writtenPaths). */
  let written = 0;
  const burstSizes: number[] = [];
  const crashesAt = [Math.floor(run.files / 3), Math.floor((2 * run.files) / 3)];
  let nextSample = 10;
  let faultedSeen = 0;
  for (let burst = 0; written < run.files; burst++) {
    mkdirSync(join(watchDir, burstName(burst)));
    const count = Math.min(run.burst, run.files - written);
    for (let i = 0; i < count; i++) {
      writeFileSync(filePath(watchDir, burst, i), `soak ${written} ${run.seed} ${random()}\n`.padEnd(512 + Math.floor(random() * 3_000), '.'));
      written++;
    }
    burstSizes.push(count);
    // At most this burst in flight: wait for the one before to settle, then remove it.
    if (burst > 0) {
      const previous = burstSizes[burst - 1] as number;
      await waitUntil(() => burstSettled(core, burst - 1, previous), 'the previous burst to settle', 10 * 60_000);
      await rm(join(watchDir, burstName(burst - 1)), { recursive: true, force: true });
    }
    // The proxy's request log would grow without end: count what it saw, then drop it.
    faultedSeen += proxy.requests.filter((request) => request.fault !== undefined).length;
    (proxy.requests as unknown[]).length = 0;
    while (crashesAt.length > 0 && written >= (crashesAt[0] as number)) {
      crashesAt.shift();
      await crashServiceThread(serviceDir, service);
    }
    while (nextSample < 100 && written >= (nextSample / 100) * run.files) {
      await collectGarbage(serviceDir);
      samples.push(await sample(nextSample, written, core, started, service));
      snapshotHeap(nextSample);
      const last = samples.at(-1);
      console.error(`[soak] ${nextSample} %: ${written} files, RSS ${last?.rssMb.toFixed(0)} MiB, main heap ${last?.heapMb.toFixed(0)}/${last?.heapTotalMb.toFixed(0)}, service heap ${last?.serviceHeapMb?.toFixed(0)}/${last?.serviceHeapTotalMb?.toFixed(0)}, external ${last?.externalMb.toFixed(0)}`);
      nextSample += 10;
    }
  }
  await waitUntil(async () => (await settledRows(core)) >= run.files, 'every file to settle', 10 * 60_000);
  faultedSeen += proxy.requests.filter((request) => request.fault !== undefined).length;
  const seconds = (performance.now() - started) / 1000;
  const tracked = trackedCount(core);
  await collectGarbage(serviceDir);
  samples.push(await sample(100, written, core, started, service));
  snapshotHeap(100);
  const audit = await auditSoak({ dataDir: core.dataDir, serviceDir, serviceUrl: service.url, key: KEY, paths: writtenPaths(watchDir, burstSizes) });

  printSamples(samples);
  const warm = samples.find((s) => s.percent === 20) ?? samples[1];
  const last = samples.at(-1) as Sample;
  console.log(`\nfiles ${run.files} in ${seconds.toFixed(0)} s (${(run.files / seconds).toFixed(0)} files/s); faults injected ${faultedSeen}; service-thread restarts ${restartsLogged}`);
  if (warm) console.log(`RSS growth after warm-up (20 % → end): ${(((last.rssMb - warm.rssMb) / warm.rssMb) * 100).toFixed(1)} %; heap ${(((last.heapMb - warm.heapMb) / warm.heapMb) * 100).toFixed(1)} %`);
  console.log(`tracked records at the end: ${tracked ?? 'n/a (this core has no trackedCount yet)'}; open fds: start ${samples[0]?.fds}, end ${last.fds}`);
  console.log(`audit: ${JSON.stringify({ ...audit, problems: undefined })}`);
  for (const problem of audit.problems) console.log(`  problem: ${problem}`);

  await core.close();
  await proxy.close();
  await service.close();
  await rm(root, { recursive: true, force: true });
  const clean = audit.missing === 0 && audit.duplicateRows === 0 && audit.unknownAtService === 0 && audit.duplicatedAtService === 0 && restartsLogged >= 2;
  return clean ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
