// The walk's cost on the core's thread (issue 26 §5): expandPaths over a folder, as a scan job
// walks it, and the thread's own CPU from /proc (the thread pool's lstat calls are not counted),
// beside `find -printf` listing and stat'ing the same tree. Linux only.
//   node test/bench/profile/walk-cost.ts DIR [RUNS]
import { execFileSync } from 'node:child_process';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { threadTimes } from '../cases/support/thread-cpu.ts';

const [dir, runsArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: walk-cost.ts DIR [RUNS]');

/** This thread's CPU (user + system) in ms: the main thread's task id is the process id. */
const threadCpuMs = () => threadTimes()?.get(String(process.pid))?.ms ?? Number.NaN;

for (let run = 0; run < Number(runsArg ?? 3); run++) {
  const cpu = threadCpuMs();
  const started = performance.now();
  let files = 0;
  for await (const item of expandPaths([dir])) if (item.ok) files++;
  const ms = performance.now() - started;
  const findStarted = performance.now();
  execFileSync('find', [dir, '-printf', '%i %s %T@ %C@\\n'], { maxBuffer: 1 << 28 });
  const findMs = performance.now() - findStarted;
  console.log(`${files} files: walk ${ms.toFixed(0)} ms, core thread CPU ${threadCpuMs() - cpu} ms; find -printf ${findMs.toFixed(0)} ms`);
}
