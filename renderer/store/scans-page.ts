// Placing a page of the history into the list window: the first page of a
// query keeps records live events put at the head meanwhile; later pages shift
// by the head inserts since their request, and a search counted only so far
// grows the list when a page further on counts further.
import type { Page, ScanRecord } from '../../shared/scans/record.ts';
import type { VerdictStore } from './store.ts';

type PagePatch = Partial<Pick<VerdictStore, 'ids' | 'listState' | 'totalIsLowerBound' | 'headInserts' | 'recordsVersion'>>;

/** What placing `page` (fetched at `offset` after `headInsertsAtRequest` head inserts) changes; null for a stale generation. */
export function pagePlaced(state: VerdictStore, generation: number, offset: number, headInsertsAtRequest: number, page: Page<ScanRecord>): PagePatch | null {
  if (generation !== state.listGeneration) return null;
  for (const record of page.items) state.records.set(record.id, record);
  const pageIds = page.items.map((record) => record.id);
  if (state.listState !== 'ready') {
    // The first answer for this query (offset 0). Live events may have put records at
    // the head meanwhile; keep those the page does not already hold.
    const inPage = new Set(pageIds);
    const early = state.ids.filter((id): id is string => id !== undefined && !inPage.has(id));
    const ids: (string | undefined)[] = [...early, ...pageIds];
    ids.length = Math.max(ids.length, early.length + page.total);
    return { ids, listState: 'ready', totalIsLowerBound: page.totalIsLowerBound === true, headInserts: early.length, recordsVersion: state.recordsVersion + 1 };
  }
  // Records put at the head since the request shifted this page down.
  const shift = state.headInserts - headInsertsAtRequest;
  const start = offset + shift;
  const ids = state.ids.slice();
  pageIds.forEach((id, i) => {
    ids[start + i] = id;
  });
  if (!state.totalIsLowerBound) {
    return { ids, recordsVersion: state.recordsVersion + 1 };
  }
  // A page further on counted further: the list grows, and ends where an exact count says.
  const total = page.total + shift;
  if (page.totalIsLowerBound) ids.length = Math.max(ids.length, total);
  else ids.length = Math.max(total, start + pageIds.length);
  return { ids, totalIsLowerBound: page.totalIsLowerBound === true, recordsVersion: state.recordsVersion + 1 };
}
