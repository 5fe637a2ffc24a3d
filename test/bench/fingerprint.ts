// Fingerprint benchmark (a report, not a test): `node test/bench/fingerprint.ts [MiB]`.
// Our one pass (md5 + sha1 + sha256) over a 100 MB file against `sha256sum`
// alone on the same file, 5 runs each, alternating, after one warm-up of each
// (so both read from the page cache). Prints the medians and their ratio.
// The measuring part is also the `fingerprint` case of `npm run bench` (test/bench/cases/).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fingerprintFile } from '../../electron/fingerprint/fingerprint.ts';

const run = promisify(execFile);

/** Random content (not zeros), written in 1 MiB pieces to keep memory flat. */
export function writeRandomFile(file: string, mib: number): void {
  for (let i = 0; i < mib; i++) writeFileSync(file, randomBytes(1024 * 1024), { flag: i === 0 ? 'w' : 'a' });
}

/**
 * Times our one pass and `sha256sum` over `file`, `runs` times each, alternating
 * which goes first, after one warm-up of each (whose digests must agree).
 */
export async function timeFingerprintVsSha256sum(file: string, runs: number): Promise<{ oursMs: number[]; sha256sumMs: number[] }> {
  const ours = async () => (await fingerprintFile(file)).sha256;
  const theirs = async () => (await run('sha256sum', [file])).stdout.split(' ')[0];
  const timed = async (fn: () => Promise<string | undefined>) => {
    const start = performance.now();
    const digest = await fn();
    return { ms: performance.now() - start, digest };
  };

  const warm = [await timed(ours), await timed(theirs)];
  if (warm[0]!.digest !== warm[1]!.digest) throw new Error(`sha256 differs: ours ${warm[0]!.digest}, sha256sum ${warm[1]!.digest}`);

  const oursMs: number[] = [];
  const sha256sumMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      oursMs.push((await timed(ours)).ms);
      sha256sumMs.push((await timed(theirs)).ms);
    } else {
      sha256sumMs.push((await timed(theirs)).ms);
      oursMs.push((await timed(ours)).ms);
    }
  }
  return { oursMs, sha256sumMs };
}

async function main(): Promise<void> {
  const MIB = Number(process.argv[2] ?? 100);
  const RUNS = 5;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-fingerprint-bench-'));
  const file = path.join(dir, 'data.bin');
  try {
    writeRandomFile(file, MIB);
    const { oursMs, sha256sumMs: theirsMs } = await timeFingerprintVsSha256sum(file, RUNS);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const a = median(oursMs);
    const b = median(theirsMs);
    const mbps = (ms: number) => ((MIB * 1024 * 1024) / 1e6 / (ms / 1000)).toFixed(0);
    console.log(`file: ${MIB} MiB, ${RUNS} runs each, alternating, page cache warm`);
    console.log(`one pass md5+sha1+sha256: median ${a.toFixed(0)} ms (${mbps(a)} MB/s)  runs: ${oursMs.map((v) => v.toFixed(0)).join(', ')}`);
    console.log(`sha256sum alone:          median ${b.toFixed(0)} ms (${mbps(b)} MB/s)  runs: ${theirsMs.map((v) => v.toFixed(0)).join(', ')}`);
    console.log(`ratio (ours / sha256sum): ${(a / b).toFixed(2)} (target <= 1.0)`);

    // Where our time goes: each digest alone over the same amount of data in memory.
    const block = randomBytes(1024 * 1024);
    for (const algorithm of ['md5', 'sha1', 'sha256']) {
      const hash = createHash(algorithm);
      const start = performance.now();
      for (let i = 0; i < MIB; i++) hash.update(block);
      hash.digest();
      console.log(`  ${algorithm} alone, in memory: ${(performance.now() - start).toFixed(0)} ms`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
