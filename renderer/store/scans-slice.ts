// The scan list: a window onto the history (index → id, loaded lazily in pages),
// the loaded records, upload progress, queue counts and the threat count.
//
// `records` is one Map mutated in place, with `recordsVersion` bumped on every
// change: copying a 100,000-entry map per animation frame would stall the UI.
// Each ScanRecord object is immutable, so a row selecting `records.get(id)`
// re-renders only when its own record is replaced.
import type { StateCreator } from 'zustand/vanilla';
import type { Page, QueueCounts, ScanEvent, ScanRecord, UploadProgress } from '../../shared/scans/record.ts';
import { eventsApplied } from './scans-events.ts';
import { pagePlaced } from './scans-page.ts';
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
    const patch = pagePlaced(get(), generation, offset, headInsertsAtRequest, page);
    if (patch) set(patch);
  },

  failList(generation) {
    if (generation === get().listGeneration) set({ listState: 'error' });
  },

  applyEvents(events) {
    if (events.length === 0) return;
    set(eventsApplied(get(), events));
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
