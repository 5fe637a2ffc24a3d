// Peak resident memory of a process, from /proc (Linux). Writing 5 to
// /proc/<pid>/clear_refs resets VmHWM to the current VmRSS (Linux >= 4.0), so
// VmHWM afterwards is the exact peak of the window, with no sampling gaps;
// where that is not allowed, VmRSS is sampled every 5 ms instead.
import { readFileSync, writeFileSync } from 'node:fs';

const MIB = 1024 * 1024;

/** VmRSS and VmHWM of `pid` ('self' for this process), in bytes. */
export function memoryOf(pid: number | 'self'): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

function resetPeak(pid: number | 'self'): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface PeakProbe {
  /** How the peak was taken: the kernel's high-water mark, or 5 ms samples. */
  readonly method: 'hwm' | 'sampled';
  /** Peak RSS growth over the window so far, in MiB. */
  stop(): number;
}

/** Starts a window: growth = peak RSS during the window minus RSS at its start. */
export function startPeakProbe(pid: number | 'self'): PeakProbe {
  if (resetPeak(pid)) {
    const base = memoryOf(pid).rss;
    return { method: 'hwm', stop: () => (Math.max(memoryOf(pid).hwm, base) - base) / MIB };
  }
  const base = memoryOf(pid).rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 5);
  return {
    method: 'sampled',
    stop() {
      clearInterval(sampler);
      peak = Math.max(peak, memoryOf(pid).rss);
      return (peak - base) / MIB;
    },
  };
}
