// CPU time per thread of a process, from /proc/<pid>/task/*/stat (Linux), to
// say where a case's CPU went: this process's main thread, the embedded
// service's worker thread, libuv's pool, V8's GC helpers; or another process
// (clamd). Threads are grouped by name (`comm`). Elsewhere: nothing (null).
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

export type ThreadTimes = Map<string, { name: string; ms: number }>;

export function threadTimes(pid: number | 'self' = 'self'): ThreadTimes | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const times: ThreadTimes = new Map();
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat; here (after the name) indexes 11 and 12.
      times.set(tid, { name, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return times;
}

/** CPU ms per thread name between two readings (threads that started in between count from 0). */
export function cpuBetween(before: ThreadTimes, after: ThreadTimes): Map<string, number> {
  const byName = new Map<string, number>();
  for (const [tid, { name, ms }] of after) {
    const spent = ms - (before.get(tid)?.ms ?? 0);
    if (spent > 0) byName.set(name, (byName.get(name) ?? 0) + spent);
  }
  return byName;
}

/** `MainThread 1.52, verdict-local-s 1.31, …` in ms per item, largest first. */
export function describePerItem(cpu: Map<string, number>, items: number): string {
  return [...cpu]
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${(ms / items).toFixed(2)}`)
    .join(', ');
}

/** The process whose command line contains `needle` (e.g. a config path only it was given), or null. */
export function pidWithArgument(needle: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(needle))) return Number(entry);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return null;
}
