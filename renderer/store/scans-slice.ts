// The scan list: a window onto the history (index → id, loaded lazily in pages),
// the loaded records, upload progress, queue counts and the threat count.
//
// `records` is one Map mutated in place, with `recordsVersion` bumped on every
// change: copying a 100,000-entry map per animation frame would stall the UI.
// Each ScanRecord object is immutable, so a row selecting `records.get(id)`
// re-renders only when its own record is replaced.
import type { StateCreator } from 'zustand/vanilla';
import type { Page, QueueCounts, ScanEvent, ScanRecord, UploadProgress } from '../../shared/scans/record.ts';
import { matchesFilters } from '../scans/filters.ts';
import type { VerdictStore } from './store.ts';

export type ListState = 'loading' | 'ready' | 'error';

export interface ScansSlice {
  /** Bumped whenever the list is reset; page answers for an older generation are dropped. */
  listGeneration: number;
  listState: ListState;
  /** Newest first; `undefined` where the page has not been loaded yet. Length = total. */
  ids: (string | undefined)[];
  /** The history counted a broad search only so far: at least `ids.length` match, and later pages extend the list. */
  totalIsLowerBound: boolean;
  records: Map<string, ScanRecord>;
  recordsVersion: number;
  /** How many records were put at the head since the reset (page offsets shift by that). */
  headInserts: number;
  progress: Readonly<Record<string, UploadProgress>>;
  counts: QueueCounts;
  threatCount: number;

  /** Empties the list for a new query; returns the new generation. */
  resetList(): number;
  /** Places a page fetched at `offset` when `headInsertsAtRequest` head inserts had happened. */
  receivePage(generation: number, offset: number, headInsertsAtRequest: number, page: Page<ScanRecord>): void;
  failList(generation: number): void;
  /** Merges a batch of live events (one animation frame's worth). */
  applyEvents(events: readonly ScanEvent[]): void;
  /** Keeps a record outside the list window (e.g. the one the detail panel shows). */
  putRecord(record: ScanRecord): void;
  setCounts(counts: QueueCounts): void;
  setThreatCount(count: number): void;
}

export const createScansSlice: StateCreator<VerdictStore, [], [], ScansSlice> = (set, get) => ({
  listGeneration: 0,
  listState: 'loading',
  ids: [],
  totalIsLowerBound: false,
  records: new Map(),
  recordsVersion: 0,
  headInserts: 0,
  progress: {},
  counts: { queued: 0, uploading: 0, processing: 0 },
  threatCount: 0,

  resetList() {
    const { listGeneration, records, selectedId } = get();
    // Keep only the selected record so the detail panel survives a filter change.
    const selected = selectedId ? records.get(selectedId) : undefined;
    const fresh = new Map<string, ScanRecord>();
    if (selected) fresh.set(selected.id, selected);
    const generation = listGeneration + 1;
    set({
      listGeneration: generation,
      listState: 'loading',
      ids: [],
      totalIsLowerBound: false,
      records: fresh,
      recordsVersion: get().recordsVersion + 1,
      headInserts: 0,
    });
    return generation;
  },

  receivePage(generation, offset, headInsertsAtRequest, page) {
    const state = get();
    if (generation !== state.listGeneration) return;
    for (const record of page.items) state.records.set(record.id, record);
    const pageIds = page.items.map((record) => record.id);
    if (state.listState !== 'ready') {
      // The first answer for this query (offset 0). Live events may have put records at
      // the head meanwhile; keep those the page does not already hold.
      const inPage = new Set(pageIds);
      const early = state.ids.filter((id): id is string => id !== undefined && !inPage.has(id));
      const ids: (string | undefined)[] = [...early, ...pageIds];
      ids.length = Math.max(ids.length, early.length + page.total);
      set({ ids, listState: 'ready', totalIsLowerBound: page.totalIsLowerBound === true, headInserts: early.length, recordsVersion: state.recordsVersion + 1 });
      return;
    }
    // Records put at the head since the request shifted this page down.
    const shift = state.headInserts - headInsertsAtRequest;
    const start = offset + shift;
    const ids = state.ids.slice();
    pageIds.forEach((id, i) => {
      ids[start + i] = id;
    });
    if (!state.totalIsLowerBound) {
      set({ ids, recordsVersion: state.recordsVersion + 1 });
      return;
    }
    // A page further on counted further: the list grows, and ends where an exact count says.
    const total = page.total + shift;
    if (page.totalIsLowerBound) ids.length = Math.max(ids.length, total);
    else ids.length = Math.max(total, start + pageIds.length);
    set({ ids, totalIsLowerBound: page.totalIsLowerBound === true, recordsVersion: state.recordsVersion + 1 });
  },

  failList(generation) {
    if (generation === get().listGeneration) set({ listState: 'error' });
  },

  applyEvents(events) {
    if (events.length === 0) return;
    const state = get();
    const { records, filters } = state;
    let ids = state.ids;
    let progress = state.progress;
    let counts = state.counts;
    let selectedId = state.selectedId;
    let checked = state.checked;
    let recordsChanged = false;
    let headInserts = state.headInserts;
    const toRemove = new Set<string>();
    const toPrepend: string[] = [];

    for (const event of events) {
      switch (event.type) {
        case 'record': {
          const record = event.record;
          const known = records.has(record.id);
          const matches = matchesFilters(record, filters);
          if (known) {
            records.set(record.id, record);
            recordsChanged = true;
            if (!matches) {
              toRemove.add(record.id);
              // Only the selected record lives outside the list; others leave the map with it.
              if (record.id !== selectedId) records.delete(record.id);
            } else if (toRemove.delete(record.id)) {
              // Matched again within the same batch: it never left the list.
            } else if (record.id === selectedId && !ids.includes(record.id) && isNewest(record, ids, records)) {
              toPrepend.push(record.id);
            }
          } else if (matches && isNewest(record, ids, records)) {
            records.set(record.id, record);
            recordsChanged = true;
            toRemove.delete(record.id);
            toPrepend.push(record.id);
          }
          if (record.status !== 'uploading' && progress[record.id]) {
            const { [record.id]: _done, ...rest } = progress;
            progress = rest;
          }
          break;
        }
        case 'progress':
          progress = { ...progress, [event.progress.id]: event.progress };
          break;
        case 'counts':
          counts = event.counts;
          break;
        case 'removed':
          for (const id of event.ids) {
            if (records.delete(id)) recordsChanged = true;
            toRemove.add(id);
            if (selectedId === id) selectedId = null;
            if (checked.has(id)) checked = new Set([...checked].filter((other) => other !== id));
          }
          break;
      }
    }

    if (toRemove.size > 0 || toPrepend.length > 0) {
      const prepend = new Set(toPrepend.filter((id) => !toRemove.has(id)).reverse());
      const next: (string | undefined)[] = [...prepend];
      headInserts += next.length;
      // A plain loop: Array#filter would skip the holes of pages not loaded yet.
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (id !== undefined && (toRemove.has(id) || prepend.has(id))) continue;
        next.push(id);
      }
      ids = next;
    }

    set({
      ids,
      progress,
      counts,
      selectedId,
      checked,
      headInserts,
      ...(recordsChanged ? { recordsVersion: state.recordsVersion + 1 } : {}),
    });
  },

  putRecord(record) {
    const state = get();
    state.records.set(record.id, record);
    set({ recordsVersion: state.recordsVersion + 1 });
  },

  setCounts(counts) {
    set({ counts });
  },

  setThreatCount(threatCount) {
    set({ threatCount });
  },
});

/**
 * New scans are the newest; a record older than the newest loaded one belongs
 * somewhere inside the list, where the next page load will put it.
 */
function isNewest(record: ScanRecord, ids: readonly (string | undefined)[], records: ReadonlyMap<string, ScanRecord>): boolean {
  const headId = ids[0];
  if (headId === undefined) return ids.length === 0;
  const head = records.get(headId);
  return !head || record.queuedAt >= head.queuedAt;
}
