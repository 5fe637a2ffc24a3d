// History retention: keep N days and/or N scans (settings.historyRetention),
// applied at start, when the setting changes and every few hours; and "clear
// history". Only finished scans go: retention keeps pending ones, threats and those
// of files in quarantine; "clear history" removes threats too (history-writes.ts).
// The quarantine's own entries are never touched (they live in another database). Removals reach the UI as a `removed` ScanEvent. A finished
// scan job counts as one entry; when it goes, its threats and quarantined files stay
// (history/job-retention.ts), and the window hears of it through `jobsRemoved`.
import type { HistoryRetention } from '../../shared/settings/protection.ts';
import type { History } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { ScanEvents } from '../scans/events.ts';

export const DEFAULT_RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;
const DAY_MS = 86_400_000;

export interface Retention {
  /** Applies the current limits now; returns the ids removed. */
  apply(): string[];
  /** Removes every finished scan of its own (except those of files in quarantine) and every finished job (except its threats). */
  clear(): string[];
  close(): void;
}

export function startRetention(input: {
  history: Pick<History, 'deleteOlderThan' | 'keepLast' | 'clearFinished' | 'transaction'> & { jobs: Pick<History['jobs'], 'expireOlderThan' | 'expireBeyond'> };
  retention: () => HistoryRetention;
  events: Pick<ScanEvents, 'removed'>;
  log: Logger;
  /** Finished jobs removed (with their rows, except threats and quarantined files). */
  jobsRemoved?: (ids: number[]) => void;
  intervalMs?: number;
  now?: () => number;
}): Retention {
  const now = input.now ?? Date.now;
  const removedNow = (ids: string[], why: string) => {
    if (ids.length === 0) return ids;
    input.events.removed(ids);
    input.log.info({ removed: ids.length, why }, 'history records removed');
    return ids;
  };

  const jobsRemovedNow = (ids: readonly number[], why: string) => {
    if (ids.length === 0) return;
    input.jobsRemoved?.([...ids]);
    input.log.info({ jobs: ids.length, why }, 'scan jobs removed from history');
  };

  const apply = (): string[] => {
    const { keepDays, keepScans } = input.retention();
    if (keepDays === undefined && keepScans === undefined) return [];
    // Both set: each removes what it must, so the stricter one wins for every record.
    const { history } = input;
    const before = new Date(now() - (keepDays ?? 0) * DAY_MS).toISOString();
    const [ids, jobIds] = history.transaction(() => {
      const byAge = keepDays !== undefined ? [history.deleteOlderThan(before), history.jobs.expireOlderThan(before)] as const : [[], []] as const;
      const byCount = keepScans !== undefined ? [history.keepLast(keepScans), history.jobs.expireBeyond(keepScans)] as const : [[], []] as const;
      return [[...byAge[0], ...byCount[0]], [...byAge[1], ...byCount[1]]] as const;
    });
    jobsRemovedNow(jobIds, 'retention');
    return removedNow([...ids], 'retention');
  };

  // Cheap: both deletes walk an index and usually find nothing; unref'd, so it never keeps a CLI alive.
  const timer = setInterval(() => {
    try {
      apply();
    } catch (error) {
      input.log.warn({ err: error }, 'history retention failed');
    }
  }, input.intervalMs ?? DEFAULT_RETENTION_INTERVAL_MS);
  timer.unref();

  return {
    apply,
    clear: () => {
      const [ids, jobIds] = input.history.transaction(() => [input.history.clearFinished(), input.history.jobs.expireBeyond(0)] as const);
      jobsRemovedNow(jobIds, 'cleared');
      return removedNow([...ids], 'cleared');
    },
    close: () => clearInterval(timer),
  };
}
