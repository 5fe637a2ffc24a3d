// Migration 20: the list's index of counts (scans_listed_count) also holds the two columns that
// tell a clean answer of basic checks only from a clean one (engine_name, detailed: BASIC_ONLY_SQL
// in query-filter.ts). Since that verdict was split from clean, a "clean" or "basic checks only"
// filter of the list was counted by reading every listed row: 94,000 clean single scans took
// 70 ms (bench case 12's history), a name search's capped count 3 ms; from the index alone
// 11-17 ms and under 1 ms. Self-contained so its number can change while no released database holds it.
import type { Migration } from './migrations.ts';

/** The index's columns from this migration on: in page order within its groups (migration 11), then the engine's. */
export const LISTED_COUNT_COLUMNS = ['job_id', 'status', 'safe', 'seq', 'file_name', 'engine_name', 'detailed'] as const;

export const LISTED_COUNT_ENGINE: Migration = {
  version: 20,
  description: "the list's index of counts holds the columns that tell basic checks only from clean, so a clean filter is counted from it alone",
  up(db) {
    // The WHERE is scans_listed's (migration 7), the main list's own condition in query-filter.ts.
    db.exec(`
      DROP INDEX IF EXISTS scans_listed_count;
      CREATE INDEX scans_listed_count ON scans (${LISTED_COUNT_COLUMNS.join(', ')}) WHERE job_id IS NULL OR (status = 'completed' AND safe = 0);
    `);
    // Dropping the index dropped its statistics (see migration 11).
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined) db.exec('ANALYZE scans_listed_count');
  },
};
