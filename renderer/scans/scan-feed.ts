// Feeds the store from the core: pages of the history loaded lazily as the list
// scrolls, live scan events batched (ten times a second at most, in an animation
// frame), the queue counts and the threat count. Takes its API and scheduler as arguments so it runs in tests.
import { notifyFailure } from '../bridge/error-notice.ts';
import type { StoreApi } from 'zustand/vanilla';
import type { VerdictApi } from '../../shared/bridge/api.ts';
import type { Result } from '../../shared/result.ts';
import { verdictOf, type ScanEvent } from '../../shared/scans/record.ts';
import { coalesce } from './coalesce-events.ts';
import { pageQuery } from './filters.ts';
import type { VerdictStore } from '../store/store.ts';

export const PAGE_SIZE = 200;

// The window's frame clock, declared here because the file is also typechecked with Node's types (its tests).
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare function cancelAnimationFrame(handle: number): void;

/** Runs `flush` once soon; returns a cancel function. */
export type Scheduler = (flush: () => void) => () => void;

/**
 * The first animation frame at least `gapMs` after the previous flush, with a timer
 * as a backstop: frames stop while the window is hidden (e.g. in the tray), and
 * events must not pile up unbounded then. Each flush costs about the same however
 * many events it holds (the list's ids and the virtualizer's 100,000 rows are
 * walked once, the visible rows rendered), so at 1,000 events a second ten flushes
 * a second leave the window's thread free where sixty kept it busy (benchmark case 10).
 */
export function pacedFrames(gapMs: number): Scheduler {
  let lastFlush = -Infinity;
  return (flush) => {
    let done = false;
    let frame = 0;
    const run = (): void => {
      if (done) return;
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(wait);
      clearTimeout(backstop);
      lastFlush = performance.now();
      flush();
    };
    const delay = Math.max(0, lastFlush + gapMs - performance.now());
    const wait = setTimeout(() => (frame = requestAnimationFrame(run)), delay);
    const backstop = setTimeout(run, delay + 250);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(wait);
      clearTimeout(backstop);
    };
  };
}

/** Live events reach the list ten times a second at most: often enough to follow, not once per frame. */
export const frameScheduler: Scheduler = pacedFrames(100);

export interface ScanFeed {
  /** Makes sure rows first..last (inclusive) are loaded or loading. */
  ensureRange(first: number, last: number): void;
  /** Drops the list and loads it again for the current filters. */
  reload(): void;
  refreshThreatCount(): void;
  dispose(): void;
}

export function startScanFeed(scans: VerdictApi['scans'], store: StoreApi<VerdictStore>, schedule: Scheduler = frameScheduler): ScanFeed {
  let buffer: ScanEvent[] = [];
  let cancelFlush: (() => void) | null = null;
  let disposed = false;
  /** Page requests made, keyed by generation, head inserts and page number. */
  const requested = new Set<string>();

  const report = <T>(result: Result<T>): T | undefined => {
    if (result.ok) return result.value;
    notifyFailure(store.getState(), result.error);
    return undefined;
  };

  const loadPage = (page: number): void => {
    const { listGeneration: generation, headInserts, filters } = store.getState();
    const key = `${generation}:${headInserts}:${page}`;
    if (requested.has(key)) return;
    requested.add(key);
    const offset = page * PAGE_SIZE;
    scans.list(pageQuery(filters, offset, PAGE_SIZE)).then(
      (result) => {
        if (disposed) return;
        const value = report(result);
        if (value) store.getState().receivePage(generation, offset, headInserts, value);
        else store.getState().failList(generation);
      },
      () => {
        if (!disposed) store.getState().failList(generation);
      },
    );
  };

  let threatQuery: 'idle' | 'running' | 'again' = 'idle';
  const refreshThreatCount = (): void => {
    if (threatQuery !== 'idle') {
      threatQuery = 'again';
      return;
    }
    threatQuery = 'running';
    scans.list({ verdicts: ['unsafe'], offset: 0, limit: 1 }).then(
      (result) => {
        if (disposed) return;
        if (result.ok) store.getState().setThreatCount(result.value.total);
        const again = threatQuery === 'again';
        threatQuery = 'idle';
        if (again) refreshThreatCount();
      },
      () => {
        threatQuery = 'idle';
      },
    );
  };

  const flush = (): void => {
    cancelFlush = null;
    const events = coalesce(buffer);
    buffer = [];
    // Checked before applying: the record map is updated in place.
    const { records } = store.getState();
    const wasThreat = (id: string): boolean => {
      const known = records.get(id);
      return known !== undefined && verdictOf(known) === 'unsafe';
    };
    const threatsMayHaveChanged = events.some(
      (event) => event.type === 'removed' || (event.type === 'record' && (verdictOf(event.record) === 'unsafe' || wasThreat(event.record.id))),
    );
    store.getState().applyEvents(events);
    if (threatsMayHaveChanged) refreshThreatCount();
  };

  const unsubscribeEvents = scans.onEvent((event) => {
    buffer.push(event);
    cancelFlush ??= schedule(flush);
  });

  const reload = (): void => {
    store.getState().resetList();
    loadPage(0);
  };

  const unsubscribeStore = store.subscribe((state, previous) => {
    if (state.filters !== previous.filters) reload();
  });

  scans.counts().then((result) => {
    if (!disposed && result.ok) store.getState().setCounts(result.value);
  }, () => undefined);
  refreshThreatCount();
  reload();

  return {
    ensureRange(first, last) {
      const { ids } = store.getState();
      const end = Math.min(last, ids.length - 1);
      for (let page = Math.floor(first / PAGE_SIZE); page * PAGE_SIZE <= end; page++) {
        const from = page * PAGE_SIZE;
        const to = Math.min(from + PAGE_SIZE - 1, end);
        for (let i = Math.max(from, first); i <= to; i++) {
          if (ids[i] === undefined) {
            loadPage(page);
            break;
          }
        }
      }
    },
    reload,
    refreshThreatCount,
    dispose() {
      disposed = true;
      cancelFlush?.();
      unsubscribeEvents();
      unsubscribeStore();
    },
  };
}
