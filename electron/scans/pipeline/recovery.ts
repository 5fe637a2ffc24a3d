// Start and close. Start is crash recovery: every row history holds unfinished is
// picked up again (followed scans first, their uploads are done), then work starts.
// Close stops all work in a state start picks up again.
import { save, notifyIdle, type Pipeline } from './context.ts';
import { enqueue, forget, trackRecord, type AbortReason } from './memory.ts';

export function recover(p: Pipeline): void {
  const memory = p.memory;
  if (memory.started || memory.closed) return;
  memory.started = true;
  const pending = p.history.listPending();
  if (pending.length > 0) p.log?.info('resuming unfinished scans', { count: pending.length });
  // A job started with basic checks only (the CLI's --basic-only) keeps that for its rows sent again.
  const basicOnlyJobs = new Set(pending.length > 0 ? (p.history.jobs?.unfinishedBasicOnly() ?? []) : []);
  p.history.transaction(() => {
    for (const record of pending) {
      if (memory.records.has(record.id)) continue;
      const { id } = record;
      const route = { path: record.path, origin: record.origin };
      const basicOnly = record.jobId !== undefined && basicOnlyJobs.has(record.jobId);
      // Followed scans first (their uploads are done), then the rest in their original order.
      if (record.serviceScanId) {
        trackRecord(memory, { id, route, forced: false, basicOnly, lookupFirst: false, consentedTo: null, waitsForItsPath: false });
        if (record.status !== 'processing' || record.pendingReason) save(p, id, { status: 'processing', pendingReason: null });
        enqueue(memory, id, true);
      } else {
        // Sent before the crash: the service may have it, so its reference is looked up before sending again.
        const rescan = record.origin === 'rescan';
        trackRecord(memory, { id, route, forced: rescan, basicOnly, lookupFirst: Boolean(record.submittedAt), consentedTo: null, waitsForItsPath: !rescan });
        if (record.status !== 'queued' || record.pendingReason) save(p, id, { status: 'queued', pendingReason: null });
        enqueue(memory, id);
      }
    }
  });
  p.events.countsChanged();
  p.pump();
  notifyIdle(p);
}

export async function shutDown(p: Pipeline): Promise<void> {
  const memory = p.memory;
  if (memory.closed) return;
  memory.closed = true;
  for (const lane of memory.lanes.values()) {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    lane.waiting.clear();
  }
  for (const record of memory.records.values()) {
    if (record.retryTimer) clearTimeout(record.retryTimer);
    record.retryTimer = null;
    record.controller?.abort('closing' satisfies AbortReason);
  }
  await Promise.allSettled([...memory.running]);
  memory.ready.clear();
  for (const id of [...memory.records.keys()]) forget(memory, id);
  notifyIdle(p);
}
