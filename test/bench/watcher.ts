// Watched-folder benchmark (a report, not a test):
//   node test/bench/watcher.ts [--files 100000] [--idle-seconds 30] [--latency-files 50] [--burst 10000] [--runs 1] [--tree-base DIR] [--ignore GLOB]
// 1. Latency from the last write of a file to its report, against the settle threshold.
// 2. An idle watcher on a tree of N files: time until ready, CPU over the idle window,
//    memory; ours and plain chokidar (same chokidar options) in separate child processes,
//    one after the other, on the same tree in the same run.
// 3. A burst of files landing at once: time until all are reported, peak memory.
// The tree and the burst live on tmpfs (/dev/shm) when there is one: creating 100,000
// files on this machine's disk takes minutes, and inotify, readdir and lstat work the
// same on tmpfs as on a disk whose metadata is cached. Latency uses the real temp dir.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { watch } from 'chokidar';
import { watchedFolderSchema } from '../../shared/settings/settings.ts';
import { createFolderWatcher, DEFAULT_SETTLE_MS } from '../../electron/watch/folder-watcher.ts';

type Mode = 'ours' | 'chokidar';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}
function textOption(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const treeBase = textOption('tree-base') ?? (existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());
// `--ignore` gives our watcher one ignore pattern (then chokidar gets an `ignored` function to prune with).
const ignorePattern = textOption('ignore');
const folderOf = (dir: string) => watchedFolderSchema.parse({ id: 'bench', path: dir, ignore: ignorePattern ? [ignorePattern] : [] });

// ---- Child process: one watcher, measured on its own ----

interface ChildResult {
  readyMs: number;
  /** CPU time (user + system) spent until ready: unlike wall time, barely moved by other processes' load. */
  readyCpuMs: number;
  rssAtReady: number;
  cpuPercent?: number;
  rssAfterIdle?: number;
  heapAfterIdle?: number;
  idleEvents?: number;
  burstMs?: number;
  burstCount?: number;
  maxRss?: number;
}

async function child(mode: Mode, dir: string, idleMs: number, expect: number): Promise<void> {
  const print = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
  let count = 0;
  let firstAt = 0;
  let lastAt = 0;
  const seen = (): void => {
    lastAt = performance.now();
    if (count === 0) firstAt = lastAt;
    count += 1;
  };
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  let close: () => Promise<void>;
  if (mode === 'ours') {
    const watcher = createFolderWatcher({ folders: [folderOf(dir)], onReady: seen });
    await watcher.started();
    close = () => watcher.close();
  } else {
    // The chokidar options our watcher uses, without our ignore rules, settle queue or checks.
    const watcher = watch(dir, { ignoreInitial: true, followSymlinks: false, atomic: false, awaitWriteFinish: false, alwaysStat: true, persistent: true });
    watcher.on('add', seen);
    watcher.on('change', seen);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    close = () => watcher.close();
  }
  const readyMs = performance.now() - started;
  const readyCpu = process.cpuUsage(cpuAtStart);
  const result: ChildResult = { readyMs, readyCpuMs: (readyCpu.user + readyCpu.system) / 1000, rssAtReady: process.memoryUsage().rss };
  print({ type: 'ready' });
  if (expect > 0) {
    const deadline = performance.now() + 300_000;
    while (count < expect && performance.now() < deadline) await sleep(20);
    result.burstMs = lastAt - firstAt;
    result.burstCount = count;
  } else {
    global.gc?.();
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await sleep(idleMs);
    const cpu = process.cpuUsage(cpuBefore);
    result.cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
    result.rssAfterIdle = process.memoryUsage().rss;
    result.heapAfterIdle = process.memoryUsage().heapUsed;
    result.idleEvents = count;
  }
  result.maxRss = process.resourceUsage().maxRSS * 1024;
  await close();
  print({ type: 'result', result });
  process.exit(0);
}

function runChild(mode: Mode, dir: string, idleMs: number, expect = 0, whenReady?: () => Promise<void>): Promise<ChildResult> {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, [self, '--child', mode, '--dir', dir, '--idle-ms', String(idleMs), '--expect', String(expect)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => code !== 0 && reject(new Error(`${mode} child exited with ${code}`)));
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { type: 'ready' } | { type: 'result'; result: ChildResult };
      if (message.type === 'ready') void whenReady?.().catch(reject);
      else resolve(message.result);
    });
  });
}

// ---- 1. Latency ----

async function latency(files: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-watch-latency-'));
  const reportedAt = new Map<string, number>();
  const watcher = createFolderWatcher({ folders: [folderOf(dir)], onReady: (file) => void reportedAt.set(file.path, performance.now()) });
  await watcher.started();
  const lastWrite = new Map<string, number>();
  // A new file every 150 ms, each written in 3 chunks 30 ms apart: settle windows overlap.
  const writers: Promise<void>[] = [];
  for (let index = 0; index < files; index += 1) {
    const file = path.join(dir, `file-${index}.bin`);
    writers.push(
      (async () => {
        const handle = await fs.open(file, 'w');
        for (let chunk = 0; chunk < 3; chunk += 1) {
          await handle.write(Buffer.alloc(256 * 1024, chunk));
          if (chunk < 2) await sleep(30);
        }
        await handle.close();
        lastWrite.set(file, performance.now());
      })(),
    );
    await sleep(150);
  }
  await Promise.all(writers);
  const deadline = performance.now() + DEFAULT_SETTLE_MS * 10 + 10_000;
  while (reportedAt.size < files && performance.now() < deadline) await sleep(20);
  await watcher.close();
  rmSync(dir, { recursive: true, force: true });
  const latencies = [...lastWrite].flatMap(([file, at]) => (reportedAt.has(file) ? [reportedAt.get(file)! - at] : []));
  console.log(`\n## Latency: last write → report (settle threshold ${DEFAULT_SETTLE_MS} ms, ${files} files, ${reportedAt.size} reported)`);
  console.log(`median ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`);
  console.log(`p95 over the threshold: ${(percentile(latencies, 95) - DEFAULT_SETTLE_MS).toFixed(0)} ms (target ≤ 250 ms)`);
}

// ---- 2. Idle tree ----

async function idleTree(files: number, idleSeconds: number, runs: number): Promise<void> {
  const dir = mkdtempSync(path.join(treeBase, 'verdict-watch-tree-'));
  const perDir = 1000;
  const created = performance.now();
  for (let index = 0; index < files; index += 1) {
    if (index % perDir === 0) mkdirSync(path.join(dir, `d${index / perDir}`));
    writeFileSync(path.join(dir, `d${Math.floor(index / perDir)}`, `f${index}.txt`), '');
  }
  console.log(`\n## Idle watcher on ${files} files in ${Math.ceil(files / perDir)} folders under ${treeBase}${ignorePattern ? `, ours ignoring ${ignorePattern}` : ''} (tree made in ${((performance.now() - created) / 1000).toFixed(1)} s), ${idleSeconds} s idle`);
  const results: Record<Mode, ChildResult[]> = { ours: [], chokidar: [] };
  for (let run = 0; run < runs; run += 1) {
    // Alternate the order so neither side always gets the warmer page cache.
    const order: Mode[] = run % 2 === 0 ? ['chokidar', 'ours'] : ['ours', 'chokidar'];
    for (const mode of order) results[mode].push(await runChild(mode, dir, idleSeconds * 1000));
  }
  rmSync(dir, { recursive: true, force: true });
  const avg = (mode: Mode, key: keyof ChildResult): number => results[mode].reduce((sum, result) => sum + (result[key] ?? 0), 0) / results[mode].length;
  console.log('| | ready | CPU until ready | CPU idle | RSS at ready | RSS after idle | heap after idle | events while idle |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const mode of ['chokidar', 'ours'] as const) {
    console.log(
      `| ${mode} | ${(avg(mode, 'readyMs') / 1000).toFixed(2)} s | ${(avg(mode, 'readyCpuMs') / 1000).toFixed(2)} s | ${avg(mode, 'cpuPercent').toFixed(3)} % | ${mb(avg(mode, 'rssAtReady'))} | ${mb(avg(mode, 'rssAfterIdle'))} | ${mb(avg(mode, 'heapAfterIdle'))} | ${avg(mode, 'idleEvents')} |`,
    );
  }
  const ratio = (key: keyof ChildResult): string => (avg('ours', key) / avg('chokidar', key)).toFixed(2);
  const fastest = (mode: Mode): number => Math.min(...results[mode].map((result) => result.readyMs));
  const each = (mode: Mode): string => results[mode].map((result) => (result.readyMs / 1000).toFixed(2)).join(', ');
  console.log(`ready per run (s): chokidar ${each('chokidar')}; ours ${each('ours')}`);
  console.log(
    `ratios ours/chokidar: CPU until ready ${ratio('readyCpuMs')}; ready ${ratio('readyMs')} (means), ${(fastest('ours') / fastest('chokidar')).toFixed(2)} (fastest runs); ` +
      `RSS after idle ${ratio('rssAfterIdle')}, heap ${ratio('heapAfterIdle')} (CPU: both absolute above)`,
  );
}

// ---- 3. Burst ----

async function burst(count: number): Promise<void> {
  console.log(`\n## Burst: ${count} files written at once into a watched folder under ${treeBase}`);
  console.log('| | all reported (first → last event) | reports | peak RSS |');
  console.log('|---|---|---|---|');
  for (const mode of ['chokidar', 'ours'] as const) {
    const dir = mkdtempSync(path.join(treeBase, 'verdict-watch-burst-'));
    const result = await runChild(mode, dir, 0, count, async () => {
      for (let start = 0; start < count; start += 100) {
        await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, offset) => fs.writeFile(path.join(dir, `b${start + offset}.bin`), `burst ${start + offset}`)));
      }
    });
    rmSync(dir, { recursive: true, force: true });
    console.log(`| ${mode} | ${((result.burstMs ?? 0) / 1000).toFixed(2)} s | ${result.burstCount} | ${mb(result.maxRss ?? 0)} |`);
  }
  console.log(`(ours holds each file until it has been unchanged for ${DEFAULT_SETTLE_MS} ms; chokidar alone reports as soon as it sees a file)`);
}

const childMode = textOption('child') as Mode | undefined;
if (childMode) {
  await child(childMode, textOption('dir')!, option('idle-ms', 30_000), option('expect', 0));
} else {
  console.log(`# Watched-folder benchmark (Node ${process.version}, ${os.cpus().length} cores, ${os.platform()})`);
  await latency(option('latency-files', 50));
  await idleTree(option('files', 100_000), option('idle-seconds', 30), option('runs', 1));
  await burst(option('burst', 10_000));
}
