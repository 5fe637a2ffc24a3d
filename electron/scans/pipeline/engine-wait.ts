// Why a file the service has accepted is not scanned yet, when the service's engine
// says so: Verdict's own clamd is loading ("Starting ClamAV…"), or ClamAV, expected,
// does not answer. Shown as the pending reason of the files followed at that service.
import { save, type Pipeline } from './context.ts';
import { PENDING_REASONS } from './options.ts';

const ENGINE_REASONS: ReadonlySet<string> = new Set([PENDING_REASONS.engineStarting, PENDING_REASONS.engineWaiting]);

/** The reason for files followed at `label` now (null: nothing to wait for). */
export function engineWaitFor(p: Pipeline, label: string): string | null {
  return p.options.engineWait?.(label) ?? null;
}

/** The engine's state changed: every file sent to (a sync upload waits there) or followed at a service gets that service's reason. */
export function engineWaitChanged(p: Pipeline): void {
  for (const [id, tracked] of p.memory.records) {
    if ((tracked.where !== 'following' && tracked.where !== 'active') || tracked.workingAt === null) continue;
    const record = p.history.get(id);
    if (!record || (record.status !== 'uploading' && record.status !== 'processing')) continue;
    // Another wait (fingerprinting, …) is not the engine's to replace.
    if (record.pendingReason !== null && !ENGINE_REASONS.has(record.pendingReason)) continue;
    const reason = engineWaitFor(p, tracked.workingAt);
    if (record.pendingReason !== reason) save(p, id, { pendingReason: reason });
  }
}
