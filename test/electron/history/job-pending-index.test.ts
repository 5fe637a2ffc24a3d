// Migration 8 (issue 16): a job's unfinished rows through a partial index. A database at
// schema 7 holding a job moves to the latest version; jobs.pendingIds finds exactly the
// job's queued, uploading and processing rows (not another job's, not a single scan's),
// and SQLite answers it from the new index, not by walking every file of the job. The main
// list's total is counted from the narrow index made for it, and a job's failures are found
// through the index of its other than clean rows.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { JOB_PENDING, LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../electron/history/migrations.ts';
import { buildFilter, parseHistoryQuery } from '../../../electron/history/query-filter.ts';
import { RECORD_COLUMNS, recordToRow } from '../../../electron/history/row-mapping.ts';
import { COLUMNS_OF_MIGRATION_13 } from '../../../electron/history/unchanged-files-migration.ts';
import { COLUMNS_OF_MIGRATION_14 } from '../../../electron/history/allowed-by-migration.ts';
import { COLUMNS_OF_MIGRATION_16 } from '../../../electron/history/engine-detection-migration.ts';
import { COLUMNS_OF_MIGRATION_18 } from '../../../electron/history/engine-self-test-migration.ts';
import type { LocalStatus, ScanRecord } from '../../../shared/scans/record.ts';
import { makeRecord } from './fixtures/records.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-pending-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const FILE = 'v7.sqlite';

/** A history at schema 7 holding `rows` (each with its job, or none), written as schema 7 wrote them. */
function schema7With(rows: ReadonlyArray<{ record: ScanRecord; job: number | null }>): void {
  const db = new DatabaseSync(path.join(dataDir, FILE));
  try {
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 7));
    db.exec(`INSERT INTO jobs (id, kind, roots_json, origin, status, started_at) VALUES (1, 'full', '["/home"]', 'cli', 'running', '2026-01-01T00:00:00.000Z'),
      (2, 'quick', '["/tmp"]', 'cli', 'paused', '2026-01-02T00:00:00.000Z')`);
    const columns = RECORD_COLUMNS.filter((column) => ![...COLUMNS_OF_MIGRATION_13, ...COLUMNS_OF_MIGRATION_14, ...COLUMNS_OF_MIGRATION_16, ...COLUMNS_OF_MIGRATION_18].includes(column));
    const insert = db.prepare(`INSERT INTO scans (${columns.join(', ')}, job_id) VALUES (${columns.map(() => '?').join(', ')}, ?)`);
    db.exec('BEGIN');
    for (const { record, job } of rows) {
      const row = recordToRow(record);
      insert.run(...columns.map((column) => row[column] ?? null), job);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

const row = (id: string, status: LocalStatus, job: number | null) => ({
  record: makeRecord({ id, status, ...(status === 'completed' ? { safe: true, detailed: 'clean', completedAt: '2026-01-01T00:00:01.000Z' } : {}) }),
  job,
});

describe('migration 8 (a job’s unfinished rows, the list’s count)', () => {
  it('moves a schema 7 database to the latest version; pendingIds finds the job’s unfinished rows through the new index', () => {
    schema7With([
      ...(['completed', 'failed', 'skipped'] as const).map((status) => row(`done-${status}`, status, 1)),
      ...Array.from({ length: 50 }, (_, i) => row(`clean-${i}`, 'completed', 1)),
      ...(['queued', 'uploading', 'processing'] as const).map((status) => row(`open-${status}`, status, 1)),
      row('other-job', 'queued', 2),
      row('single', 'queued', null),
    ]);
    const history = openHistory(dataDir, { fileName: FILE });
    try {
      expect(history.jobs.pendingIds(1).sort()).toEqual(['open-processing', 'open-queued', 'open-uploading']);
      expect(history.jobs.pendingIds(2)).toEqual(['other-job']);
      expect(history.jobs.pendingIds(3)).toEqual([]);
    } finally {
      history.close();
    }
    const db = new DatabaseSync(path.join(dataDir, FILE), { readOnly: true });
    try {
      expect(userVersion(db)).toBe(LATEST_VERSION);
      const index = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'scans_job_pending'`).get() as { sql: string } | undefined;
      expect(index?.sql).toContain(JOB_PENDING);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM scans WHERE job_id = ? AND ${JOB_PENDING}`).all(1) as Array<{ detail: string }>).map((step) => step.detail).join('; ');
      expect(plan).toMatch(/USING INDEX scans_job_pending/);
      // A job's expanded row (its threats, failures, skipped files): through the index of its other than clean rows.
      const expansion = buildFilter(parseHistoryQuery({ job: 1, verdicts: ['could-not-scan'], order: 'oldest' }));
      const expansionPlan = (db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM scans ${expansion.where} ${expansion.orderBy}`).all(...expansion.params) as Array<{ detail: string }>)
        .map((step) => step.detail)
        .join('; ');
      expect(expansionPlan).toMatch(/USING INDEX scans_job_not_clean/);
      expect((db.prepare(`SELECT id FROM scans ${expansion.where}`).all(...expansion.params) as Array<{ id: string }>).map((found) => found.id)).toEqual(['done-failed']);
      // The list's total: from the narrow index alone, the same rows as the list.
      const filter = buildFilter(parseHistoryQuery({ jobRows: 'threats' }));
      const countPlan = (db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) AS n FROM scans ${filter.where}`).all(...filter.params) as Array<{ detail: string }>).map((step) => step.detail).join('; ');
      expect(countPlan).toMatch(/USING COVERING INDEX scans_listed_count/);
      expect((db.prepare(`SELECT count(*) AS n FROM scans ${filter.where}`).get(...filter.params) as { n: number }).n).toBe(1);
    } finally {
      db.close();
    }
  });
});
