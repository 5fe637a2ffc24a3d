// The store's reducers: pages placed lazily, live events merged (newest first,
// filters honoured, holes of unloaded pages kept), progress, counts, reset.
import { beforeEach, describe, expect, it } from 'vitest';
import { queuedRecord, type ScanRecord } from '../../shared/scans/record.ts';
import { coalesce } from '../../renderer/scans/coalesce-events.ts';
import { matchesFilters, NO_FILTERS, pageQuery } from '../../renderer/scans/filters.ts';
import { selectLocale } from '../../renderer/store/settings-slice.ts';
import { createVerdictStore, resetStore } from '../../renderer/store/store.ts';
import { defaultSettings } from '../../shared/settings/settings.ts';

let serial = 0;
function record(overrides: Partial<ScanRecord> = {}): ScanRecord {
  serial++;
  return {
    ...queuedRecord({ id: `id-${serial}`, path: `/files/file-${serial}.txt`, fileName: `file-${serial}.txt`, origin: 'dialog', backend: 'local', externalReferenceId: `ref-${serial}`, queuedAt: new Date(Date.UTC(2025, 0, 1) + serial * 1000).toISOString() }),
    size: 10,
    ...overrides,
  };
}

const completed = (base: ScanRecord, safe: boolean): ScanRecord => ({ ...base, status: 'completed', safe, detailed: safe ? 'clean' : 'infected' });

let store = createVerdictStore();
beforeEach(() => {
  store = createVerdictStore();
});

/** Loads `total` records newest first, with only the first `loaded` in the first page. */
function loadFirstPage(records: ScanRecord[], total = records.length): void {
  const generation = store.getState().resetList();
  store.getState().receivePage(generation, 0, 0, { items: records, total });
}

describe('pages', () => {
  it('places the first page and leaves holes for the rest', () => {
    const newest = [record(), record()].reverse();
    loadFirstPage(newest, 5);
    const { ids, listState } = store.getState();
    expect(listState).toBe('ready');
    expect(ids.length).toBe(5);
    expect(ids.slice(0, 2)).toEqual(newest.map((r) => r.id));
    expect(ids[4]).toBeUndefined();
  });

  it('drops an answer for an older query', () => {
    const old = store.getState().resetList();
    store.getState().resetList();
    store.getState().receivePage(old, 0, 0, { items: [record()], total: 1 });
    expect(store.getState().listState).toBe('loading');
    expect(store.getState().ids).toEqual([]);
  });

  it('shifts a later page by the records put at the head since it was requested', () => {
    loadFirstPage([record()], 4);
    const requestedAt = store.getState().headInserts;
    const fresh = record();
    store.getState().applyEvents([{ type: 'record', record: fresh }]);
    const page = [record(), record()];
    store.getState().receivePage(store.getState().listGeneration, 2, requestedAt, { items: page, total: 4 });
    const { ids } = store.getState();
    expect(ids[0]).toBe(fresh.id);
    expect(ids.slice(3, 5)).toEqual(page.map((r) => r.id));
    expect(ids.length).toBe(5);
  });

  it('keeps records that arrived by event before the first page, without duplicates', () => {
    const generation = store.getState().resetList();
    const early = record();
    const both = record();
    store.getState().applyEvents([{ type: 'record', record: both }, { type: 'record', record: early }]);
    store.getState().receivePage(generation, 0, 0, { items: [both], total: 1 });
    expect(store.getState().ids).toEqual([early.id, both.id]);
  });

  it('grows a list whose total is a lower bound as later pages count further, and ends it at an exact total', () => {
    const generation = store.getState().resetList();
    const first = [record(), record()];
    store.getState().receivePage(generation, 0, 0, { items: first, total: 4, totalIsLowerBound: true });
    expect(store.getState()).toMatchObject({ totalIsLowerBound: true });
    expect(store.getState().ids.length).toBe(4);

    // A live scan at the head since the request shifts the next page and its count by one.
    const requestedAt = store.getState().headInserts;
    const fresh = record({ queuedAt: '2030-01-01T00:00:00.000Z' });
    store.getState().applyEvents([{ type: 'record', record: fresh }]);
    const second = [record(), record()];
    store.getState().receivePage(generation, 2, requestedAt, { items: second, total: 8, totalIsLowerBound: true });
    expect(store.getState().ids.length).toBe(9);
    expect(store.getState().ids.slice(3, 5)).toEqual(second.map((r) => r.id));
    expect(store.getState().totalIsLowerBound).toBe(true);

    const third = [record(), record()];
    store.getState().receivePage(generation, 5, requestedAt + 1, { items: third, total: 7 });
    expect(store.getState().ids.length).toBe(7);
    expect(store.getState().ids.slice(5)).toEqual(third.map((r) => r.id));
    expect(store.getState().totalIsLowerBound).toBe(false);

    // An exact list keeps its length whatever a later page says, and a new query starts exact.
    store.getState().receivePage(generation, 5, requestedAt + 1, { items: third, total: 100, totalIsLowerBound: true });
    expect(store.getState().ids.length).toBe(7);
    store.getState().resetList();
    expect(store.getState().totalIsLowerBound).toBe(false);
  });
});

describe('live events', () => {
  it('puts a new scan at the top and updates a known one in place', () => {
    const older = record();
    loadFirstPage([older]);
    const fresh = record();
    store.getState().applyEvents([{ type: 'record', record: fresh }]);
    expect(store.getState().ids).toEqual([fresh.id, older.id]);
    const done = completed(older, true);
    store.getState().applyEvents([{ type: 'record', record: done }]);
    expect(store.getState().ids).toEqual([fresh.id, older.id]);
    expect(store.getState().records.get(older.id)).toBe(done);
  });

  it('keeps the holes of pages not loaded yet when it inserts', () => {
    loadFirstPage([record()], 3);
    store.getState().applyEvents([{ type: 'record', record: record() }]);
    const { ids } = store.getState();
    expect(ids.length).toBe(4);
    expect(ids[2]).toBeUndefined();
    expect(ids[3]).toBeUndefined();
  });

  it('honours the filters: a scan that stops matching leaves the list, one that never matched stays out', () => {
    store.getState().setFilters({ status: 'queued' });
    const queued = record();
    loadFirstPage([queued]);
    store.getState().applyEvents([{ type: 'record', record: completed(record(), true) }]);
    expect(store.getState().ids).toEqual([queued.id]);
    store.getState().applyEvents([{ type: 'record', record: completed(queued, true) }]);
    expect(store.getState().ids).toEqual([]);
    expect(store.getState().records.has(queued.id)).toBe(false);
  });

  it('keeps the selected scan’s record when it leaves the filtered list', () => {
    store.getState().setFilters({ verdict: 'pending' });
    const pending = record();
    loadFirstPage([pending]);
    store.getState().select(pending.id);
    const threat = completed(pending, false);
    store.getState().applyEvents([{ type: 'record', record: threat }]);
    expect(store.getState().ids).toEqual([]);
    expect(store.getState().records.get(pending.id)).toBe(threat);
  });

  it('does not insert an old scan that belongs inside the unloaded part of the list', () => {
    const old = record();
    const newest = record();
    loadFirstPage([newest], 100);
    store.getState().applyEvents([{ type: 'record', record: { ...old, status: 'completed', safe: true } }]);
    expect(store.getState().ids.filter(Boolean)).toEqual([newest.id]);
  });

  it('tracks upload progress per scan and forgets it when the upload ends', () => {
    const scan = record({ status: 'uploading' });
    loadFirstPage([scan]);
    store.getState().applyEvents([{ type: 'progress', progress: { id: scan.id, sent: 5, total: 10 } }]);
    expect(store.getState().progress[scan.id]).toEqual({ id: scan.id, sent: 5, total: 10 });
    store.getState().applyEvents([{ type: 'record', record: { ...scan, status: 'processing' } }]);
    expect(store.getState().progress[scan.id]).toBeUndefined();
  });

  it("keeps no progress for scans the list does not hold (a job's files), and never changes the state it replaces", () => {
    const scan = record({ status: 'uploading' });
    loadFirstPage([scan]);
    store.getState().applyEvents([{ type: 'progress', progress: { id: scan.id, sent: 1, total: 10 } }]);
    const before = store.getState().progress;
    const jobFiles = Array.from({ length: 500 }, (_, i) => ({ type: 'progress' as const, progress: { id: `job-file-${i}`, sent: 10, total: 10 } }));
    store.getState().applyEvents([...jobFiles, { type: 'progress', progress: { id: scan.id, sent: 6, total: 10 } }, { type: 'record', record: { ...scan, status: 'processing' } }]);
    expect(store.getState().progress).toEqual({});
    // The earlier state is untouched: subscribers compare by reference.
    expect(before).toEqual({ [scan.id]: { id: scan.id, sent: 1, total: 10 } });
  });

  it('a progress update changes only the progress map, not the list or the records', () => {
    const scan = record({ status: 'uploading' });
    loadFirstPage([scan]);
    const { ids, recordsVersion } = store.getState();
    store.getState().applyEvents([{ type: 'progress', progress: { id: scan.id, sent: 1, total: 10 } }]);
    expect(store.getState().ids).toBe(ids);
    expect(store.getState().recordsVersion).toBe(recordsVersion);
  });

  it('applies counts and removals, and a removed selection is cleared', () => {
    const a = record();
    const b = record();
    loadFirstPage([b, a]);
    store.getState().select(a.id);
    store.getState().applyEvents([
      { type: 'counts', counts: { queued: 3, uploading: 1, processing: 2 } },
      { type: 'removed', ids: [a.id] },
    ]);
    expect(store.getState().counts).toEqual({ queued: 3, uploading: 1, processing: 2 });
    expect(store.getState().ids).toEqual([b.id]);
    expect(store.getState().selectedId).toBeNull();
  });
});

describe('coalescing a frame of events', () => {
  it('keeps the last progress per scan and the last counts; records stay in order', () => {
    const a = record();
    const events = coalesce([
      { type: 'progress', progress: { id: 'x', sent: 1, total: 9 } },
      { type: 'record', record: a },
      { type: 'counts', counts: { queued: 1, uploading: 0, processing: 0 } },
      { type: 'progress', progress: { id: 'x', sent: 5, total: 9 } },
      { type: 'progress', progress: { id: 'y', sent: 2, total: 9 } },
      { type: 'counts', counts: { queued: 0, uploading: 1, processing: 0 } },
    ]);
    expect(events).toEqual([
      { type: 'record', record: a },
      { type: 'progress', progress: { id: 'x', sent: 5, total: 9 } },
      { type: 'progress', progress: { id: 'y', sent: 2, total: 9 } },
      { type: 'counts', counts: { queued: 0, uploading: 1, processing: 0 } },
    ]);
  });
});

describe('filters', () => {
  it('become a history query, leaving out what is not filtered', () => {
    expect(pageQuery(NO_FILTERS, 200, 100)).toEqual({ offset: 200, limit: 100, order: 'newest', jobRows: 'threats' });
    expect(pageQuery({ status: 'failed', verdict: 'could-not-scan', search: '  abc ' }, 0, 50)).toEqual({
      statuses: ['failed'],
      verdicts: ['could-not-scan'],
      search: 'abc',
      offset: 0,
      limit: 50,
      order: 'newest',
      jobRows: 'threats',
    });
  });

  it('keep a scan job’s files out of the list, except its threats (the job has a row of its own)', () => {
    const scan = record({ fileName: 'in-a-job.txt', jobId: 4 });
    expect(matchesFilters(scan, NO_FILTERS)).toBe(false);
    expect(matchesFilters(completed(scan, true), NO_FILTERS)).toBe(false);
    expect(matchesFilters({ ...scan, status: 'failed' }, NO_FILTERS)).toBe(false);
    expect(matchesFilters(completed(scan, false), NO_FILTERS)).toBe(true);
    expect(matchesFilters(completed(record({ fileName: 'single.txt' }), true), NO_FILTERS)).toBe(true);
  });

  it('match names by substring and digests by prefix, ignoring case', () => {
    const scan = record({ fileName: 'Invoice-2025.PDF', sha256: 'ab12cd' + '0'.repeat(58) });
    expect(matchesFilters(scan, { ...NO_FILTERS, search: 'voice' })).toBe(true);
    expect(matchesFilters(scan, { ...NO_FILTERS, search: 'AB12' })).toBe(true);
    expect(matchesFilters(scan, { ...NO_FILTERS, search: '12cd' })).toBe(false);
    expect(matchesFilters(completed(scan, false), { ...NO_FILTERS, verdict: 'unsafe' })).toBe(true);
    expect(matchesFilters({ ...scan, status: 'failed' }, { ...NO_FILTERS, verdict: 'safe' })).toBe(false);
  });
});

describe('settings and reset', () => {
  it('speaks the chosen language, or the system one for "system"', () => {
    const state = { settings: defaultSettings(), systemLanguage: 'de' as const };
    expect(selectLocale(state)).toBe('de');
    expect(selectLocale({ ...state, settings: { ...state.settings, language: 'en' } })).toBe('en');
    expect(selectLocale({ settings: null, systemLanguage: 'en' })).toBe('en');
  });

  it('resetStore returns to the initial state with a fresh record map', () => {
    const scan = record();
    loadFirstPage([scan]);
    store.getState().setFilters({ search: 'x' });
    store.getState().notify('info', 'detail.copied');
    resetStore(store);
    const state = store.getState();
    expect(state.ids).toEqual([]);
    expect(state.records.size).toBe(0);
    expect(state.filters).toEqual(NO_FILTERS);
    expect(state.notice).toBeNull();
    expect(state.listGeneration).toBe(0);
  });
});
