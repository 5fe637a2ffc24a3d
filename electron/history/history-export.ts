// Exporting the history: matching records in order, read in keyset batches so
// no statement stays open across the awaits of writing.
import type { ScanRecord } from '../../shared/scans/record.ts';
import { writeChunks, type ExportTarget } from './export-format.ts';
import type { ExportQuery } from './history.ts';
import { SELECT_COLUMNS, type HistoryDb } from './history-db.ts';
import { buildFilter, parseHistoryQuery } from './query-filter.ts';
import { compactRecords, mergeByQueuedAt } from './job-files/compact-export.ts';
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
  const firstSql = `SELECT ${SELECT_COLUMNS}, seq FROM scans ${filter.where} ${filter.orderBy} LIMIT ?`;
  const nextSql = `SELECT ${SELECT_COLUMNS}, seq FROM scans WHERE ${[...filter.conditions, `(queued_at, seq) ${after} (?, ?)`].join(' AND ')} ${filter.orderBy} LIMIT ?`;
  let rows = h.prepare(firstSql).all(...filter.params, EXPORT_BATCH);
  while (rows.length > 0) {
    for (const row of rows) yield rowToRecord(row);
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1] as { queued_at: string; seq: number };
    rows = h.prepare(nextSql).all(...filter.params, last.queued_at, last.seq, EXPORT_BATCH);
  }
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
