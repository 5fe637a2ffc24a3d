// History retention: keep N days and/or N scans (settings.historyRetention),
// applied at start, when the setting changes and every few hours; and "clear
// history". Only finished scans go (history.ts keeps pending ones and those of
// files in quarantine); the quarantine's own entries are never touched (they
// live in another database). Removals reach the UI as a `removed` ScanEvent.
import type { HistoryRetention } from '../../shared/settings/protection.ts';
import type { History } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { ScanEvents } from '../scans/events.ts';

export const DEFAULT_RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;
const DAY_MS = 86_400_000;

export interface Retention {
  /** Applies the current limits now; returns the ids removed. */
  apply(): string[];
  /** Removes every finished scan (except those of files in quarantine). */
  clear(): string[];
  close(): void;
}

export function startRetention(input: {
  history: Pick<History, 'deleteOlderThan' | 'keepLast' | 'transaction'>;
  retention: () => HistoryRetention;
  events: Pick<ScanEvents, 'removed'>;
  log: Logger;
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

  const apply = (): string[] => {
    const { keepDays, keepScans } = input.retention();
    if (keepDays === undefined && keepScans === undefined) return [];
    // Both set: each removes what it must, so the stricter one wins for every record.
    const ids = input.history.transaction(() => [
      ...(keepDays !== undefined ? input.history.deleteOlderThan(new Date(now() - keepDays * DAY_MS).toISOString()) : []),
      ...(keepScans !== undefined ? input.history.keepLast(keepScans) : []),
    ]);
    return removedNow(ids, 'retention');
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
    clear: () => removedNow(input.history.keepLast(0), 'cleared'),
    close: () => clearInterval(timer),
  };
}
