// The compact store's part of a history export: the query's compacted clean files in its
// order, read in keyset batches (no statement stays open across the export's awaits), and
// merged with the scans rows by queued time, so an export holds a job's clean files as
// it did before they were compacted.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { HistoryDb } from '../history-db.ts';
import { keysetRows } from '../keyset-rows.ts';
import type { ParsedHistoryQuery } from '../query-filter.ts';
import { rowToRecord } from '../row-mapping.ts';
import { compactFilter, includesCompacted } from './compact-filter.ts';
import { COMPACT_FROM, RECORD_OF_COMPACT } from './compact-sql.ts';

const BATCH = 500;

export function* compactRecords(h: HistoryDb, query: ParsedHistoryQuery): Generator<ScanRecord> {
  if (!includesCompacted(query)) return;
  const filter = compactFilter(query, null);
  const after = query.order === 'oldest' ? '>' : '<';
  const keyset = `(c.queued_ms, c.id) ${after} (?, ?)`;
  const where = filter.where === '' ? `WHERE ${keyset}` : `${filter.where} AND ${keyset}`;
  const rows = keysetRows(h, {
    first: `SELECT ${RECORD_OF_COMPACT}, c.queued_ms AS at_ms, c.id AS at_id FROM ${COMPACT_FROM} ${filter.where} ${filter.orderBy} LIMIT ?`,
    next: `SELECT ${RECORD_OF_COMPACT}, c.queued_ms AS at_ms, c.id AS at_id FROM ${COMPACT_FROM} ${where} ${filter.orderBy} LIMIT ?`,
    params: filter.params,
    keyOf: (row) => [row.at_ms as number, row.at_id as number],
    batch: BATCH,
  });
  for (const row of rows) yield rowToRecord(row);
}

/** Two streams each in the query's order, as one (the first's record first on a tie). */
export function* mergeByQueuedAt(a: Iterator<ScanRecord>, b: Iterator<ScanRecord>, order: 'oldest' | 'newest'): Generator<ScanRecord> {
  const sign = order === 'oldest' ? 1 : -1;
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && sign * compare(x.value.queuedAt, y.value.queuedAt) <= 0)) {
      yield x.value as ScanRecord;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}

const compare = (p: string, q: string) => (p < q ? -1 : p > q ? 1 : 0);
