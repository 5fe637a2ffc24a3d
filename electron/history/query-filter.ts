// Turns a HistoryQuery into SQL: the WHERE clause (statuses, verdicts, search)
// and the ORDER BY, with parameters. Verdicts filter on the generated `verdict`
// column, which is defined with the same rules as verdictOf(), except that it reads a
// clean answer of basic checks only as 'safe': other columns tell that apart here (a file
// scanned in part reads 'partial' since migration 17).
import type { SQLInputValue } from 'node:sqlite';
import { SCANNED_IN_PART_LABEL } from '../../shared/scans/coverage.ts';
import { BASIC_CHECKS_CLEAN_LABEL, historyQuerySchema, type HistoryQuery, type Verdict } from '../../shared/scans/record.ts';
import type { z } from 'zod';
import { toStoredText } from '../sqlite/stored-text.ts';
import { DIGEST_PREFIX_CHARS, NOT_CLEAN, SAFE_VERDICT_SQL } from './migrations.ts';

export type ParsedHistoryQuery = z.infer<typeof historyQuerySchema>;

export interface SqlFilter {
  /** The conditions, to be joined with AND (empty: every row). */
  conditions: string[];
  /** `WHERE …` or the empty string. */
  where: string;
  params: SQLInputValue[];
  /** `ORDER BY …` matching the query's order. */
  orderBy: string;
  /**
   * The WHERE of the page's total: `where` with what follows from it made explicit, when that lets
   * SQLite count from an index range (the page itself keeps the plain WHERE: its plan walks in page order).
   */
  countWhere: string;
  /**
   * The FROM of the page's total. A main-list total that scans_listed_count answers alone names that
   * index: on a large history's statistics SQLite otherwise counted it through a MULTI-INDEX OR of the
   * list's two halves, reading every row (bench case 12: 55-70 ms instead of 1-2 ms).
   */
  countFrom: string;
  /**
   * The FROM of the page. Where the main list walks scans_listed in page order (no filter, a name search
   * that tests each name, or a `+`-unindexed clean/completed filter) it names that index: on a large
   * history's statistics SQLite chose a MULTI-INDEX OR of the list's two halves and sorted every row
   * (0.3-0.5 s a page of 100,000 scans, on the thread that answers the window; issue 26 §5).
   */
  pageFrom: string;
}

const HEX = /^[0-9a-f]{1,64}$/;
/** Characters the trigram index needs to answer a substring search. */
const TRIGRAM = 3;

/**
 * Parses (applies defaults to) a query; throws a ZodError on a malformed one. The search is in
 * the names' stored form (sqlite/stored-text.ts), which is what LIKE and the trigram indexes see.
 */
export function parseHistoryQuery(query: HistoryQuery): ParsedHistoryQuery {
  const parsed = historyQuerySchema.parse(query);
  return parsed.search === undefined ? parsed : { ...parsed, search: toStoredText(parsed.search) };
}

export interface FilterOptions {
  /**
   * Start from the name index's candidates (few matches). Otherwise (no index,
   * a short search, or many matches) the query walks a page-order index and
   * tests each name, which beats fetching and sorting many matches.
   * history.ts decides from a cheap count on the name index.
   */
  useNameIndex?: boolean;
}

/** Whether a search is long enough for the trigram index (else a LIKE scan). */
export function usesNameIndex(search: string | undefined): boolean {
  const term = search?.trim() ?? '';
  // FTS5 refuses NUL in a phrase ("unterminated string"); such a search matches nothing anyway (buildFilter).
  return !term.includes('\0') && [...term].length >= TRIGRAM;
}

/**
 * Above this many name matches a search walks an index (or, in the compact store, tests each name of the
 * job) instead of starting from the trigram index's candidates (measured in test/bench/history.ts).
 */
export const BROAD_SEARCH_ROWS = 2000;

/** A search that walks the rows counts its matches in steps of this many (see searchCountCap). */
export const SEARCH_COUNT_STEP = 1000;

/**
 * How many matches a page query at `offset` counts when its search walks the
 * rows: past the end of the page, to the next multiple of SEARCH_COUNT_STEP
 * (1,000, 2,000, …). Counting all 12,500 matches of a broad search tests every
 * name, and the list only needs to know that rows go on past this page.
 */
export function searchCountCap(offset: number, limit: number): number {
  return (Math.floor((offset + limit) / SEARCH_COUNT_STEP) + 1) * SEARCH_COUNT_STEP;
}

/** The FTS5 query for a literal substring: one quoted phrase, so FTS5 syntax characters match literally. */
export function nameMatchQuery(search: string): string {
  return `"${search.trim().replaceAll('"', '""')}"`;
}

/**
 * A clean answer made by basic checks only, on a row's own columns (the scans rows' and the compact
 * store's kinds alike): what isBasicChecksOnly() says. `IS` compares NULL as a value, so the
 * expression is 0 or 1, never NULL (a NOT of it keeps every other row).
 */
export const BASIC_ONLY_SQL = `(engine_name IS 'builtin' OR (engine_name IS NULL AND detailed IS '${BASIC_CHECKS_CLEAN_LABEL.replaceAll("'", "''")}'))`;

/** A file scanned in part, on its own columns (isScannedInPart()); the generated verdict reads it as 'partial' since migration 17. 0 or 1, never NULL. */
export const PARTIAL_SQL = `detailed IS '${SCANNED_IN_PART_LABEL.replaceAll("'", "''")}'`;

/** Verdicts the generated column does not tell apart: each pair is one value there, told apart by the row's other columns. */
const SPLIT = [{ column: 'safe', own: 'basic-only', sql: BASIC_ONLY_SQL }] as const;

/**
 * The verdict filter. The generated column reads basic checks only as 'safe', so asked for one of
 * such a pair without the other, that part is the column's rows with
 * (or without) the pair's own condition. Clean rows of the main list are found by SAFE_VERDICT_SQL.
 */
function verdictClause(verdicts: readonly Verdict[], unindexed: string, listed: boolean): { sql: string; params: SQLInputValue[] } {
  const named: string[] = verdicts.filter((verdict) => !SPLIT.some((pair) => pair.column === verdict || pair.own === verdict));
  const parts: string[] = [];
  for (const pair of SPLIT) {
    const column = verdicts.includes(pair.column);
    const own = verdicts.includes(pair.own);
    if (column && own) named.push(pair.column);
    else if (column || own) {
      const rows = listed && pair.column === 'safe' ? SAFE_VERDICT_SQL : `${unindexed}verdict = '${pair.column}'`;
      parts.push(`(${rows} AND ${own ? '' : 'NOT '}${pair.sql})`);
    }
  }
  if (named.length > 0) parts.unshift(`${unindexed}verdict IN (${named.map(() => '?').join(', ')})`);
  return { sql: parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(' OR ')})`, params: named };
}

export function buildFilter(query: Pick<ParsedHistoryQuery, 'statuses' | 'verdicts' | 'search' | 'order' | 'pendingReasons' | 'job' | 'jobRows'>, options: FilterOptions = {}): SqlFilter {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];

  // An empty list means "no filter", like an absent one: the UI sends [] when nothing is ticked.
  // The main list (jobRows 'threats') walks its own index in page order (migration 7). Asked for
  // clean or completed rows, a `+` keeps SQLite from walking the verdict or status index instead,
  // through every clean file of a job; a rarer verdict or status is still found through its index.
  const listed = query.jobRows === 'threats';
  const statuses = [...new Set(query.statuses ?? [])].sort();
  const verdicts = [...new Set(query.verdicts ?? [])].sort();
  const unindexed = listed && (verdicts.includes('safe') || verdicts.includes('basic-only') || statuses.includes('completed')) ? '+' : '';
  if (statuses.length > 0) {
    clauses.push(`${unindexed}status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  if (verdicts.length > 0) {
    // The main list's clean rows on their columns (SAFE_VERDICT_SQL, which scans_listed_count holds); the
    // engine columns that tell basic checks only apart are read from those few rows (a job's are not listed).
    const { sql, params: named } = verdictClause(verdicts, unindexed, listed);
    clauses.push(sql);
    params.push(...named);
  }

  const reasons = [...new Set(query.pendingReasons ?? [])].sort();
  if (reasons.length > 0) {
    // Only non-terminal rows wait; the status condition lets the status index narrow it.
    clauses.push(`status IN ('queued', 'uploading', 'processing') AND pending_reason IN (${reasons.map(() => '?').join(', ')})`);
    params.push(...reasons);
  }

  if (query.job !== undefined) {
    clauses.push('job_id = ?');
    params.push(query.job);
    // A job's threats, failures or skipped files (its expanded row): the very WHERE of the partial index
    // scans_job_not_clean (migration 8), implied by the verdicts asked for, lets SQLite use it.
    // Basic checks only reads 'safe' in the generated column: such rows are not in that index.
    if (verdicts.length > 0 && !verdicts.includes('safe') && !verdicts.includes('basic-only')) clauses.push(NOT_CLEAN);
  }
  if (listed) {
    // The main list: a job is one row of its own; of its files only the threats show here too
    // (the same rule as shownOutsideItsJob in shared/jobs/job.ts). The same expression as the
    // WHERE of the index scans_listed (migration 7), so SQLite can use it.
    clauses.push("(job_id IS NULL OR (status = 'completed' AND safe = 0))");
  }

  const search = query.search?.trim() ?? '';
  if (search.includes('\0')) {
    // No file name or digest holds NUL, and SQLite would end the LIKE pattern there (matching everything).
    clauses.push('0');
  } else if (search !== '') {
    // What matches is defined by LIKE alone (substring, ASCII case-insensitive) so
    // results never depend on which plan ran. The trigram index only narrows the
    // candidates: its matches (Unicode case folding) are a superset of LIKE's.
    const hex = search.toLowerCase();
    const digestRanges: string[] = [];
    const digestParams: SQLInputValue[] = [];
    if (HEX.test(hex)) {
      // Digests are stored lowercase hex, so every digest with this prefix sorts in
      // [prefix, prefix + 'g'): an index range per digest column.
      digestRanges.push('SELECT seq FROM scans WHERE sha256 >= ? AND sha256 < ?');
      digestParams.push(hex, `${hex}g`);
      // md5 and sha1 are indexed by their first characters (migration 6): the range of those, then the whole digest.
      const prefix = hex.slice(0, DIGEST_PREFIX_CHARS);
      for (const column of ['sha1', 'md5']) {
        const head = `substr(${column}, 1, ${DIGEST_PREFIX_CHARS})`;
        digestRanges.push(`SELECT seq FROM scans WHERE ${head} >= ? AND ${head} < ? AND ${column} >= ? AND ${column} < ?`);
        digestParams.push(prefix, `${prefix}g`, hex, `${hex}g`);
      }
    }
    const like = `%${escapeLike(search)}%`;
    if (options.useNameIndex && usesNameIndex(search)) {
      // Few name matches: start from the index's candidates (and digest matches), then confirm.
      clauses.push(`seq IN (${['SELECT rowid FROM scans_name_search WHERE scans_name_search MATCH ?', ...digestRanges].join(' UNION ')})`);
      params.push(nameMatchQuery(search), ...digestParams);
    }
    // Otherwise: walk the time/status/verdict index in page order; each holds
    // file_name, so LIKE is checked without reading the row.
    const confirm = [`file_name LIKE ? ESCAPE '\\'`];
    params.push(like);
    if (digestRanges.length > 0) {
      confirm.push(`seq IN (${digestRanges.join(' UNION ')})`);
      params.push(...digestParams);
    }
    clauses.push(confirm.length > 1 ? `(${confirm.join(' OR ')})` : confirm[0]!);
  }

  const direction = query.order === 'oldest' ? 'ASC' : 'DESC';
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  // In the main list a job's rows are completed threats only: asked for other statuses, only single
  // scans match, and scans_listed_count counts them from its range (job_id NULL, status) alone.
  const singlesOnly = listed && statuses.length > 0 && !statuses.includes('completed');
  // The main list's clean (or basic checks only) rows are read from their own columns (SAFE_VERDICT_SQL in verdictClause):
  // single scans (a job's listed rows are threats), completed, safe = 1. Said plainly, their total reads that range of the index.
  const cleanOnly = listed && verdicts.length === 1 && (verdicts[0] === 'safe' || verdicts[0] === 'basic-only');
  const countRange = cleanOnly ? " AND job_id IS NULL AND status = 'completed' AND safe = 1" : singlesOnly ? ' AND job_id IS NULL' : '';
  // Every condition on the index's own columns: no generated verdict, no pending reason, no job, no candidates of the name index to start from.
  const plainListed = listed && reasons.length === 0 && query.job === undefined && !(options.useNameIndex && usesNameIndex(search));
  const indexAlone = plainListed && (verdicts.length === 0 || cleanOnly) && !search.includes('\0');
  const walksListed = plainListed && (unindexed === '+' || (statuses.length === 0 && verdicts.length === 0));
  return {
    conditions: clauses,
    where,
    params,
    orderBy: `ORDER BY queued_at ${direction}, seq ${direction}`,
    countWhere: `${where}${countRange}`,
    countFrom: indexAlone ? 'scans INDEXED BY scans_listed_count' : 'scans',
    pageFrom: walksListed ? 'scans INDEXED BY scans_listed' : 'scans',
  };
}

/** `%`, `_` and the escape character itself match literally in a file name search. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
