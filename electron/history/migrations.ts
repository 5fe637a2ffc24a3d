// The history database's schema, as an ordered list of migrations. The applied
// version lives in PRAGMA user_version; each migration runs in its own
// transaction together with the version bump, so a crash leaves either the old
// or the new schema, never half of one.
import type { DatabaseSync } from 'node:sqlite';
import { ALLOWED_BY } from './allowed-by-migration.ts';
import { LOSSLESS_NAMES } from './lossless-names-migration.ts';
import { PARTIAL_VERDICT } from './partial-verdict-migration.ts';
import { RECHECK_FILES } from './recheck-migration.ts';
import { ENGINE_DETECTION } from './engine-detection-migration.ts';
import { ENGINE_SELF_TEST } from './engine-self-test-migration.ts';
import { LISTED_COUNT_ENGINE } from './listed-count-engine-migration.ts';
import { RECHECK_BY_RECORD } from './recheck-record-migration.ts';
import { COMPACT_KINDS_WHOLE_ENGINE } from './compact-kinds-migration.ts';
import { UNCHANGED_BY_RECORD } from './unchanged-record-migration.ts';
import { UNCHANGED_KINDS } from './unchanged-kinds-migration.ts';
import { SIGNATURE_UPDATES } from './signature-updates-migration.ts';
import { UNCHANGED_FILES } from './unchanged-files-migration.ts';

export interface Migration {
  /** 1, 2, 3… in order; the database's user_version after this migration ran. */
  version: number;
  description: string;
  up(db: DatabaseSync): void;
}

/**
 * How a row read under schema 1 (before dispositions). Frozen: migration 1 must
 * create exactly what it always created, without columns only migration 2 adds.
 */
export const VERDICT_SQL_V1 = `CASE
  WHEN status = 'skipped' THEN 'skipped'
  WHEN status = 'failed' THEN 'could-not-scan'
  WHEN status <> 'completed' THEN 'pending'
  WHEN safe = 0 THEN 'unsafe'
  WHEN safe = 1 THEN 'safe'
  ELSE 'could-not-scan'
END`;

/**
 * How a row reads, in SQL: must agree with verdictOf() in shared/scans/record.ts
 * (a test checks every status × safe × disposition combination). "could not
 * scan" is never "safe", and allowed content is "allowed", never "safe".
 */
export const VERDICT_SQL = `CASE
  WHEN status = 'skipped' THEN 'skipped'
  WHEN status = 'failed' THEN 'could-not-scan'
  WHEN status <> 'completed' THEN 'pending'
  WHEN safe = 0 AND disposition = 'allowed' THEN 'allowed'
  WHEN safe = 0 THEN 'unsafe'
  WHEN safe = 1 THEN 'safe'
  ELSE 'could-not-scan'
END`;

/**
 * The rows whose verdict is "safe", on their own columns: what VERDICT_SQL says (a test checks it).
 * The list's index of counts (scans_listed_count) holds these columns, where the generated verdict
 * needs the row; a filter on clean rows is then counted from that index alone.
 */
export const SAFE_VERDICT_SQL = "+status = 'completed' AND +safe = 1";

/** A job's rows not yet finished (migration 8's index; frozen: existing indexes hold this WHERE). */
export const JOB_PENDING = "status NOT IN ('completed', 'failed', 'skipped')";

/** Rows other than clean ones (migration 8's index of a job's threats, failures and skips; frozen like JOB_PENDING). */
export const NOT_CLEAN = "verdict <> 'safe'";

/** How much of an md5 or sha1 its index holds (migration 6; frozen: the indexes of existing databases hold this many); a search confirms the rest on the row. */
export const DIGEST_PREFIX_CHARS = 12;

/** The same for the compact store's BLOB digests (migration 9; frozen): 6 bytes, 12 hex characters. */
export const COMPACT_DIGEST_PREFIX_BYTES = 6;

/**
 * The list's index of counts in page order within its groups: (job_id, status, safe, seq, file_name)
 * rather than by file name. A capped count of a name search (searchCountCap in query-filter.ts)
 * stops at its 1,001st match; in name order a search for "setup" read four fifths of the index
 * first (its matches sort late), in seq order its matches are spread evenly. Self-contained so its
 * number can change while no released database holds it.
 */
const LISTED_COUNT_IN_SEQ_ORDER: Migration = {
  version: 11,
  description: "the list's index of counts in insertion order within its groups, so a name search's capped count stops early",
  up(db) {
    db.exec(`
      DROP INDEX IF EXISTS scans_listed_count;
      CREATE INDEX scans_listed_count ON scans (job_id, status, safe, seq, file_name) WHERE job_id IS NULL OR (status = 'completed' AND safe = 0);
    `);
    // Dropping the index dropped its statistics: without them, beside the other indexes' (PRAGMA optimize
    // keeps them), SQLite counted the list through a MULTI-INDEX OR of every row (100 times slower).
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined) db.exec('ANALYZE scans_listed_count');
  },
};

/**
 * How a job's files are scanned (the CLI's --basic-only, --force, --mode), so a job that resumes
 * after a restart or crash scans its other files as it started. NULL (older jobs): as by default.
 * Self-contained so its number can change while no released database holds it.
 */
const JOB_RUN_OPTIONS: Migration = {
  version: 10,
  description: "how a scan job's files are scanned (basic checks only, forced, mode), kept for its resume",
  up(db) {
    db.exec('ALTER TABLE jobs ADD COLUMN run_json TEXT;');
  },
};

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'scans table with one row per scan, and the indexes its queries use',
    up(db) {
      // `seq` is an explicit INTEGER PRIMARY KEY (the rowid) so VACUUM never
      // renumbers it: it breaks ties between equal queued_at values stably.
      db.exec(`
        CREATE TABLE scans (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          path TEXT NOT NULL,
          file_name TEXT NOT NULL,
          size INTEGER,
          md5 TEXT,
          sha1 TEXT,
          sha256 TEXT,
          mode TEXT,
          origin TEXT NOT NULL,
          backend TEXT NOT NULL,
          external_reference_id TEXT NOT NULL UNIQUE,
          service_scan_id TEXT,
          status TEXT NOT NULL,
          pending_reason TEXT,
          safe INTEGER,
          detailed TEXT,
          findings_json TEXT NOT NULL DEFAULT '[]',
          file_type TEXT,
          queued_at TEXT NOT NULL,
          submitted_at TEXT,
          completed_at TEXT,
          duration_ms INTEGER,
          error_code TEXT,
          error_message TEXT,
          reused_from_id TEXT,
          verdict TEXT GENERATED ALWAYS AS (${VERDICT_SQL_V1}) VIRTUAL
        );
        -- Page order is (queued_at, seq). file_name rides along in the three
        -- page-order indexes, so a name search that matches many rows is checked
        -- from the index without reading the wide row.
        CREATE INDEX scans_by_time ON scans (queued_at, seq, file_name);
        CREATE INDEX scans_by_status ON scans (status, queued_at, seq, file_name);
        CREATE INDEX scans_by_verdict ON scans (verdict, queued_at, seq, file_name);
        CREATE INDEX scans_by_sha256 ON scans (sha256, completed_at);
        CREATE INDEX scans_by_sha1 ON scans (sha1);
        CREATE INDEX scans_by_md5 ON scans (md5);

        -- Small facts about the database itself (e.g. whether the optional name
        -- index is in step: see name-index.ts).
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    },
  },
  {
    version: 2,
    description: 'what was done about a threat (disposition, quarantine entry); the verdict "allowed"',
    up(db) {
      // SQLite cannot change a generated column in place: drop it (its index first) and add
      // it back with the new definition. VIRTUAL columns are computed on read, so no row is rewritten.
      db.exec(`
        DROP INDEX scans_by_verdict;
        ALTER TABLE scans DROP COLUMN verdict;
        ALTER TABLE scans ADD COLUMN disposition TEXT;
        ALTER TABLE scans ADD COLUMN quarantine_id TEXT;
        ALTER TABLE scans ADD COLUMN verdict TEXT GENERATED ALWAYS AS (${VERDICT_SQL}) VIRTUAL;
        CREATE INDEX scans_by_verdict ON scans (verdict, queued_at, seq, file_name);
        -- Finishing interrupted quarantines at start reads these few rows.
        CREATE INDEX scans_quarantine_pending ON scans (disposition) WHERE disposition = 'quarantine_pending';
      `);
    },
  },
  {
    version: 3,
    description: "an error's parameters (JSON), so the UI words skip and quarantine reasons in its own language",
    up(db) {
      // Older rows keep NULL: the UI shows their English message.
      db.exec('ALTER TABLE scans ADD COLUMN error_params TEXT;');
    },
  },
  {
    version: 4,
    description: 'scan jobs (quick, full, custom): one row per job, and the job each scan row belongs to',
    up(db) {
      // job_id is an integer (the job's rowid) so the index costs a few bytes per scanned file;
      // partial, so single scans add nothing to it.
      db.exec(`
        CREATE TABLE jobs (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,
          roots_json TEXT NOT NULL,
          excluded_json TEXT NOT NULL DEFAULT '[]',
          origin TEXT NOT NULL,
          status TEXT NOT NULL,
          walk_complete INTEGER NOT NULL DEFAULT 0,
          found INTEGER NOT NULL DEFAULT 0,
          bytes INTEGER NOT NULL DEFAULT 0,
          scanned INTEGER NOT NULL DEFAULT 0,
          threats INTEGER NOT NULL DEFAULT 0,
          could_not_scan INTEGER NOT NULL DEFAULT 0,
          skipped INTEGER NOT NULL DEFAULT 0,
          started_at TEXT NOT NULL,
          finished_at TEXT,
          active_ms INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX jobs_by_status ON jobs (status, kind);
        ALTER TABLE scans ADD COLUMN job_id INTEGER;
        CREATE INDEX scans_by_job ON scans (job_id) WHERE job_id IS NOT NULL;
      `);
    },
  },
  {
    version: 5,
    description: "the engine that made each verdict (ClamAV's version and signatures, or the built-in engine)",
    up(db) {
      // Earlier rows keep NULL (not recorded), except the built-in engine's clean verdicts, which
      // their label names: "Scan again with ClamAV" must find them. rescan_requested_at: when that
      // action took a row up, so it is offered once (see history-engine.ts).
      db.exec(`
        ALTER TABLE scans ADD COLUMN engine_name TEXT;
        ALTER TABLE scans ADD COLUMN engine_version TEXT;
        ALTER TABLE scans ADD COLUMN signatures_version INTEGER;
        ALTER TABLE scans ADD COLUMN signatures_date TEXT;
        ALTER TABLE scans ADD COLUMN rescan_requested_at TEXT;
        UPDATE scans SET engine_name = 'builtin' WHERE detailed = 'clean (basic checks only; ClamAV not available)';
        CREATE INDEX scans_safe_by_builtin ON scans (path)
          WHERE engine_name = 'builtin' AND safe = 1 AND status = 'completed' AND rescan_requested_at IS NULL;
      `);
    },
  },
  {
    version: 6,
    description: 'leaner indexes for histories of scan jobs: md5 and sha1 by a prefix, the status index without file names',
    up(db) {
      // A digest search narrows by the first DIGEST_PREFIX_CHARS characters and confirms the
      // rest on the row (query-filter.ts): 12 hex characters (48 bits) leave about one false
      // candidate in 10^14 rows, and the two indexes cost about half as much. The status index
      // keeps no file names: a name search walks the time or verdict index (they hold them).
      db.exec(`
        DROP INDEX IF EXISTS scans_by_md5;
        DROP INDEX IF EXISTS scans_by_sha1;
        CREATE INDEX scans_by_md5_prefix ON scans (substr(md5, 1, ${DIGEST_PREFIX_CHARS}));
        CREATE INDEX scans_by_sha1_prefix ON scans (substr(sha1, 1, ${DIGEST_PREFIX_CHARS}));
        DROP INDEX IF EXISTS scans_by_status;
        CREATE INDEX scans_by_status ON scans (status, queued_at, seq);
      `);
    },
  },
  {
    version: 7,
    description: "the list's rows in page order: scans of their own and a job's threats (a job's other files are in its row)",
    up(db) {
      // Partial: a job's clean, failed and skipped files (most rows after a full scan) add nothing to it.
      // The WHERE must stay the very expression query-filter.ts uses for `jobRows: 'threats'`, or SQLite
      // cannot use the index; without it the list's first page walks every file of the newest job.
      db.exec(`CREATE INDEX scans_listed ON scans (queued_at, seq, file_name) WHERE job_id IS NULL OR (status = 'completed' AND safe = 0);`);
    },
  },
  {
    version: 8,
    description: "a job's unfinished rows (resume) and its other than clean rows (its expanded row); the list's rows counted from a narrow index",
    up(db) {
      // Partial: only rows still queued, uploading or processing (a handful) are in it, where
      // scans_by_job would walk every file of a 100,000-file job. The WHERE must stay the very
      // expression of jobPendingIds (history-jobs.ts), or SQLite cannot use the index.
      // scans_listed_count holds the columns of scans_listed's WHERE and the file name, so the list's total
      // (a count on every full page, a name search's too) is read from it alone instead of looking up each
      // listed row (about 3 times faster).
      // scans_job_not_clean: a job's threats, failures and skipped files in page order (its expanded row),
      // where scans_by_job walks its every clean file; query-filter.ts adds NOT_CLEAN to such a query.
      db.exec(`
        CREATE INDEX scans_job_pending ON scans (job_id) WHERE ${JOB_PENDING};
        CREATE INDEX scans_listed_count ON scans (job_id, status, safe, file_name) WHERE job_id IS NULL OR (status = 'completed' AND safe = 0);
        CREATE INDEX scans_job_not_clean ON scans (job_id, verdict, queued_at, seq) WHERE ${NOT_CLEAN};
      `);
    },
  },
  {
    version: 9,
    description: "a finished job's clean files in a compact table of their own (job-files/), out of the wide scans rows",
    up(db) {
      // About 250 bytes a file instead of 1,100: a folder id and the rest of the path, digests as
      // BLOBs, times as milliseconds, and what repeats (service, engine, detail text) once per kind.
      // AUTOINCREMENT: a file's id ('clean:N') is never given to another file after a job is removed.
      // rescan_requested_ms: "Scan again with ClamAV" took the file up (history-engine.ts; NULL costs nothing).
      // jobs.compacted: its clean rows have all been moved (a crash in between resumes at the next start).
      db.exec(`
        ALTER TABLE jobs ADD COLUMN compacted INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE job_folders (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
        CREATE TABLE job_file_kinds (
          id INTEGER PRIMARY KEY,
          origin TEXT NOT NULL,
          backend TEXT NOT NULL,
          mode TEXT,
          detailed TEXT,
          file_type TEXT,
          engine_name TEXT,
          engine_version TEXT,
          signatures_version INTEGER,
          signatures_date TEXT
        );
        CREATE TABLE job_clean_files (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          job_id INTEGER NOT NULL,
          folder_id INTEGER NOT NULL,
          name TEXT NOT NULL,
          file_name TEXT,
          size INTEGER,
          sha256 BLOB,
          md5 BLOB,
          sha1 BLOB,
          kind_id INTEGER NOT NULL,
          queued_ms INTEGER NOT NULL,
          submitted_ms INTEGER,
          completed_ms INTEGER,
          duration_ms INTEGER,
          reused_from_id TEXT,
          rescan_requested_ms INTEGER
        );
        CREATE INDEX job_clean_files_by_job ON job_clean_files (job_id, queued_ms);
        CREATE INDEX job_clean_files_by_sha256 ON job_clean_files (sha256);
        CREATE INDEX job_clean_files_by_md5 ON job_clean_files (substr(md5, 1, ${COMPACT_DIGEST_PREFIX_BYTES}));
        CREATE INDEX job_clean_files_by_sha1 ON job_clean_files (substr(sha1, 1, ${COMPACT_DIGEST_PREFIX_BYTES}));
      `);
    },
  },
  JOB_RUN_OPTIONS,
  LISTED_COUNT_IN_SEQ_ORDER,
  LOSSLESS_NAMES,
  UNCHANGED_FILES,
  ALLOWED_BY,
  RECHECK_FILES,
  ENGINE_DETECTION,
  PARTIAL_VERDICT,
  ENGINE_SELF_TEST,
  SIGNATURE_UPDATES,
  LISTED_COUNT_ENGINE,
  RECHECK_BY_RECORD,
  COMPACT_KINDS_WHOLE_ENGINE,
  UNCHANGED_BY_RECORD,
  UNCHANGED_KINDS,
];

export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

export class NewerSchemaError extends Error {
  readonly code = 'history_newer_schema';
  constructor(found: number) {
    super(
      `The history database was written by a newer version of Verdict (schema ${found}, this version knows up to ${LATEST_VERSION}). ` +
        'Update Verdict, or move history.sqlite aside to start a new history.',
    );
    this.name = 'NewerSchemaError';
  }
}

/** Brings the database up to LATEST_VERSION; returns the versions it applied. */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = userVersion(db);
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (current > latest) throw new NewerSchemaError(current);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    // IMMEDIATE takes the write lock first, so two processes opening the same
    // database at once cannot both run a migration.
    db.exec('BEGIN IMMEDIATE');
    try {
      if (userVersion(db) < migration.version) {
        migration.up(db);
        db.exec(`PRAGMA user_version = ${migration.version}`);
        applied.push(migration.version);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return applied;
}

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}
