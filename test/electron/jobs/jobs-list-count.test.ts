// The list's totals at the scale of scan jobs (bench case 12), on real history files: a name
// search's capped count stops early because scans_listed_count is in insertion order (migration
// 11), a "clean" filter and a status filter are counted from that index alone, and a job's
// totals come from two indexes instead of every row's verdict. Each with what it answers (the
// same as verdictOf and the rows say) and the plan SQLite picks, with and without statistics.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_TOTALS_SQL } from '../../../electron/history/history-jobs.ts';
import { countSql } from '../../../electron/history/history-reads.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { LISTED_COUNT_COLUMNS } from '../../../electron/history/listed-count-engine-migration.ts';
import { migrate, MIGRATIONS } from '../../../electron/history/migrations.ts';
import { buildFilter, parseHistoryQuery } from '../../../electron/history/query-filter.ts';
import { verdictOf, type HistoryQuery, type ScanRecord } from '../../../shared/scans/record.ts';
import { expectedListTotal } from '../history/fixtures/listed-total.ts';
import { makeRecord } from '../history/fixtures/records.ts';
import { jobStateFor } from './job-kit.ts';

let folder = '';
let history: History;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-list-count-'));
  history = openHistory(folder);
});
afterEach(async () => {
  history.close();
  await rm(folder, { recursive: true, force: true });
});

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const NAMES = ['archive', 'backup', 'setup', 'zeta'];

/** Single scans of every outcome, named in turn, and a job of clean files with a threat, an allowed file, a failure and a skip. */
function seed(): { singles: ScanRecord[]; job: ScanRecord[]; jobId: number } {
  const outcomes: Array<Partial<ScanRecord>> = [
    { status: 'completed', safe: true },
    // Clean by basic checks only (the built-in engine): its own verdict, never clean.
    { status: 'completed', safe: true, engine: { name: 'builtin', version: null, signatures: null }, detailed: 'clean (basic checks only; ClamAV not available)' },
    { status: 'completed', safe: false },
    { status: 'completed', safe: false, disposition: 'allowed' },
    { status: 'completed', safe: null },
    { status: 'failed', error: { code: 'engine_error', message: 'no' } },
    { status: 'skipped', error: { code: 'excluded_path', message: 'left out' } },
  ];
  const singles = Array.from({ length: 56 }, (_, i) => makeRecord({ fileName: `${NAMES[i % 4]}-${i}.pdf`, queuedAt: at(i), ...outcomes[i % outcomes.length] }));
  history.insertMany(singles);
  const { id: _id, ...draft } = jobStateFor({ status: 'completed', walkComplete: true });
  const jobId = history.jobs.insert(draft);
  const job = [
    ...Array.from({ length: 30 }, (_, i) => makeRecord({ fileName: `setup-job-${i}.txt`, status: 'completed', safe: true, queuedAt: at(100 + i) })),
    makeRecord({ fileName: 'setup-threat.exe', status: 'completed', safe: false, queuedAt: at(200) }),
    makeRecord({ fileName: 'setup-allowed.exe', status: 'completed', safe: false, disposition: 'allowed', queuedAt: at(201) }),
    makeRecord({ fileName: 'setup-failed.txt', status: 'failed', error: { code: 'engine_error', message: 'no' }, queuedAt: at(202) }),
    makeRecord({ fileName: 'setup-skipped.txt', status: 'skipped', error: { code: 'excluded_path', message: 'left out' }, queuedAt: at(203) }),
  ];
  history.insertMany(job, jobId);
  return { singles, job, jobId };
}


function countPlan(db: DatabaseSync, query: HistoryQuery): string {
  const filter = buildFilter(parseHistoryQuery({ ...query, jobRows: 'threats' }));
  const capped = query.search !== undefined;
  return (db.prepare(`EXPLAIN QUERY PLAN ${countSql(filter, capped)}`).all(...filter.params, ...(capped ? [1001] : [])) as Array<{ detail: string }>).map((row) => row.detail).join('; ');
}

const QUERIES: HistoryQuery[] = [
  {},
  { search: 'setup' },
  { verdicts: ['safe'] },
  { verdicts: ['safe'], search: 'setup' },
  { verdicts: ['basic-only'] },
  { verdicts: ['safe', 'basic-only'] },
  { verdicts: ['unsafe'] },
  { verdicts: ['allowed'], search: 'setup' },
  { verdicts: ['could-not-scan'] },
  { statuses: ['failed'] },
  { statuses: ['failed', 'skipped'], search: 'setup' },
  { statuses: ['completed'] },
];

describe("the list's totals", () => {
  it('count what the list shows, for every filter the window asks (full pages, so the total is counted)', () => {
    const { singles, job } = seed();
    const all = history.query({ limit: 1000 }).items;
    expect(all).toHaveLength(singles.length + job.length);
    for (const query of QUERIES) {
      const page = history.query({ ...query, jobRows: 'threats', limit: 1 });
      expect(page.total, JSON.stringify(query)).toBe(expectedListTotal(all, query));
      expect(page.total, JSON.stringify(query)).toBeGreaterThan(0);
    }
  });

  it('are counted from scans_listed_count alone: by insertion order for a search, by its (job_id, status) range for other statuses', () => {
    seed();
    history.close();
    for (const analyzed of [false, true]) {
      const db = new DatabaseSync(join(folder, 'history.sqlite'));
      try {
        if (analyzed) db.exec('ANALYZE');
        const columns = (db.prepare('PRAGMA index_info(scans_listed_count)').all() as Array<{ name: string }>).map((column) => column.name);
        expect(columns).toEqual([...LISTED_COUNT_COLUMNS]);
        for (const query of [{}, { search: 'setup' }] as HistoryQuery[]) {
          expect(countPlan(db, query), `${JSON.stringify(query)}, analyzed: ${analyzed}`).toMatch(/SCAN scans USING COVERING INDEX scans_listed_count/);
        }
        // The clean filter: single scans completed with safe = 1, told from basic checks only by the engine's columns, which the index holds (migration 20).
        for (const query of [{ verdicts: ['safe'] }, { verdicts: ['safe'], search: 'setup' }, { verdicts: ['basic-only'] }] as HistoryQuery[]) {
          expect(countPlan(db, query), `${JSON.stringify(query)}, analyzed: ${analyzed}`).toMatch(/SEARCH scans USING COVERING INDEX scans_listed_count \(job_id=\? AND status=\? AND safe=\?\)/);
        }
        expect(countPlan(db, { statuses: ['failed'] })).toMatch(/SEARCH scans USING COVERING INDEX scans_listed_count \(job_id=\? AND status=\?\)/);
        expect(countPlan(db, { statuses: ['failed'] })).not.toMatch(/MULTI-INDEX/);
      } finally {
        db.close();
      }
    }
    history = openHistory(folder);
  });
});

describe("a job's totals", () => {
  it('are the rows by verdict, read from scans_by_job and scans_job_not_clean rather than each row', () => {
    const { job, jobId } = seed();
    const byVerdict = (verdict: string) => job.filter((record) => verdictOf(record) === verdict).length;
    expect(history.jobs.totals(jobId)).toEqual({
      scanned: byVerdict('safe') + byVerdict('unsafe') + byVerdict('allowed'),
      threats: byVerdict('unsafe'),
      couldNotScan: byVerdict('could-not-scan'),
      skipped: byVerdict('skipped'),
      partial: byVerdict('partial'),
      pending: 0,
    });
    history.close();
    const db = new DatabaseSync(join(folder, 'history.sqlite'), { readOnly: true });
    try {
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(jobId) as Array<{ detail: string }>).map((row) => row.detail).join('; ');
      expect(plan(JOB_TOTALS_SQL.rows)).toMatch(/COVERING INDEX scans_by_job/);
      expect(plan(JOB_TOTALS_SQL.notClean)).toMatch(/INDEX scans_job_not_clean/);
    } finally {
      db.close();
      history = openHistory(folder);
    }
  });
});

describe('migration 11', () => {
  it('rebuilds scans_listed_count in insertion order and gives it statistics when the database has them', () => {
    const file = join(folder, 'v10.sqlite');
    const db = new DatabaseSync(file);
    try {
      migrate(db, MIGRATIONS.filter((migration) => migration.version <= 10));
      db.exec(`INSERT INTO scans (id, path, file_name, origin, backend, external_reference_id, status, safe, queued_at)
        VALUES ('a', '/a', 'a.txt', 'drop', 'local', 'r-a', 'completed', 1, '${at(0)}'), ('b', '/b', 'b.txt', 'drop', 'local', 'r-b', 'failed', NULL, '${at(1)}');
        ANALYZE;`);
      expect((db.prepare('PRAGMA index_info(scans_listed_count)').all() as Array<{ name: string }>).map((column) => column.name)).toEqual(['job_id', 'status', 'safe', 'file_name']);
      expect(migrate(db, MIGRATIONS.filter((migration) => migration.version <= 11))).toContain(11);
      expect((db.prepare('PRAGMA index_info(scans_listed_count)').all() as Array<{ name: string }>).map((column) => column.name)).toEqual(['job_id', 'status', 'safe', 'seq', 'file_name']);
      expect(db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'scans_listed_count'").get()).toBeDefined();
    } finally {
      db.close();
    }
  });
});
