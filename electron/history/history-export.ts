// Exporting the history: matching records in order, read in keyset batches so
// no statement stays open across the awaits of writing.
import type { ScanRecord } from '../../shared/scans/record.ts';
import { writeChunks, type ExportTarget } from './export-format.ts';
import type { ExportQuery } from './history.ts';
import { SELECT_COLUMNS, type HistoryDb } from './history-db.ts';
import { buildFilter, parseHistoryQuery } from './query-filter.ts';
import { compactRecords, mergeByQueuedAt } from './job-files/compact-export.ts';
import { keysetRows } from './keyset-rows.ts';
import { rowToRecord } from './row-mapping.ts';

const EXPORT_BATCH = 500;

/** The scans rows and the compacted clean files of jobs that match, merged in the query's order. */
function iterate(h: HistoryDb, query: ExportQuery): Generator<ScanRecord> {
  const parsed = parseHistoryQuery({ ...query, offset: 0, limit: 1 });
  return mergeByQueuedAt(scansRecords(h, parsed), compactRecords(h, parsed), parsed.order);
}

function* scansRecords(h: HistoryDb, parsed: ReturnType<typeof parseHistoryQuery>): Generator<ScanRecord> {
  const filter = buildFilter(parsed);
  const after = parsed.order === 'oldest' ? '>' : '<';
  const rows = keysetRows(h, {
    first: `SELECT ${SELECT_COLUMNS}, seq FROM scans ${filter.where} ${filter.orderBy} LIMIT ?`,
    next: `SELECT ${SELECT_COLUMNS}, seq FROM scans WHERE ${[...filter.conditions, `(queued_at, seq) ${after} (?, ?)`].join(' AND ')} ${filter.orderBy} LIMIT ?`,
    params: filter.params,
    keyOf: (row) => [row.queued_at as string, row.seq as number],
    batch: EXPORT_BATCH,
  });
  for (const row of rows) yield rowToRecord(row);
}

export async function exportWith(
  h: HistoryDb,
  render: (records: Iterable<ScanRecord>) => Iterable<string>,
  target: ExportTarget,
  query: ExportQuery,
): Promise<{ rows: number }> {
  let rows = 0;
  const counted = function* () {
    for (const record of iterate(h, query)) {
      rows += 1;
      yield record;
    }
  };
  await writeChunks(target, render(counted()));
  return { rows };
}
