// The main list's totals on a large history's statistics (bench case 12: 100,100 listed rows of
// 1.1 million). With those statistics SQLite counted a "clean" filter (and, with a wider index, the
// whole list) through a MULTI-INDEX OR of the list's two halves, reading every row: 3 ms for the
// slowest page of the bench, 70 ms for the clean filter alone. A total the list's index of counts
// answers alone (migration 20: it holds the engine columns that tell basic checks only from clean)
// is read from it, named in the statement. The statistics are the seeded history's, written into a
// small one: the plans are what a large history gets, the totals are checked against the records.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countSql } from '../../../electron/history/history-reads.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { LISTED_COUNT_COLUMNS } from '../../../electron/history/listed-count-engine-migration.ts';
import { migrate, MIGRATIONS } from '../../../electron/history/migrations.ts';
import { buildFilter, parseHistoryQuery } from '../../../electron/history/query-filter.ts';
import { BASIC_CHECKS_CLEAN_LABEL, VERDICTS, type HistoryQuery, type ScanRecord } from '../../../shared/scans/record.ts';
import { jobStateFor } from '../jobs/job-kit.ts';
import { expectedListTotal } from './fixtures/listed-total.ts';
import { makeRecord } from './fixtures/records.ts';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-listed-count-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** sqlite_stat1 of bench case 12's history (job-history-seed.ts, 10 jobs of 100,000 files and 100,000 scans) after ANALYZE. */
const LARGE_HISTORY_STATS: ReadonlyArray<[string, string]> = [
  ['scans_by_job', '200 20'],
  ['scans_by_md5_prefix', '100200 1'],
  ['scans_by_sha1_prefix', '100200 1'],
  ['scans_by_sha256', '100200 1 1'],
  ['scans_by_status', '100200 33400 1 1'],
  ['scans_by_time', '100200 1 1 1'],
  ['scans_by_verdict', '100200 25050 1 1 1'],
  ['scans_job_not_clean', '6200 564 270 1 1'],
  ['scans_job_pending', '0 0'],
  ['scans_listed', '100100 1 1 1'],
  ['scans_listed_count', '100100 9100 7700 7150 1 1 1 1'],
  ['scans_quarantine_pending', '0 0'],
  ['scans_safe_by_builtin', '0 0'],
  ['sqlite_autoindex_scans_1', '100200 1'],
  ['sqlite_autoindex_scans_2', '100200 1'],
];

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** Single scans of every outcome (basic checks only among them) named in turn, and a job with clean files, a threat and a failure. */
function seed(folderPath: string): ScanRecord[] {
  const history = openHistory(folderPath);
  try {
    const outcomes: Array<Partial<ScanRecord>> = [
      { status: 'completed', safe: true, detailed: 'clean', engine: { name: 'clamav', version: '1.4.3', signatures: null } },
      { status: 'completed', safe: true, engine: { name: 'builtin', version: null, signatures: null }, detailed: BASIC_CHECKS_CLEAN_LABEL },
      { status: 'completed', safe: true, detailed: BASIC_CHECKS_CLEAN_LABEL },
      { status: 'completed', safe: false, detailed: 'Eicar FOUND' },
      { status: 'completed', safe: false, disposition: 'allowed' },
      { status: 'failed', error: { code: 'engine_error', message: 'no' } },
      { status: 'skipped', error: { code: 'excluded_path', message: 'left out' } },
      { status: 'queued' },
    ];
    const names = ['setup', 'invoice', 'photo'];
    history.insertMany(Array.from({ length: 48 }, (_, i) => makeRecord({ fileName: `${names[i % 3]}-${i}.pdf`, queuedAt: at(i), ...outcomes[i % outcomes.length] })));
    const { id: _id, ...draft } = jobStateFor({ status: 'completed', walkComplete: true });
    const jobId = history.jobs.insert(draft);
    history.insertMany(
      [
        ...Array.from({ length: 20 }, (_, i) => makeRecord({ fileName: `setup-job-${i}.txt`, status: 'completed', safe: true, detailed: 'clean', queuedAt: at(100 + i) })),
        makeRecord({ fileName: 'setup-threat.exe', status: 'completed', safe: false, queuedAt: at(200) }),
        makeRecord({ fileName: 'setup-failed.txt', status: 'failed', error: { code: 'engine_error', message: 'no' }, queuedAt: at(201) }),
      ],
      jobId,
    );
    return history.query({ limit: 1000 }).items;
  } finally {
    history.close();
  }
}

/** Replaces the small history's statistics with the large one's (read when the database is opened next). */
function withLargeStatistics(file: string): void {
  const db = new DatabaseSync(file);
  try {
    db.exec("ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl = 'scans';");
    const insert = db.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('scans', ?, ?)");
    for (const [index, stat] of LARGE_HISTORY_STATS) insert.run(index, stat);
  } finally {
    db.close();
  }
}

/** The list's filters as the window sends them (renderer/scans/filters.ts: one verdict, one status, a search). */
const WINDOW_FILTERS: HistoryQuery[] = [
  {},
  { search: 'setup' },
  { search: 'se' },
  ...VERDICTS.map((verdict) => ({ verdicts: [verdict] })),
  { verdicts: ['safe'], search: 'setup' },
  { verdicts: ['basic-only'], search: 'setup' },
  { statuses: ['completed'] },
  { statuses: ['failed'] },
  { statuses: ['completed'], verdicts: ['safe'] },
];


describe("the main list's totals on a large history's statistics", () => {
  it('count what the list shows for every filter the window sends', () => {
    const all = seed(folder);
    withLargeStatistics(join(folder, 'history.sqlite'));
    const history = openHistory(folder);
    try {
      for (const query of WINDOW_FILTERS) {
        // One row a page: every page is full, so its total is counted.
        const page = history.query({ ...query, jobRows: 'threats', limit: 1 });
        expect(page.total, JSON.stringify(query)).toBe(expectedListTotal(all, query));
      }
      expect(history.query({ verdicts: ['basic-only'], jobRows: 'threats', limit: 1 }).total).toBeGreaterThan(0);
    } finally {
      history.close();
    }
  });

  it('are read from scans_listed_count alone when its columns answer them: no MULTI-INDEX OR, no row read, no sort', () => {
    seed(folder);
    withLargeStatistics(join(folder, 'history.sqlite'));
    const db = new DatabaseSync(join(folder, 'history.sqlite'), { readOnly: true });
    try {
      const columns = (db.prepare('PRAGMA index_info(scans_listed_count)').all() as Array<{ name: string }>).map((column) => column.name);
      expect(columns).toEqual([...LISTED_COUNT_COLUMNS]);
      const plan = (query: HistoryQuery) => {
        // A broad search: the name index's candidates are not the start (history-reads.ts decides that from their number).
        const filter = buildFilter(parseHistoryQuery({ ...query, jobRows: 'threats' }), { useNameIndex: false });
        const capped = query.search !== undefined;
        const steps = db.prepare(`EXPLAIN QUERY PLAN ${countSql(filter, capped)}`).all(...filter.params, ...(capped ? [1001] : [])) as Array<{ detail: string }>;
        return steps.map((step) => step.detail).join('; ');
      };
      for (const query of [{}, { search: 'setup' }, { verdicts: ['safe'] }, { verdicts: ['safe'], search: 'setup' }, { verdicts: ['basic-only'] }, { statuses: ['completed'] }] as HistoryQuery[]) {
        const steps = plan(query);
        expect(steps, JSON.stringify(query)).toMatch(/(SCAN|SEARCH) scans USING COVERING INDEX scans_listed_count/);
        expect(steps, JSON.stringify(query)).not.toMatch(/MULTI-INDEX|TEMP B-TREE/);
      }
      expect(plan({ statuses: ['failed'] })).toMatch(/SEARCH scans USING COVERING INDEX scans_listed_count \(job_id=\? AND status=\?\)/);
      // Clean rows of the main list are single scans, completed with safe = 1: that range only.
      for (const query of [{ verdicts: ['safe'] }, { verdicts: ['basic-only'], search: 'setup' }] as HistoryQuery[]) {
        expect(plan(query), JSON.stringify(query)).toMatch(/SEARCH scans USING COVERING INDEX scans_listed_count \(job_id=\? AND status=\? AND safe=\?\)/);
      }
      // A verdict the generated column tells: through the verdict index, as before.
      expect(plan({ verdicts: ['could-not-scan'] })).toMatch(/SEARCH scans USING INDEX scans_by_verdict \(verdict=\?\)/);
    } finally {
      db.close();
    }
  });
});

describe('migration 20', () => {
  it("rebuilds scans_listed_count with the engine's columns and gives it statistics when the database has them", () => {
    const db = new DatabaseSync(join(folder, 'v19.sqlite'));
    try {
      migrate(db, MIGRATIONS.filter((migration) => migration.version <= 19));
      db.exec(`INSERT INTO scans (id, path, file_name, origin, backend, external_reference_id, status, safe, queued_at)
        VALUES ('a', '/a', 'a.txt', 'drop', 'local', 'r-a', 'completed', 1, '${at(0)}'); ANALYZE;`);
      expect(migrate(db)).toContain(20);
      expect((db.prepare('PRAGMA index_info(scans_listed_count)').all() as Array<{ name: string }>).map((column) => column.name)).toEqual([...LISTED_COUNT_COLUMNS]);
      expect(db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'scans_listed_count'").get()).toBeDefined();
    } finally {
      db.close();
    }
  });
});
