// Merging a batch of live events (one animation frame's worth) into the list:
// records replaced in place, new ones at the head when they are the newest,
// those no longer matching the filters or removed taken out, progress and
// counts updated. `records` is mutated in place (see scans-slice.ts).
import type { ScanEvent, ScanRecord, UploadProgress } from '../../shared/scans/record.ts';
import { matchesFilters } from '../scans/filters.ts';
import type { VerdictStore } from './store.ts';

type EventsPatch = Partial<Pick<VerdictStore, 'ids' | 'progress' | 'counts' | 'selectedId' | 'checked' | 'headInserts' | 'recordsVersion'>>;

export function eventsApplied(state: VerdictStore, events: readonly ScanEvent[]): EventsPatch {
  const { records, filters } = state;
  let ids = state.ids;
  // Copied at most once per batch, then changed in place: a copy per event made a batch of n
  // events cost n times the map's size (a 20,000-file job froze the window for 34 s, bench case 17).
  let progress = state.progress;
  let ownProgress: Record<string, UploadProgress> | null = null;
  const writableProgress = () => {
    ownProgress ??= { ...progress };
    progress = ownProgress;
    return ownProgress;
  };
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
        if (record.status !== 'uploading' && progress[record.id]) delete writableProgress()[record.id];
        break;
      }
      case 'progress':
        // Only a scan the list holds shows its progress (a job's files never do): nothing to keep for others.
        if (records.has(event.progress.id)) writableProgress()[event.progress.id] = event.progress;
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

  return {
    ids,
    progress,
    counts,
    selectedId,
    checked,
    headInserts,
    ...(recordsChanged ? { recordsVersion: state.recordsVersion + 1 } : {}),
  };
}

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
