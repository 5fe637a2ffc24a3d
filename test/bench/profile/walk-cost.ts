// The walk's cost on the core's thread (issue 26 §5): expandPaths over a folder, as a scan job
// walks it, and the thread's own CPU from /proc (the thread pool's lstat calls are not counted),
// beside `find -printf` listing and stat'ing the same tree. Linux only.
//   node test/bench/profile/walk-cost.ts DIR [RUNS]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';

const [dir, runsArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: walk-cost.ts DIR [RUNS]');

/** This thread's CPU (user + system) in ms, from /proc/self/task/<pid>/stat (clock ticks of 10 ms). */
function threadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

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
