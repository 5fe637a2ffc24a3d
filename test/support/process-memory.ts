/**
 * Memory of another process, read from /proc (Linux): its resident set now and
 * its peak (VmHWM), which the kernel keeps, so a short spike between two samples
 * is never missed. Used to show that a service streams instead of buffering.
 */
import { readFile, writeFile } from 'node:fs/promises';

export interface ProcessMemory {
  /** Resident set size, bytes. */
  rss: number;
  /** Peak resident set size since start (or since the last resetPeak), bytes. */
  peak: number;
}

export async function processMemory(pid: number): Promise<ProcessMemory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match?.[1]) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/**
 * Resets the peak to the current RSS (writing 5 to /proc/PID/clear_refs, Linux ≥ 4.0).
 * Returns false when the kernel refuses (then compare against the old peak).
 */
export async function resetPeak(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export const MiB = 1024 * 1024;
