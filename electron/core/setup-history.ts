// The core's history capability: the scan history database and this install's
// id, the scan events that report its changes, retention, and the history API.
import { ok } from '../../shared/result.ts';
import type { CoreApi } from '../../shared/bridge/api.ts';
import { exportHistory } from '../history/export-history.ts';
import { openHistory, type History } from '../history/history.ts';
import type { Jobs } from '../jobs/jobs.ts';
import { createScanEvents, type ScanEvents } from '../scans/events.ts';
import { loadInstallId } from '../scans/reference.ts';
import type { CoreContext, Guard } from './core-context.ts';
import { startRetention, type Retention } from './retention.ts';

export async function setupHistory(ctx: CoreContext): Promise<{ history: History; installId: string }> {
  const { log } = ctx;
  // NORMAL, not FULL: in WAL mode a process crash loses nothing and nothing is ever corrupted;
  // only a power cut can drop the last commits. FULL costs an fsync (~7 ms here) per write on the
  // main thread, several per file.
  const history = openHistory(ctx.dataDir, {
    synchronous: 'NORMAL',
    // The app's core thread answers the window: copying the WAL into the file is done beside it (the CLI's: in its commits).
    checkpointThread: ctx.tuning.walCheckpointThread !== false,
    ...(ctx.tuning.historyCacheKib !== undefined ? { cacheKib: ctx.tuning.historyCacheKib } : {}),
    ...(ctx.tuning.walAutocheckpointPages !== undefined ? { walAutocheckpointPages: ctx.tuning.walAutocheckpointPages } : {}),
    ...(ctx.tuning.historyCommitWindowMs !== undefined ? { commitWindowMs: ctx.tuning.historyCommitWindowMs } : {}),
    ...(ctx.tuning.compactOnVerdict === true ? { compactOnVerdict: true } : {}),
    // Grouped writes lost this way are redone at the next start (recovery looks the scans up). Their files
    // never hear of a verdict now, so the run cannot end by itself: the failure goes to the process's
    // handlers, as the pipeline's storage failures do (the CLI: a full disk's line and exit 2; the app: logged).
    onLateCommitError: (error) => {
      log.warn({ err: error }, 'a grouped history commit failed');
      void Promise.reject(error);
    },
  });
  ctx.onClose(async () => {
    await history.stopCheckpoints();
    history.close();
  });
  if (history.warning) log.warn({ warning: history.warning }, 'history');
  const installId = await loadInstallId(ctx.dataDir);
  return { history, installId };
}

export function setupScanEvents(ctx: CoreContext, history: History): ScanEvents {
  const events = createScanEvents({
    counts: () => history.counts(),
    onListenerError: (error) => ctx.log.warn({ err: error }, 'a scan event listener failed'),
  });
  ctx.onClose(() => events.close());
  return events;
}

export interface HistoryRetention {
  retention: Retention;
  /** Applies the retention settings now; a failure is logged, never thrown. */
  apply(): void;
}

/** Started once the pipeline runs; applied at once, and again when its setting changes. */
export function setupRetention(ctx: CoreContext, history: History, events: ScanEvents, jobs: Pick<Jobs, 'removed'>): HistoryRetention {
  const { log, settings } = ctx;
  const retention = startRetention({
    history,
    retention: () => settings.get().historyRetention,
    events,
    log,
    jobsRemoved: (ids) => jobs.removed(ids),
    intervalMs: ctx.tuning.retentionIntervalMs,
  });
  ctx.onClose(() => retention.close());
  const apply = () => {
    try {
      retention.apply();
    } catch (error) {
      log.warn({ err: error }, 'history retention failed');
    }
  };
  apply();
  return { retention, apply };
}

export function historyApi(guard: Guard, history: History, retention: Retention): CoreApi['history'] {
  return {
    clear: () => guard('Clearing the history', () => ok({ removed: retention.clear().length })),
    export: (target, exportOptions) => guard('Exporting the history', () => exportHistory(history, target, exportOptions)),
  };
}
