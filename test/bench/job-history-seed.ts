// A history at the scale of scan jobs, written straight into SQLite (a million rows
// through insertMany would take minutes): `jobs` full scans of `filesPerJob` files each
// (clean but for one threat and one failure in 10,000), and `singles` single scans
// between them, named as makeRecord() names them so the history case's searches apply.
// The jobs are finished, so their clean files are in the compact store, as the app leaves
// them once it has compacted a job (history/job-files/); their threats and failures are scans rows.
// The schema comes from openHistory (every migration); the name indexes are rebuilt at the end.
import { DatabaseSync } from 'node:sqlite';
import { HISTORY_FILE_NAME, openHistory } from '../../electron/history/history.ts';
import { hasFts5 } from '../../electron/history/name-index.ts';
import path from 'node:path';

export interface JobHistoryShape {
  jobs: number;
  filesPerJob: number;
  singles: number;
}

/** 1 January 2026, in seconds: the history's first day. */
const START_S = Date.UTC(2026, 0, 1) / 1000;
/** A job every 10 days, scanning 100 files a second. */
const JOB_EVERY_S = 10 * 86_400;
const JOB_FILES_PER_S = 100;

const ISO = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`;
const hex = (bytes: number) => `lower(hex(randomblob(${bytes})))`;

// Every row is finished, so each has its completed_at (the pipeline sets it on failures and skips too).
/** The row's verdict columns: every 10,000th file a threat, every 10,000th + 5,000 a failure. */
const JOB_OUTCOME = {
  status: `CASE WHEN i % 10000 = 5000 THEN 'failed' ELSE 'completed' END`,
  safe: `CASE WHEN i % 10000 = 5000 THEN NULL WHEN i % 10000 = 0 THEN 0 ELSE 1 END`,
  detailed: `CASE WHEN i % 10000 = 5000 THEN NULL WHEN i % 10000 = 0 THEN 'Eicar-Test-Signature FOUND' ELSE 'clean' END`,
  findings: `CASE WHEN i % 10000 = 0 THEN '[{"name":"Eicar-Test-Signature","engine":"clamav"}]' ELSE '[]' END`,
  errorCode: `CASE WHEN i % 10000 = 5000 THEN 'engine_error' END`,
  errorMessage: `CASE WHEN i % 10000 = 5000 THEN 'engine failed' END`,
};

/** makeRecord()'s mix for single scans, all finished: 3 % unsafe, 2 % failed, 1 % skipped. */
const SINGLE_OUTCOME = {
  status: `CASE WHEN i % 100 BETWEEN 95 AND 96 THEN 'failed' WHEN i % 100 = 97 THEN 'skipped' ELSE 'completed' END`,
  safe: `CASE WHEN i % 100 BETWEEN 95 AND 97 THEN NULL WHEN i % 100 < 3 THEN 0 ELSE 1 END`,
  detailed: `CASE WHEN i % 100 BETWEEN 95 AND 97 THEN NULL WHEN i % 100 < 3 THEN 'Eicar-Test-Signature FOUND' ELSE 'clean' END`,
  findings: `CASE WHEN i % 100 < 3 THEN '[{"name":"Eicar-Test-Signature","engine":"clamav"}]' ELSE '[]' END`,
  errorCode: `CASE WHEN i % 100 BETWEEN 95 AND 96 THEN 'engine_error' END`,
  errorMessage: `CASE WHEN i % 100 BETWEEN 95 AND 96 THEN 'engine failed' END`,
};

/** Who made a verdict (migration 5): the pipeline records clamd's identity on each verdict, none on a failure or skip. */
const engineColumns = (safe: string) =>
  ["'clamav'", "'1.4.3'", '27800', "'2026-11-24T09:21:02.000Z'"].map((value) => `CASE WHEN (${safe}) IS NOT NULL THEN ${value} END`).join(', ');

const NAME = `(CASE i % 8 WHEN 0 THEN 'report' WHEN 1 THEN 'invoice' WHEN 2 THEN 'setup' WHEN 3 THEN 'photo' WHEN 4 THEN 'backup' WHEN 5 THEN 'notes' WHEN 6 THEN 'driver' ELSE 'archive' END
  || '-' || i || '.' || (CASE (i >> 3) % 8 WHEN 0 THEN 'pdf' WHEN 1 THEN 'docx' WHEN 2 THEN 'exe' WHEN 3 THEN 'jpg' WHEN 4 THEN 'zip' WHEN 5 THEN 'txt' WHEN 6 THEN 'msi' ELSE 'tar.gz' END))`;

const COLUMNS = `id, path, file_name, size, md5, sha1, sha256, mode, origin, backend, external_reference_id, service_scan_id, status, safe, detailed,
  findings_json, file_type, queued_at, submitted_at, completed_at, duration_ms, error_code, error_message, job_id,
  engine_name, engine_version, signatures_version, signatures_date`;

function insertRows(
  db: DatabaseSync,
  count: number,
  row: { id: string; path: string; name: string; origin: string; at: string; outcome: typeof JOB_OUTCOME; jobId: string; only?: string },
): void {
  const { outcome } = row;
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
     INSERT INTO scans (${COLUMNS})
     SELECT ${row.id}, ${row.path}, ${row.name}, 100 + i % 4000, ${hex(16)}, ${hex(20)}, ${hex(32)}, 'sync', '${row.origin}', 'local',
       'verdict/bench/' || ${row.id}, ${hex(16)}, ${outcome.status}, ${outcome.safe}, ${outcome.detailed}, ${outcome.findings},
       'application/octet-stream', ${row.at}, ${row.at}, ${row.at}, 3,
       ${outcome.errorCode}, ${outcome.errorMessage}, ${row.jobId},
       ${engineColumns(outcome.safe)}
     FROM n ${row.only ? `WHERE ${row.only}` : ''}`,
  ).run(count);
}

/** A job file's folder and name, as the job's rows name them. */
const JOB_FOLDER = `'/home/user/folder-' || (i / 100) || '/'`;
const JOB_NAME = `'file-' || i || '.txt'`;
/** The clean files of a job (all but its threats and failures). */
const JOB_CLEAN = 'i % 10000 NOT IN (0, 5000)';

/** A finished job's clean files as compaction leaves them: one kind (ClamAV's clean verdict), folders shared by all jobs. */
function insertCompactFiles(db: DatabaseSync, count: number, jobId: number, startS: number): void {
  db.prepare(
    `INSERT OR IGNORE INTO job_file_kinds (id, origin, backend, mode, detailed, file_type, engine_name, engine_version, signatures_version, signatures_date)
     VALUES (1, 'cli', 'local', 'sync', 'clean', 'application/octet-stream', 'clamav', '1.4.3', 27800, '2026-11-24T09:21:02.000Z')`,
  ).run();
  const numbers = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)`;
  db.prepare(`${numbers} INSERT OR IGNORE INTO job_folders (path) SELECT DISTINCT ${JOB_FOLDER} FROM n`).run(count);
  db.prepare(
    `${numbers} INSERT INTO job_clean_files (job_id, folder_id, name, size, sha256, md5, sha1, kind_id, queued_ms, submitted_ms, completed_ms, duration_ms)
     SELECT ?, (SELECT id FROM job_folders WHERE path = ${JOB_FOLDER}), ${JOB_NAME}, 100 + i % 4000, randomblob(32), randomblob(16), randomblob(20), 1,
       ? * 1000 + i * 10, 0, 0, 3
     FROM n WHERE ${JOB_CLEAN}`,
  ).run(count, jobId, startS);
  db.prepare('UPDATE jobs SET compacted = 1 WHERE id = ?').run(jobId);
}

/** The end of the seeded history's time (its single scans run up to it), in ms: a "now" for questions about its last days. */
export const seededUntilMs = (shape: JobHistoryShape): number => (START_S + JOB_EVERY_S * (shape.jobs + 1)) * 1000;

/** Writes the history into `dataDir` (a new one); returns how many files it holds (scans rows and compacted clean files). */
export function seedJobHistory(dataDir: string, shape: JobHistoryShape): number {
  openHistory(dataDir).close();
  const db = new DatabaseSync(path.join(dataDir, HISTORY_FILE_NAME));
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
    db.exec('BEGIN');
    for (let job = 0; job < shape.jobs; job++) {
      const startS = START_S + JOB_EVERY_S * (job + 1);
      const finishS = startS + shape.filesPerJob / JOB_FILES_PER_S;
      // As finishJob counts them (jobTotals): scanned are the files with a verdict, failures apart.
      const threats = Math.ceil(shape.filesPerJob / 10_000);
      const couldNotScan = Math.ceil((shape.filesPerJob - 5000) / 10_000);
      const { lastInsertRowid } = db
        .prepare(
          `INSERT INTO jobs (kind, roots_json, origin, status, walk_complete, found, bytes, scanned, threats, could_not_scan, skipped, started_at, finished_at, active_ms)
           VALUES ('full', '["/home/user"]', 'cli', 'completed', 1, ?, ?, ?, ?, ?, 0, ${ISO('?')}, ${ISO('?')}, ?)`,
        )
        .run(shape.filesPerJob, shape.filesPerJob * 2000, shape.filesPerJob - couldNotScan, threats, couldNotScan, startS, finishS, (finishS - startS) * 1000);
      insertRows(db, shape.filesPerJob, {
        id: `'job${job}-' || i`,
        path: `${JOB_FOLDER} || ${JOB_NAME}`,
        name: JOB_NAME,
        origin: 'cli',
        at: ISO(`${startS} + i / ${JOB_FILES_PER_S}.0`),
        outcome: JOB_OUTCOME,
        jobId: String(lastInsertRowid),
        only: `NOT (${JOB_CLEAN})`,
      });
      insertCompactFiles(db, shape.filesPerJob, Number(lastInsertRowid), startS);
    }
    // Single scans spread over the whole time, between and during the jobs.
    const spanS = JOB_EVERY_S * (shape.jobs + 1);
    insertRows(db, shape.singles, {
      id: `'single-' || i`,
      path: `'/home/user/Downloads/' || ${NAME}`,
      name: NAME,
      origin: 'drop',
      at: ISO(`${START_S} + i * ${spanS / Math.max(1, shape.singles)}`),
      outcome: SINGLE_OUTCOME,
      jobId: 'NULL',
    });
    if (hasFts5(db) && db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'scans_name_search'`).get()) {
      db.exec(`INSERT INTO scans_name_search (scans_name_search) VALUES ('rebuild')`);
    }
    if (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'job_clean_names'`).get()) {
      db.exec(`INSERT INTO job_clean_names (rowid, file_name) SELECT id, coalesce(file_name, name) FROM job_clean_files`);
    }
    db.exec('COMMIT');
    db.exec('ANALYZE; PRAGMA wal_checkpoint(TRUNCATE);');
    // Every file of the history: the scans rows and the jobs' compacted clean files.
    return Number((db.prepare('SELECT (SELECT count(*) FROM scans) + (SELECT count(*) FROM job_clean_files) AS n').get() as { n: number }).n);
  } finally {
    db.close();
  }
}
