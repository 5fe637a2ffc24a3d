// Issue 26's memory goal: the peak RSS of one `verdict scan` of 200,000 distinct small files
// (a fresh data dir, Verdict's local engine path on a named clamd), as a user runs it. The
// peak is the process's VmHWM (the kernel's high-water mark, which covers every thread:
// the core, the engine's and the fingerprint's), read from /proc while it runs. The run
// also checks the promise: every file is reported once.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startClamd } from '../../support/clamd.ts';
import type { BenchCase } from './bench-case.ts';
import { writeSmallTree } from './support/small-tree.ts';
import { fromSamples } from './support/statistics.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(REPO, 'bin/verdict.mjs');
/** The kernel's high-water mark of a process's resident set, in KiB (null once it is gone). */
async function peakKib(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const match = status ? /^VmHWM:\s+(\d+) kB/m.exec(status) : null;
  return match ? Number(match[1]) : null;
}

interface MemoryRun {
  peakMib: number;
  ms: number;
  code: number | null;
  reported: number;
}

async function scanOnce(args: string[], outFile: string): Promise<MemoryRun> {
  const out = createWriteStream(outFile);
  await new Promise((resolve) => out.once('open', resolve));
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', out, 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-4000)));
  let peak = 0;
  // VmHWM only grows: the last reading before the exit is the peak, give or take the last 200 ms.
  const poll = setInterval(() => void peakKib(child.pid ?? -1).then((kib) => (peak = Math.max(peak, kib ?? 0))), 200);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  clearInterval(poll);
  out.close();
  if (code === null || code > 3) throw new Error(`verdict ${args.join(' ')} ended with ${code}: ${stderr}`);
  const reported = (await readFile(outFile, 'utf8')).split('\n').filter((line) => line.startsWith('{')).length;
  return { peakMib: peak / 1024, ms: performance.now() - started, code, reported };
}

export const cliMemoryCase: BenchCase = {
  id: 'cli-memory',
  title: 'memory: one CLI scan of 200,000 small files, clamd engine',
  needs: ['clamd'],
  reps: { full: 1, quick: 1 },
  async run(context) {
    const files = context.quick ? 2_000 : 200_000;
    const clamd = await startClamd();
    if (!clamd) throw new Error('clamd did not start');
    const tree = path.join(context.tmp, 'tree');
    try {
      await writeSmallTree(tree, files);
      const samples: number[] = [];
      let note = '';
      for (let rep = 0; rep < context.reps; rep += 1) {
        const dataDir = await mkdtemp(path.join(context.tmp, 'data-'));
        const args = ['scan', '--json', '--data-dir', dataDir, '--clamd', `unix:${clamd.socketPath}`, tree];
        const run = await scanOnce(args, path.join(context.tmp, 'scan.out'));
        await rm(dataDir, { recursive: true, force: true });
        if (run.reported !== files) throw new Error(`the CLI reported ${run.reported} of ${files} files (exit ${run.code})`);
        note = `verdict scan --json --clamd unix:… (fresh data dir): ${run.reported} files reported, exit ${run.code}, ${((files / run.ms) * 1000).toFixed(0)} files/s`;
        context.log(`cli memory rep ${rep + 1}/${context.reps}: peak ${run.peakMib.toFixed(0)} MiB; ${note}`);
        samples.push(run.peakMib);
      }
      const size = files.toLocaleString('en-US');
      return [fromSamples({ name: `peak RSS, ${size} files`, unit: 'MiB', target: { on: 'ours', op: '<=', value: 200, text: '≤ 200 MiB' }, note: `${note}; VmHWM from /proc` }, samples)];
    } finally {
      await rm(tree, { recursive: true, force: true });
      await clamd.stop();
    }
  },
};
