// Migration 17: the generated `verdict` column reads a file scanned in part as 'partial' (as
// verdictOf() does), not as 'unsafe': a file Verdict could inspect only in part is no threat, and
// queries of threats (retention, names, counts) no longer meet it. SQLite cannot change a generated
// column in place: its two indexes go, the column is dropped and added back, the indexes return.
// VIRTUAL columns are computed on read, so no row is rewritten.
import { SCANNED_IN_PART_LABEL } from '../../shared/scans/coverage.ts';
import type { Migration } from './migrations.ts';

/**
 * How a row reads from this migration on; must agree with verdictOf() (a test checks every status ×
 * safe × disposition × label combination). Basic checks only still reads 'safe' here: other columns
 * tell it apart (query-filter.ts).
 */
export const VERDICT_SQL_17 = `CASE
  WHEN status = 'skipped' THEN 'skipped'
  WHEN status = 'failed' THEN 'could-not-scan'
  WHEN status <> 'completed' THEN 'pending'
  WHEN safe = 0 AND disposition = 'allowed' THEN 'allowed'
  WHEN safe = 0 AND detailed IS '${SCANNED_IN_PART_LABEL.replaceAll("'", "''")}' THEN 'partial'
  WHEN safe = 0 THEN 'unsafe'
  WHEN safe = 1 THEN 'safe'
  ELSE 'could-not-scan'
END`;

export const PARTIAL_VERDICT: Migration = {
  version: 17,
  description: "the generated verdict reads a file scanned in part as 'partial', never as 'unsafe'",
  up(db) {
    // scans_job_not_clean's WHERE is migration 8's NOT_CLEAN (frozen): written out here.
    db.exec(`
      DROP INDEX IF EXISTS scans_by_verdict;
      DROP INDEX IF EXISTS scans_job_not_clean;
      ALTER TABLE scans DROP COLUMN verdict;
      ALTER TABLE scans ADD COLUMN verdict TEXT GENERATED ALWAYS AS (${VERDICT_SQL_17}) VIRTUAL;
      CREATE INDEX scans_by_verdict ON scans (verdict, queued_at, seq, file_name);
      CREATE INDEX scans_job_not_clean ON scans (job_id, verdict, queued_at, seq) WHERE verdict <> 'safe';
    `);
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined) db.exec('ANALYZE scans_by_verdict; ANALYZE scans_job_not_clean');
  },
};
