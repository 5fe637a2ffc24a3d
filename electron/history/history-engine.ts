// The verdicts of the built-in engine that ClamAV should look at again ("Scan again
// with ClamAV (N files)", issue 14): clean by basic checks only, not taken up by that
// action yet, and whose content ClamAV has not judged since. Counted per path.
import { fromStoredText, toStoredText } from '../sqlite/stored-text.ts';
import type { HistoryDb } from './history-db.ts';
import { COMPACT_BASIC_ONLY, markCompactRescanRequested } from './job-files/compact-basic-only.ts';

// Matches the partial index scans_safe_by_builtin (migration 5) term for term. The queries name that
// index: left to itself the planner walks scans_by_status, every completed row of a long history.
const SAFE_BY_BUILTIN = `s.engine_name = 'builtin' AND s.safe = 1 AND s.status = 'completed' AND s.rescan_requested_at IS NULL`;
const CANDIDATES = 'scans AS s INDEXED BY scans_safe_by_builtin';
// Content judged by ClamAV after it (found through scans_by_sha256): a watched file scanned again, say.
const NOT_SINCE_BY_CLAMAV = `NOT EXISTS (SELECT 1 FROM scans later WHERE later.sha256 = s.sha256 AND later.engine_name = 'clamav' AND later.seq > s.seq)`;

/**
 * Such paths with the order they are offered in: the wide rows' first (by seq), then a compacted
 * job's files (job-files/compact-basic-only.ts, by id); a path in both is offered once.
 */
const OFFERED = `SELECT path, min(store) AS store, min(first) AS first FROM (
    SELECT s.path AS path, 0 AS store, s.seq AS first FROM ${CANDIDATES} WHERE ${SAFE_BY_BUILTIN} AND ${NOT_SINCE_BY_CLAMAV}
    UNION ALL SELECT path, 1, first FROM (${COMPACT_BASIC_ONLY})
  ) GROUP BY path`;

/** How many files (paths) have such a verdict. */
export function countSafeByBuiltin(h: HistoryDb): number {
  return Number((h.prepare(`SELECT count(*) AS n FROM (${OFFERED})`).get() as { n: number }).n);
}

/** Their paths, at most `limit`, oldest verdict first. */
export function safeByBuiltinPaths(h: HistoryDb, limit: number): string[] {
  const rows = h.prepare(`SELECT path FROM (${OFFERED}) ORDER BY store, first LIMIT ?`).all(limit) as Array<{ path: string }>;
  return rows.map((row) => fromStoredText(row.path));
}

/** The action took these paths up (sent again, or found gone): they are not offered again. Returns the rows marked. */
export function markRescanRequested(h: HistoryDb, paths: readonly string[], atIso: string): number {
  const stored = paths.map(toStoredText);
  return h.transaction(() => {
    const mark = h.prepare(`UPDATE ${CANDIDATES} SET rescan_requested_at = ? WHERE s.path = ? AND ${SAFE_BY_BUILTIN}`);
    let marked = 0;
    for (const path of stored) marked += Number(mark.run(atIso, path).changes);
    return marked + markCompactRescanRequested(h, stored, atIso);
  });
}
