// Fan-out of scan events to subscribers (UI, tray, CLI). Record events go out
// as they happen; upload progress is throttled per scan and the queue counts
// are coalesced, so a burst of files or a fast upload cannot flood IPC.
import type { QueueCounts, ScanEvent, ScanRecord, UploadProgress } from '../../shared/scans/record.ts';

export interface ScanEvents {
  subscribe(listener: (event: ScanEvent) => void): () => void;
  /** `was`: the id the record had until now (history.ts apply: a job's clean verdict gets its compact id). */
  record(record: ScanRecord, was?: string): void;
  progress(progress: UploadProgress): void;
  /** Records left the history (retention, "clear history"). */
  removed(ids: readonly string[]): void;
  /** Ask for a counts event; computed lazily and sent at most once per interval. */
  countsChanged(): void;
  close(): void;
}

export function createScanEvents(options: {
  counts: () => QueueCounts;
  progressIntervalMs?: number;
  countsIntervalMs?: number;
  onListenerError?: (error: unknown) => void;
}): ScanEvents {
  const progressIntervalMs = options.progressIntervalMs ?? 200;
  const countsIntervalMs = options.countsIntervalMs ?? 100;
  const listeners = new Set<(event: ScanEvent) => void>();
  const lastProgressAt = new Map<string, number>();
  let countsTimer: NodeJS.Timeout | null = null;
  let lastCounts: QueueCounts | null = null;
  let closed = false;

  const emit = (event: ScanEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken subscriber must not stop the pipeline or the others.
        options.onListenerError?.(error);
      }
    }
  };

  const flushCounts = () => {
    countsTimer = null;
    if (closed) return;
    const counts = options.counts();
    if (lastCounts && lastCounts.queued === counts.queued && lastCounts.uploading === counts.uploading && lastCounts.processing === counts.processing) return;
    lastCounts = counts;
    emit({ type: 'counts', counts });
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    record(record, was) {
      if (closed) return;
      // The last progress of a scan is always sent, so drop its throttle state when it moves on.
      if (record.status !== 'uploading') lastProgressAt.delete(record.id);
      if (was !== undefined) lastProgressAt.delete(was);
      emit(was === undefined ? { type: 'record', record } : { type: 'record', record, was });
    },
    progress(progress) {
      if (closed) return;
      const now = Date.now();
      const last = lastProgressAt.get(progress.id);
      const done = progress.sent >= progress.total;
      if (!done && last !== undefined && now - last < progressIntervalMs) return;
      lastProgressAt.set(progress.id, now);
      emit({ type: 'progress', progress });
    },
    removed(ids) {
      if (closed || ids.length === 0) return;
      for (const id of ids) lastProgressAt.delete(id);
      emit({ type: 'removed', ids: [...ids] });
    },
    countsChanged() {
      if (closed || countsTimer) return;
      countsTimer = setTimeout(flushCounts, countsIntervalMs);
    },
    close() {
      closed = true;
      if (countsTimer) clearTimeout(countsTimer);
      countsTimer = null;
      listeners.clear();
      lastProgressAt.clear();
    },
  };
}
