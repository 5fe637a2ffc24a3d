// Why a file the service has accepted is not scanned yet, when the service's engine
// says so: Verdict's own clamd is loading ("Starting ClamAV…"), or ClamAV, expected,
// does not answer. Shown as the pending reason of the files followed at that service.
import { save, type Pipeline } from './context.ts';

/** The reason for files followed at `label` now (null: nothing to wait for). */
export function engineWaitFor(p: Pipeline, label: string): string | null {
  return p.options.engineWait?.(label) ?? null;
}

/** The engine's state changed: every file followed at a service gets that service's reason (or none). */
export function engineWaitChanged(p: Pipeline): void {
  for (const [id, tracked] of p.memory.records) {
    if (tracked.where !== 'following' || tracked.workingAt === null) continue;
    const reason = engineWaitFor(p, tracked.workingAt);
    if (p.history.get(id)?.pendingReason !== reason) save(p, id, { pendingReason: reason });
  }
}
