// Reading the history: single records, reuse candidates, recovery's pending
// rows, and the list's pages with their totals.
import type { SQLInputValue } from 'node:sqlite';
import type { Disposition, HistoryQuery, Page, QueueCounts, ScanRecord } from '../../shared/scans/record.ts';
import { many, one, SELECT_COLUMNS, type HistoryDb } from './history-db.ts';
import { includesCompacted } from './job-files/compact-filter.ts';
import { compactPage, compactRecordById, findReusableCompact, hasCompacted } from './job-files/compact-reads.ts';
import { BROAD_SEARCH_ROWS, buildFilter, nameMatchQuery, parseHistoryQuery, searchCountCap, usesNameIndex, type ParsedHistoryQuery, type SqlFilter } from './query-filter.ts';


// Built once: the statement cache finds a statement by its text, and a text built at each call is hashed
// again (a kilobyte or two, twice per file on the pipeline's hot path).
const BY_ID = `SELECT ${SELECT_COLUMNS} FROM scans WHERE id = ?`;
const BY_REFERENCE = `SELECT ${SELECT_COLUMNS} FROM scans WHERE external_reference_id = ?`;
const reusableSql = (backend: string) => `SELECT ${SELECT_COLUMNS} FROM scans
     WHERE sha256 = ? AND completed_at >= ? AND status = 'completed' AND safe IS NOT NULL
       AND reused_from_id IS NULL ${backend}
     ORDER BY completed_at DESC, seq DESC LIMIT 1`;
const REUSABLE = { any: reusableSql(''), byBackend: reusableSql('AND backend = ?') };

export const recordById = (h: HistoryDb, id: string): ScanRecord | null => one(h, BY_ID, id) ?? compactRecordById(h, id);

export const recordByReference = (h: HistoryDb, ref: string): ScanRecord | null => one(h, BY_REFERENCE, ref);

export function findReusable(h: HistoryDb, sha256: string, sinceIso: string, options: { backend?: string }): ScanRecord | null {
  const params: SQLInputValue[] = [sha256.toLowerCase(), sinceIso];
  if (options.backend !== undefined) params.push(options.backend);
  const wide = one(h, options.backend === undefined ? REUSABLE.any : REUSABLE.byBackend, ...params);
  // A finished job's clean files are in the compact store: the later of the two (the wide row on a tie).
  const compact = findReusableCompact(h, sha256, sinceIso, options.backend);
  if (!compact) return wide;
  return wide && (wide.completedAt ?? '') >= (compact.completedAt ?? '') ? wide : compact;
}

export const listPending = (h: HistoryDb): ScanRecord[] =>
  many(h, `SELECT ${SELECT_COLUMNS} FROM scans WHERE status IN ('queued', 'uploading', 'processing') ORDER BY queued_at, seq`);

export function withDisposition(h: HistoryDb, disposition: Disposition, options: { sha256?: string }): ScanRecord[] {
  if (options.sha256 === undefined) return many(h, `SELECT ${SELECT_COLUMNS} FROM scans WHERE disposition = ? ORDER BY queued_at, seq`, disposition);
  return many(h, `SELECT ${SELECT_COLUMNS} FROM scans WHERE sha256 = ? AND disposition = ? ORDER BY queued_at, seq`, options.sha256.toLowerCase(), disposition);
}

/**
 * Threats and allowed threats with a finding of this detection name, oldest first, at most `limit`
 * (issue 28 §1). Read through the verdict index: only those rows are looked at; the name is looked
 * for in the findings' JSON, then confirmed on a finding's name (a damaged cell matches nothing).
 */
export function withFindingName(h: HistoryDb, name: string, limit: number): ScanRecord[] {
  return many(
    h,
    `SELECT ${SELECT_COLUMNS} FROM scans
     WHERE verdict IN ('unsafe', 'allowed') AND instr(findings_json, json_quote(?1)) > 0
       AND EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(findings_json) THEN findings_json ELSE '[]' END) AS finding
                   WHERE json_extract(finding.value, '$.name') = ?1)
     ORDER BY queued_at, seq LIMIT ?2`,
    name,
    limit,
  );
}

export function counts(h: HistoryDb): QueueCounts {
  const result: QueueCounts = { queued: 0, uploading: 0, processing: 0 };
  const rows = h.prepare(`SELECT status, count(*) AS n FROM scans WHERE status IN ('queued', 'uploading', 'processing') GROUP BY status`).all() as Array<{
    status: keyof QueueCounts;
    n: number;
  }>;
  for (const row of rows) result[row.status] = Number(row.n);
  return result;
}

export function queryPage(h: HistoryDb, query: HistoryQuery): Page<ScanRecord> {
  const parsed: ParsedHistoryQuery = parseHistoryQuery(query);
  return h.readTransaction(() => (includesCompacted(parsed) && hasCompacted(h, parsed.job) ? mergedPage(h, parsed) : scansPage(h, parsed)));
}

/**
 * A query that reaches a finished job's clean files: the first offset + limit of each store in
 * the query's order, merged (a job's page is tens of rows: its clean files are only searched).
 */
function mergedPage(h: HistoryDb, parsed: ParsedHistoryQuery): Page<ScanRecord> {
  const want = parsed.offset + parsed.limit;
  const wide = scansPage(h, { ...parsed, offset: 0, limit: want });
  const compact = compactPage(h, parsed, want);
  const sign = parsed.order === 'oldest' ? 1 : -1;
  // Within one store the order is already right (a stable sort keeps it); across them, by queued time.
  const items = [...wide.items, ...compact.items]
    .sort((a, b) => sign * (a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0))
    .slice(parsed.offset, want);
  const lowerBound = wide.totalIsLowerBound === true || compact.totalIsLowerBound === true;
  return { items, total: wide.total + compact.total, ...(lowerBound ? { totalIsLowerBound: true as const } : {}) };
}

function scansPage(h: HistoryDb, parsed: ParsedHistoryQuery): Page<ScanRecord> {
  const filter = buildFilter(parsed, { useNameIndex: useNameIndex(h, parsed.search) });
  const items = many(h, pageSql(filter), ...filter.params, parsed.limit, parsed.offset);
  // A page that stops short is the end of the list: it gives the total without counting.
  if (items.length < parsed.limit && (items.length > 0 || parsed.offset === 0)) return { items, total: parsed.offset + items.length };
  return { items, ...countMatches(h, filter, parsed) };
}

/** Few name matches: start from them. Many: walking an index in page order and testing each name beats sorting them all. */
const useNameIndex = (h: HistoryDb, search: string | undefined): boolean =>
  h.nameIndex.enabled && search !== undefined && usesNameIndex(search) && h.nameIndex.count(nameMatchQuery(search), BROAD_SEARCH_ROWS + 1) <= BROAD_SEARCH_ROWS;

/**
 * The total for a full page. Exact, except for a search: it counts up to
 * searchCountCap() and says when more match, because a broad search tests every
 * name (10–17 ms on 100,000 rows). Capped whichever plan runs, so the answer
 * never depends on the plan.
 */
function countMatches(h: HistoryDb, filter: SqlFilter, parsed: ParsedHistoryQuery): Pick<Page<ScanRecord>, 'total' | 'totalIsLowerBound'> {
  const capped = (parsed.search?.trim() ?? '') !== '';
  if (!capped) return { total: Number((h.prepare(countSql(filter, false)).get(...filter.params) as { n: number }).n) };
  const cap = searchCountCap(parsed.offset, parsed.limit);
  const counted = Number((h.prepare(countSql(filter, true)).get(...filter.params, cap + 1) as { n: number }).n);
  return counted > cap ? { total: cap, totalIsLowerBound: true } : { total: counted };
}

/** The statement of a page of scans rows (its last two parameters: LIMIT and OFFSET). */
export const pageSql = (filter: SqlFilter): string => `SELECT ${SELECT_COLUMNS} FROM ${filter.pageFrom} ${filter.where} ${filter.orderBy} LIMIT ? OFFSET ?`;

/** The statement of a full page's total; `capped` (a search): it counts at most its last parameter's rows. */
export function countSql(filter: SqlFilter, capped: boolean): string {
  const from = `FROM ${filter.countFrom} ${filter.countWhere}`;
  return capped ? `SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT ?)` : `SELECT count(*) AS n ${from}`;
}
