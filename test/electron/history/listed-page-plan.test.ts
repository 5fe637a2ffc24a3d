// The main list's pages on the statistics the app's PRAGMA optimize leaves on a history of 100,000
// single scans (the window case of the bench, issue 26 §5). With them SQLite read a page through a
// MULTI-INDEX OR of the list's two halves and sorted every row: 0.3-0.5 s a page, on the thread that
// answers the window, each time the list scrolled. A page the list's index walks in page order names
// it. The statistics are written into a small history: the plans are a large one's, the pages are
// checked against the records.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pageSql } from '../../../electron/history/history-reads.ts';
import { HISTORY_FILE_NAME, openHistory } from '../../../electron/history/history.ts';
import { buildFilter, parseHistoryQuery } from '../../../electron/history/query-filter.ts';
import type { HistoryQuery, ScanRecord } from '../../../shared/scans/record.ts';
import { jobStateFor } from '../jobs/job-kit.ts';
import { makeRecord } from './fixtures/records.ts';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-listed-page-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/** sqlite_stat1 of the bench's window history (100,000 clean single scans and a job of 5,000 files) after the app's PRAGMA optimize. */
const OPTIMIZED_STATS: ReadonlyArray<[string, string]> = [
  ['scans_by_job', '5005 2001'],
  ['scans_by_md5_prefix', '105005 1'],
  ['scans_by_sha1_prefix', '105005 1'],
  ['scans_by_sha256', '105005 1 1'],
  ['scans_by_status', '105005 1001 1 1'],
  ['scans_by_time', '105005 1 1 1'],
  ['scans_by_verdict', '105005 1001 1 1 1'],
  ['scans_job_not_clean', '3 3 1 1 1'],
  ['scans_job_pending', '0 0'],
  ['scans_listed', '100001 1 1 1'],
  ['scans_listed_count', '100001 2001 2001 2001 1 1 1 1'],
  ['scans_quarantine_pending', '0 0'],
  ['scans_safe_by_builtin', '5002 1'],
  ['sqlite_autoindex_scans_1', '105005 1'],
  ['sqlite_autoindex_scans_2', '105005 1'],
];

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** Clean single scans and a few others, then a job's clean files and its threat; every record, as stored. */
function seed(): ScanRecord[] {
  const history = openHistory(folder);
  try {
    const outcomes: Array<Partial<ScanRecord>> = [
      { status: 'completed', safe: true, detailed: 'clean' },
      { status: 'completed', safe: true, detailed: 'clean' },
      { status: 'completed', safe: false, detailed: 'Eicar FOUND' },
      { status: 'failed', error: { code: 'engine_error', message: 'no' } },
    ];
    const names = ['setup', 'invoice', 'photo'];
    history.insertMany(Array.from({ length: 60 }, (_, i) => makeRecord({ fileName: `${names[i % 3]}-${i}.pdf`, queuedAt: at(i), ...outcomes[i % outcomes.length] })));
    const { id: _id, ...draft } = jobStateFor({ status: 'completed', walkComplete: true });
    const jobId = history.jobs.insert(draft);
    history.insertMany(
      [
        ...Array.from({ length: 20 }, (_, i) => makeRecord({ fileName: `setup-job-${i}.txt`, status: 'completed', safe: true, detailed: 'clean', queuedAt: at(30 + i) })),
        makeRecord({ fileName: 'setup-threat.exe', status: 'completed', safe: false, queuedAt: at(45) }),
      ],
      jobId,
    );
    return history.query({ limit: 1000 }).items;
  } finally {
    history.close();
  }
}

function withOptimizedStatistics(): void {
  const db = new DatabaseSync(join(folder, HISTORY_FILE_NAME));
  try {
    db.exec("ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl = 'scans';");
    const insert = db.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('scans', ?, ?)");
    for (const [index, stat] of OPTIMIZED_STATS) insert.run(index, stat);
  } finally {
    db.close();
  }
}

/** The filters whose pages walk the list's index: none, a name search tested row by row, clean, completed. */
const WALKING: HistoryQuery[] = [{}, { search: 'setup' }, { verdicts: ['safe'] }, { statuses: ['completed'] }, { statuses: ['completed'], verdicts: ['safe'] }];

it("walks scans_listed in page order for the main list's pages: no MULTI-INDEX OR, no sort", () => {
  seed();
  withOptimizedStatistics();
  const db = new DatabaseSync(join(folder, HISTORY_FILE_NAME), { readOnly: true });
  try {
    for (const query of WALKING) {
      const filter = buildFilter(parseHistoryQuery({ ...query, jobRows: 'threats', offset: 200, limit: 200 }), { useNameIndex: false });
      const steps = (db.prepare(`EXPLAIN QUERY PLAN ${pageSql(filter)}`).all(...filter.params, 200, 200) as Array<{ detail: string }>).map((step) => step.detail).join('; ');
      expect(steps, JSON.stringify(query)).toMatch(/^SCAN scans USING INDEX scans_listed\b/);
      expect(steps, JSON.stringify(query)).not.toMatch(/MULTI-INDEX|TEMP B-TREE/);
    }
  } finally {
    db.close();
  }
});

it('pages the list as the records say, newest first, for the walking filters and a rare verdict', () => {
  const all = seed();
  withOptimizedStatistics();
  const history = openHistory(folder);
  try {
    for (const query of [...WALKING, { verdicts: ['unsafe'] } as HistoryQuery]) {
      const shown = all
        .filter((record) => !record.jobId || (record.status === 'completed' && record.safe === false))
        .filter((record) => (!query.statuses || query.statuses.includes(record.status)) && (!query.search || record.fileName.includes(query.search)))
        .filter((record) => !query.verdicts || (query.verdicts.includes('safe') ? record.safe === true : record.safe === false))
        .sort((a, b) => (a.queuedAt < b.queuedAt ? 1 : a.queuedAt > b.queuedAt ? -1 : 0));
      const pages = [0, 7, 14, 21, 28, 35].map((offset) => history.query({ ...query, jobRows: 'threats', order: 'newest', offset, limit: 7 }).items);
      expect(pages.flat().map((record) => record.id), JSON.stringify(query)).toEqual(shown.map((record) => record.id).slice(0, 42));
    }
  } finally {
    history.close();
  }
});
