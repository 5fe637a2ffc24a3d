// RELOAD of Verdict's own clamd, with the "databases loaded" mark (databases-loaded.ts) set only once
// clamd uses the new databases. clamd answers RELOADING at once and keeps scanning with the old
// ones while it loads (ConcurrentDatabaseReload), for seconds or, under load, much longer. Marked
// before that, a verdict given meanwhile would carry the new databases' digest: the recheck and the
// unchanged skip would then take an old database's "clean" as the new one's. Until the mark moves,
// the changed folder has no digest (signatures not known: nothing reused, nothing skipped).
// clamd says when it switches only in its log ("Activating the newly loaded database..."), which
// Verdict's own clamd writes to a file Verdict names (clamd-config.ts); a PING after that line is
// answered once the switch is done (the same loop does both).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ClamdEndpoint } from '../instream/clamd-protocol.ts';
import { clamdAnswers, clamdReload } from './clamd-commands.ts';
import { markDatabasesLoadedAt } from './databases-loaded.ts';
import { ownClamdFiles } from './clamd-config.ts';

const SWITCHED = 'Activating the newly loaded database';
/** "Database reload failed, keeping the previous instance", "Database reload setup failed, …". */
const FAILED = /Database reload (setup )?failed/;

export type ReloadResult = 'loaded' | 'failed' | 'timed_out';

export interface ReloadOptions {
  /** How long clamd may take to load (default 5 minutes: a full database on a slow, busy machine). */
  timeoutMs?: number;
  /** How often its log is read (default 100 ms). */
  pollMs?: number;
}

/**
 * Sends RELOAD (a refusal throws, the mark unchanged) and waits for clamd to switch to the new
 * databases; then marks them loaded as of the moment RELOAD was sent (clamd read the folder after it).
 * A failed or unfinished load leaves the mark where it was.
 */
export async function reloadAndMark(dataDir: string, endpoint: ClamdEndpoint, options: ReloadOptions = {}): Promise<ReloadResult> {
  const log = ownClamdFiles(dataDir).logPath;
  const from = sizeOf(log);
  const sentAtMs = Date.now();
  await clamdReload(endpoint);
  const outcome = await switched(log, from, options);
  if (outcome !== 'loaded') return outcome;
  if (!(await clamdAnswers(endpoint, 5_000))) return 'timed_out';
  markDatabasesLoadedAt(dataDir, sentAtMs);
  return 'loaded';
}

/** Reads the log from `from` until clamd says it switched or failed (a rotated log is read from its start). */
async function switched(log: string, from: number, options: ReloadOptions): Promise<ReloadResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  let offset = from;
  let pending = '';
  for (;;) {
    const size = sizeOf(log);
    if (size < offset) offset = 0;
    if (size > offset) {
      pending += readFrom(log, offset, size - offset);
      offset = size;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes(SWITCHED)) return 'loaded';
        if (FAILED.test(line)) return 'failed';
      }
    }
    if (Date.now() > deadline) return 'timed_out';
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

function sizeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

function readFrom(file: string, offset: number, length: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
