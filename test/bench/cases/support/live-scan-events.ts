// Scan events at a fixed rate for the renderer case, as a burst of watched
// files would produce them: each new file is queued (prepended to the list),
// then uploading with progress, processing, and completed. Wraps a CoreApi so
// the test bridge delivers these next to the core's own events.
import { randomUUID } from 'node:crypto';
import type { CoreApi } from '../../../../shared/bridge/api.ts';
import { queuedRecord, type ScanEvent, type ScanRecord } from '../../../../shared/scans/record.ts';

export interface LiveEvents {
  api: CoreApi;
  /** Emits `perSecond` events for `ms` milliseconds; resolves with how many were sent. */
  run(perSecond: number, ms: number): Promise<number>;
}

export function withLiveEvents(core: CoreApi): LiveEvents {
  const listeners = new Set<(event: ScanEvent) => void>();
  const api: CoreApi = {
    ...core,
    scans: {
      ...core.scans,
      onEvent(listener) {
        const off = core.scans.onEvent(listener);
        listeners.add(listener);
        return () => {
          off();
          listeners.delete(listener);
        };
      },
    },
  };
  const emit = (event: ScanEvent) => {
    for (const listener of listeners) listener(event);
  };

  let serial = 0;
  const newRecord = (): ScanRecord => {
    const n = serial++;
    const now = new Date().toISOString();
    return {
      ...queuedRecord({ id: randomUUID(), path: `/home/user/Downloads/live/live-${n}.bin`, fileName: `live-${n}.bin`, origin: 'watch', backend: 'local', externalReferenceId: `verdict/bench/live-${n}`, queuedAt: now }),
      size: 4096 + n,
      mode: 'async',
    };
  };

  // One file's life is five events; files overlap, one stage apart.
  let stages: ScanRecord[] = [];
  const nextEvent = (k: number): ScanEvent => {
    switch (k % 5) {
      case 0: {
        const record = newRecord();
        stages = [record, ...stages].slice(0, 4);
        return { type: 'record', record };
      }
      case 1: {
        const record = stages[1] ?? stages[0]!;
        return { type: 'record', record: { ...record, status: 'uploading', submittedAt: new Date().toISOString() } };
      }
      case 2: {
        const record = stages[1] ?? stages[0]!;
        return { type: 'progress', progress: { id: record.id, sent: (record.size ?? 0) / 2, total: record.size ?? 0 } };
      }
      case 3: {
        const record = stages[2] ?? stages[0]!;
        return { type: 'record', record: { ...record, status: 'processing', serviceScanId: randomUUID(), submittedAt: record.queuedAt } };
      }
      default: {
        const record = stages[3] ?? stages[0]!;
        return {
          type: 'record',
          record: { ...record, status: 'completed', safe: true, detailed: 'clean', fileType: 'application/octet-stream', completedAt: new Date().toISOString(), durationMs: 12 },
        };
      }
    }
  };

  return {
    api,
    run(perSecond, ms) {
      return new Promise((resolve) => {
        let sent = 0;
        const started = performance.now();
        // Due events are computed from the clock, so timer jitter does not change the rate.
        const timer = setInterval(() => {
          const elapsed = Math.min(performance.now() - started, ms);
          const due = Math.floor((elapsed * perSecond) / 1000);
          while (sent < due) emit(nextEvent(sent++));
          if (elapsed >= ms) {
            clearInterval(timer);
            resolve(sent);
          }
        }, 10);
      });
    },
  };
}
