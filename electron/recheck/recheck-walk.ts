// The recheck job's walk (a JobWalk in place of its roots'): the files first seen within the
// window and judged clean under other signatures than those in use, read from the history in
// batches through its first-seen index, each still on disk with the identity it had when it was
// judged (device, inode, size, mtime, ctime). A file changed since is not rechecked as if it were
// the file judged: it is left to the scans that see it change.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RecheckStore, SeenFile } from '../history/recheck-candidates.ts';
import type { FileIdentity } from '../history/unchanged-files.ts';
import { fsPath } from '../file-names/fs-path.ts';
import type { JobWalk } from '../jobs/walk-job.ts';

const BATCH = 500;
export const DAY_MS = 86_400_000;

export interface RecheckWalkInput {
  store: Pick<RecheckStore, 'candidates' | 'forget'>;
  /** The signature key in use now (signatures-in-use.ts). */
  keyNow: () => string | null;
  /** The window in days (0: off). */
  windowDays: () => number;
  now: () => number;
  /** Per running recheck job: each file it handed to the pipeline, by path (findings link to its earlier scan). */
  selected: Map<number, Map<string, SeenFile>>;
  /** Per recheck job: the signature key it judges under (its clean verdicts are remembered under it). */
  keys: Map<number, string>;
  /** Files in the scan pipeline's line or in flight now, the recheck's own among them: it gives way to any other (low priority). */
  filesInFlight?: () => number;
}

/** How often a recheck that gave way looks again whether the other scans are done. */
const GIVE_WAY_MS = 200;

export function recheckWalk(input: RecheckWalkInput): JobWalk {
  return async function* walk(run) {
    const { state } = run;
    const key = input.keyNow();
    const days = input.windowDays();
    if (key === null || days <= 0) return;
    const since = input.now() - days * DAY_MS;
    input.keys.set(state.id, key);
    const picked = input.selected.get(state.id) ?? new Map<string, SeenFile>();
    input.selected.set(state.id, picked);
    let after: { firstSeenMs: number; dev: string; ino: string } | null = null;
    for (;;) {
      const batch = input.store.candidates(since, key, BATCH, after);
      if (batch.length === 0) break;
      for (const seen of batch) {
        after = { firstSeenMs: seen.firstSeenMs, dev: seen.file.dev, ino: seen.file.ino };
        if (run.cancelled || run.stopping) return;
        const now = await identityNow(seen.path);
        if (now === null || !sameIdentity(now, seen.file)) {
          // Changed or gone since it was judged: no longer the file judged clean (its next scan judges it anew).
          input.store.forget(seen.file);
          continue;
        }
        state.counts.found++;
        state.counts.bytes += now.size;
        state.currentFolder = path.dirname(seen.path);
        picked.set(seen.path, seen);
        // Recorded before a restart: counted as found, not judged twice.
        if (run.recorded?.has(seen.path)) continue;
        // Low priority: while other files (a drop, a watched folder, another job) are in the pipeline, none is added.
        while (input.filesInFlight && input.filesInFlight() > run.pending.size && !run.cancelled && !run.stopping) await delay(GIVE_WAY_MS);
        yield { ok: true, path: seen.path, size: now.size, mtimeMs: Number(BigInt(now.mtimeNs) / 1_000_000n) };
      }
    }
    run.recorded = null;
  };
}

async function identityNow(file: string): Promise<FileIdentity | null> {
  try {
    const info = await stat(fsPath(file), { bigint: true });
    if (!info.isFile()) return null;
    return { dev: String(info.dev), ino: String(info.ino), size: Number(info.size), mtimeNs: String(info.mtimeNs), ctimeNs: String(info.ctimeNs) };
  } catch {
    return null;
  }
}

export const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

export { identityNow };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
