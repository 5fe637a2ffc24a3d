// The CLI's scan and watch keep little alive at a time but make much short-lived garbage
// (records, requests, answers). By default V8 lets the heap grow to several times what is
// live before it collects: a scan of 20,000 small files peaked at about 450 MB RSS with a
// main heap of 200 MB holding 30–100 MB. --optimize-for-size keeps the heap near its live
// size (the same scan: about 210 MB RSS, a main heap of 35 MB). Set before the command's
// modules load; V8's flags are per process, so the service thread started later has it too.
import { setFlagsFromString } from 'node:v8';

export function favourMemoryOverSpeed(): void {
  setFlagsFromString('--optimize-for-size');
}

/**
 * The history's SQLite page cache in the CLI, in KiB (the app's is 32 MiB, for the window's list pages).
 * A scan job's writes fill a cache as the history grows, and it stays taken: a 40,000-file scan peaked
 * at 220 MiB RSS with 32 MiB, 187 MiB with 4 MiB, at the same CPU per file. Pages it no longer holds
 * are read again from the OS's file cache.
 */
export const CLI_HISTORY_CACHE_KIB = 4 * 1024;

/**
 * The CLI's core: the small page cache above, and the WAL checkpointed in the core's own commits (SQLite's
 * automatic checkpoint) instead of on a thread of its own. That thread keeps the app's window answering;
 * the CLI has no window, the copying costs the same CPU on either thread, and the thread's V8 isolate and
 * heap are one less: `verdict watch` idles at 134–135 MiB RSS without it, 142–146 MiB with it (a 20,000-file
 * scan's peak varies by ±10 MiB from run to run, about 190–200 MiB either way).
 */
export const CLI_MEMORY_TUNING = {
  historyCacheKib: CLI_HISTORY_CACHE_KIB,
  walCheckpointThread: false,
  // Checkpoints in the core's commits copy every page the WAL holds and fsync: at SQLite's 1,000 pages, a
  // 20,000-file first scan checkpointed about 450 times (909 fsyncs, 849,000 page writes counting the
  // WAL's), the hot pages (index tails, the pointer map) copied again each time. 10,000 pages (40 MiB, cut
  // back when the run ends) and a commit every 250 ms (a local verdict lost in a crash is scanned again):
  // written 1.7 GB -> 1.0 GB, the core's thread in commits 8.5 -> 4.1 s (profiles of the same scan).
  walAutocheckpointPages: 10_000,
  historyCommitWindowMs: 250,
  // The CLI waits for the job's compaction before it exits: a clean file moved with its verdict is written
  // once, not three times (20,000-file first scan: CPU 42-48 s -> 39 s). The app compacts after the job, when
  // nothing waits, and keeps that work out of the job the window watches (bench case 17, one run each: 427
  // files/s and an event loop max of 55 ms without the move, 350 and 141 ms with it).
  compactOnVerdict: true,
} as const;
