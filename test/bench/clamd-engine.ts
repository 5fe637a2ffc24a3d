// Benchmark (not a test): is ClamdEngine ever the bottleneck in front of clamd?
// Scans 1,000 files of 4–64 KB through ClamdEngine (sequentially and 4 at a
// time) and through `clamdscan --stream` (one process, and 4 processes) against
// the same test clamd, in alternating rounds; then one 100 MB file both ways,
// with the engine's peak RSS growth. Timings here are noisy (2 shared cores):
// compare the minimum and the median of each mode, measured side by side.
// Run: node test/bench/clamd-engine.ts [rounds]
// The file set and the clamdscan call are also used by the `throughput` case of
// `npm run bench` (test/bench/cases/).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { ClamdEngine } from '../../electron/engine/clamd-engine.ts';
import { startClamd } from '../support/clamd.ts';
import { fixtureDir, noise, type FixtureDir } from '../fixtures/engine-files.ts';

const run = promisify(execFile);
const FILES = 1000;

/** The size of small file `i`: spread between 4 and 64 KB. */
export const smallFileSize = (i: number): number => 4096 + ((i * 7919) % (60 * 1024 + 1));

/** `count` files of deterministic noise, sizes spread between 4 and 64 KB, in `dir`; another `seed` gives other contents. */
export async function writeSmallFiles(dir: FixtureDir, count: number, seed = 1): Promise<{ paths: string[]; totalBytes: number }> {
  const paths: string[] = [];
  let totalBytes = 0;
  for (let i = 0; i < count; i++) {
    const size = smallFileSize(i);
    totalBytes += size;
    paths.push(await dir.write(`f${String(i).padStart(4, '0')}.bin`, noise(size, i + seed)));
  }
  return { paths, totalBytes };
}

/** `clamdscan --stream` over a file list (one process), against the clamd its config file names. */
export function clamdscanFileList(configFile: string, fileList: string) {
  return run('clamdscan', ['--stream', '--no-summary', '--quiet', `--config-file=${configFile}`, `--file-list=${fileList}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

async function main(): Promise<void> {
  const ROUNDS = Number(process.argv[2] ?? 5);
  const clamd = await startClamd();
  if (!clamd) {
    console.error('clamd is not installed: nothing to measure');
    process.exit(1);
  }
  const dir = await fixtureDir('verdict-bench-');
  try {
    const { paths, totalBytes } = await writeSmallFiles(dir, FILES);
    const fileList = await dir.write('files.txt', `${paths.join('\n')}\n`);
    const quarterLists = await Promise.all(
      [0, 1, 2, 3].map((q) => dir.write(`files-${q}.txt`, `${paths.filter((_, i) => i % 4 === q).join('\n')}\n`)),
    );
    const clamdscanConfig = await dir.write('clamd-client.conf', `LocalSocket ${clamd.socketPath}\n`);
    const engine = new ClamdEngine({ endpoint: { socketPath: clamd.socketPath } });

    const engineSequential = async () => {
      for (const path of paths) {
        const verdict = await engine.scan(path);
        if (!verdict.safe) throw new Error(`unexpected verdict for ${path}`);
      }
    };
    const engineConcurrent = async (concurrency: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < paths.length) {
            const path = paths[next++] as string;
            if (!(await engine.scan(path)).safe) throw new Error(`unexpected verdict for ${path}`);
          }
        }),
      );
    };
    const clamdscan = (list: string) => clamdscanFileList(clamdscanConfig, list);

    const modes: [string, () => Promise<unknown>][] = [
      ['ClamdEngine, sequential', engineSequential],
      ['clamdscan --stream, 1 process', () => clamdscan(fileList)],
      ['ClamdEngine, concurrency 4', () => engineConcurrent(4)],
      ['clamdscan --stream, 4 processes', () => Promise.all(quarterLists.map(clamdscan))],
    ];
    await engineConcurrent(4); // warm-up: clamd's first scans are slower
    const times = new Map<string, number[]>(modes.map(([name]) => [name, []]));
    // The engine's own CPU per scan (this process only): what it takes from clamd on a shared machine.
    const engineCpu = { micros: 0, scans: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, fn] of modes) {
        const cpu = process.cpuUsage();
        const start = performance.now();
        await fn();
        times.get(name)?.push(performance.now() - start);
        if (name.startsWith('ClamdEngine')) {
          const used = process.cpuUsage(cpu);
          engineCpu.micros += used.user + used.system;
          engineCpu.scans += FILES;
        }
      }
    }

    console.log(`${FILES} files, ${(totalBytes / 1024 / 1024).toFixed(1)} MiB in all, ${ROUNDS} rounds`);
    for (const [name, samples] of times) report(name, samples, FILES);
    console.log(`ClamdEngine CPU per scan (user+system, this process): ${(engineCpu.micros / engineCpu.scans / 1000).toFixed(2)} ms`);

    // One 100 MiB file, both ways in alternating rounds, and the engine's peak
    // RSS growth while streaming it (sampled every 5 ms).
    const big = join(dir.path, 'big.bin');
    await writeFile(big, noise(100 * 1024 * 1024, 42));
    const bigList = await dir.write('big.txt', `${big}\n`);
    const bigTimes = new Map<string, number[]>([['ClamdEngine, 100 MiB', []], ['clamdscan --stream, 100 MiB', []]]);
    let rssGrowth = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const baseRss = process.memoryUsage().rss;
      let peakRss = baseRss;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
      let start = performance.now();
      if (!(await engine.scan(big)).safe) throw new Error('unexpected verdict for the 100 MiB file');
      bigTimes.get('ClamdEngine, 100 MiB')?.push(performance.now() - start);
      clearInterval(sampler);
      rssGrowth = Math.max(rssGrowth, peakRss - baseRss);
      start = performance.now();
      await clamdscan(bigList);
      bigTimes.get('clamdscan --stream, 100 MiB')?.push(performance.now() - start);
    }
    for (const [name, samples] of bigTimes) report(name, samples);
    console.log(`ClamdEngine peak RSS growth while streaming 100 MiB: ${(rssGrowth / 1024 / 1024).toFixed(1)} MiB (worst round)`);
  } finally {
    await dir.remove();
    await clamd.stop();
  }
}

if (import.meta.main) await main();

function report(name: string, samples: number[], files?: number): void {
  const low = Math.min(...samples);
  const mid = median(samples);
  const rate = files === undefined ? '' : `  ${((files / mid) * 1000).toFixed(0).padStart(5)} files/s at the median`;
  console.log(`${name.padEnd(34)} min ${low.toFixed(0).padStart(6)} ms  median ${mid.toFixed(0).padStart(6)} ms${rate}  [${samples.map((s) => s.toFixed(0)).join(', ')}]`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
