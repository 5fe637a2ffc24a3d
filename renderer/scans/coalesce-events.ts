// Shrinks one animation frame's worth of scan events before they reach the store.
import type { ScanEvent } from '../../shared/scans/record.ts';

/** Keeps only the last progress per scan and the last counts; records and removals stay in order. */
export function coalesce(events: readonly ScanEvent[]): ScanEvent[] {
  const lastProgress = new Map<string, number>();
  let lastCounts = -1;
  events.forEach((event, i) => {
    if (event.type === 'progress') lastProgress.set(event.progress.id, i);
    else if (event.type === 'counts') lastCounts = i;
  });
  return events.filter((event, i) => {
    if (event.type === 'progress') return lastProgress.get(event.progress.id) === i;
    if (event.type === 'counts') return i === lastCounts;
    return true;
  });
}
