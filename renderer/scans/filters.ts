// The list filters: how they become a HistoryQuery for the core, and the same
// test applied locally so live events can be merged without refetching.
import { shownOutsideItsJob } from '../../shared/jobs/job.ts';
import { verdictOf, type HistoryQuery, type LocalStatus, type ScanRecord, type Verdict } from '../../shared/scans/record.ts';

export interface Filters {
  status: LocalStatus | 'all';
  verdict: Verdict | 'all';
  /** File name substring or digest prefix, as typed (trimmed when used). */
  search: string;
}

export const NO_FILTERS: Filters = { status: 'all', verdict: 'all', search: '' };

export function isFiltered(filters: Filters): boolean {
  return filters.status !== 'all' || filters.verdict !== 'all' || filters.search.trim() !== '';
}

/** The query for one page of the list, newest first. */
export function pageQuery(filters: Filters, offset: number, limit: number): HistoryQuery {
  const search = filters.search.trim();
  return {
    ...(filters.status === 'all' ? {} : { statuses: [filters.status] }),
    ...(filters.verdict === 'all' ? {} : { verdicts: [filters.verdict] }),
    ...(search ? { search } : {}),
    offset,
    limit,
    order: 'newest',
    // A scan job is one row of its own (above the list); of its files only the threats are listed here too.
    jobRows: 'threats',
  };
}

/** Mirrors the core's query: name substring or digest prefix, case-insensitive. */
export function matchesFilters(record: ScanRecord, filters: Filters): boolean {
  if (!shownOutsideItsJob(record)) return false;
  if (filters.status !== 'all' && record.status !== filters.status) return false;
  if (filters.verdict !== 'all' && verdictOf(record) !== filters.verdict) return false;
  const search = filters.search.trim().toLowerCase();
  if (!search) return true;
  if (record.fileName.toLowerCase().includes(search)) return true;
  return [record.md5, record.sha1, record.sha256].some((digest) => digest !== null && digest.toLowerCase().startsWith(search));
}
