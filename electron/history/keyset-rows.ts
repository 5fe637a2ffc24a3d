// Reading many rows without a statement open across the caller's awaits: a batch at
// a time, each batch continuing after the last row's key (keyset paging, not OFFSET).
import type { SQLInputValue } from 'node:sqlite';
import type { HistoryDb } from './history-db.ts';

export interface KeysetQuery {
  /** The first batch: `… LIMIT ?` after `params`. */
  first: string;
  /** Every later batch: `… LIMIT ?` after `params` and the last row's key. */
  next: string;
  params: readonly SQLInputValue[];
  /** The key `next` continues after, from the last row of a batch. */
  keyOf: (row: Record<string, unknown>) => SQLInputValue[];
  batch: number;
}

/** Each batch reads committed rows only: writes waiting for their grouped commit are committed first (an export never shows an uncommitted verdict). */
export function* keysetRows(h: HistoryDb, query: KeysetQuery): Generator<Record<string, unknown>> {
  h.flush();
  let rows = h.prepare(query.first).all(...query.params, query.batch);
  while (rows.length > 0) {
    yield* rows;
    if (rows.length < query.batch) return;
    h.flush();
    rows = h.prepare(query.next).all(...query.params, ...query.keyOf(rows[rows.length - 1] as Record<string, unknown>), query.batch);
  }
}
