// Reading the compact store as ScanRecords: one file by its id, a verdict to reuse by
// sha256, a job's clean count, and a page of a query's compact files (merged with the
// scans rows by history-reads.ts).
import type { Page, ScanRecord } from '../../../shared/scans/record.ts';
import type { HistoryDb } from '../history-db.ts';
import { BROAD_SEARCH_ROWS, nameMatchQuery, searchCountCap, usesNameIndex, type ParsedHistoryQuery } from '../query-filter.ts';
import { rowToRecord } from '../row-mapping.ts';
import { compactFilter } from './compact-filter.ts';
import { COMPACT_FROM, COMPACT_ID_PREFIX, RECORD_OF_COMPACT, msOf } from './compact-sql.ts';

// Built once (as history-reads.ts's): a text built at each call is hashed again to find its statement.
const BY_ID = `SELECT ${RECORD_OF_COMPACT} FROM ${COMPACT_FROM} WHERE c.id = ?`;
const reusableSql = (byBackend: string) => `SELECT ${RECORD_OF_COMPACT} FROM ${COMPACT_FROM}
       WHERE c.sha256 = unhex(?) AND c.reused_from_id IS NULL AND c.queued_ms + c.completed_ms >= ${msOf('?')} ${byBackend}
       ORDER BY c.queued_ms + c.completed_ms DESC, c.id DESC LIMIT 1`;
const REUSABLE = { any: reusableSql(''), byBackend: reusableSql('AND k.backend = ?') };

export function compactRecordById(h: HistoryDb, id: string): ScanRecord | null {
  if (!id.startsWith(COMPACT_ID_PREFIX)) return null;
  const rowid = Number(id.slice(COMPACT_ID_PREFIX.length));
  if (!Number.isSafeInteger(rowid) || `${COMPACT_ID_PREFIX}${rowid}` !== id) return null;
  const row = h.prepare(BY_ID).get(rowid);
  return row ? rowToRecord(row) : null;
}

/** The latest compact file with this content completed at or after `sinceIso` that did not itself reuse a verdict. */
export function findReusableCompact(h: HistoryDb, sha256: string, sinceIso: string, backend: string | undefined): ScanRecord | null {
  if (!/^[0-9a-f]{64}$/i.test(sha256)) return null;
  const row = backend === undefined ? h.prepare(REUSABLE.any).get(sha256.toLowerCase(), sinceIso) : h.prepare(REUSABLE.byBackend).get(sha256.toLowerCase(), sinceIso, backend);
  return row ? rowToRecord(row) : null;
}

/** How many of a job's clean files are in the compact store. */
export function compactCount(h: HistoryDb, jobId: number): number {
  return Number((h.prepare('SELECT count(*) AS n FROM job_clean_files WHERE job_id = ?').get(jobId) as { n: number }).n);
}

/** Whether any file (of this job) is in the compact store: when none is, a query reads `scans` alone. */
export function hasCompacted(h: HistoryDb, jobId: number | undefined): boolean {
  const row = jobId === undefined ? h.prepare('SELECT 1 FROM job_clean_files LIMIT 1').get() : h.prepare('SELECT 1 FROM job_clean_files WHERE job_id = ? LIMIT 1').get(jobId);
  return row !== undefined;
}

/** The first `want` compact files of the query in its order, and how many match (capped for a search, as countMatches does). */
export function compactPage(h: HistoryDb, query: ParsedHistoryQuery, want: number): Page<ScanRecord> {
  const search = query.search?.trim() ?? '';
  // The trigram index is asked once: its few candidates are then handed to the page and its count by id
  // (a name like "file-777.txt" shares its trigrams with every file of a job; matching it costs milliseconds).
  const candidates = h.compactNames.enabled && usesNameIndex(search) ? h.compactNames.matching(nameMatchQuery(search), BROAD_SEARCH_ROWS + 1) : null;
  const filter = compactFilter(query, candidates !== null && candidates.length <= BROAD_SEARCH_ROWS ? candidates : null);
  const items = h
    .prepare(`SELECT ${RECORD_OF_COMPACT} FROM ${COMPACT_FROM} ${filter.where} ${filter.orderBy} LIMIT ?`)
    .all(...filter.params, want)
    .map(rowToRecord);
  if (items.length < want) return { items, total: items.length };
  const from = `FROM job_clean_files AS c ${filter.where}`;
  if (search === '') return { items, total: Number((h.prepare(`SELECT count(*) AS n ${from}`).get(...filter.params) as { n: number }).n) };
  const cap = searchCountCap(query.offset, query.limit);
  const counted = Number((h.prepare(`SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT ?)`).get(...filter.params, cap + 1) as { n: number }).n);
  return counted > cap ? { items, total: cap, totalIsLowerBound: true } : { items, total: counted };
}
