// The main list's query with scan jobs (jobRows: 'threats'), on a real history file: a
// job's clean, failed and skipped rows stay out, its threats (and content allowed after
// being flagged) stay in, with any other filter; and SQLite answers it from the index
// made for it (migration 7), not by walking every file of the newest job.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SELECT_COLUMNS } from '../../../electron/history/history-db.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { buildFilter, parseHistoryQuery } from '../../../electron/history/query-filter.ts';
import type { HistoryQuery, ScanRecord } from '../../../shared/scans/record.ts';
import { makeRecord } from '../history/fixtures/records.ts';

let folder = '';
let history: History;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-list-query-'));
  history = openHistory(folder);
});
afterEach(async () => {
  history.close();
  await rm(folder, { recursive: true, force: true });
});

const done = (safe: boolean, over: Partial<ScanRecord> = {}) => makeRecord({ status: 'completed', safe, ...over });

function seed() {
  const single = done(true, { fileName: 'single.txt' });
  const singleThreat = done(false, { fileName: 'single-threat.exe' });
  const jobClean = [done(true, { fileName: 'job-a.txt' }), done(true, { fileName: 'job-b.txt' })];
  const jobFailed = makeRecord({ status: 'failed', fileName: 'job-failed.txt', error: { code: 'permission_denied', message: 'no' } });
  const jobSkipped = makeRecord({ status: 'skipped', fileName: 'job-skipped.txt', error: { code: 'excluded_path', message: 'left out' } });
  const jobQueued = makeRecord({ status: 'queued', fileName: 'job-queued.txt' });
  const jobThreat = done(false, { fileName: 'job-threat.exe' });
  const jobAllowed = done(false, { fileName: 'job-allowed.exe', disposition: 'allowed' });
  history.insertMany([single, singleThreat]);
  history.insertMany([...jobClean, jobFailed, jobSkipped, jobQueued, jobThreat, jobAllowed], 3);
  return { single, singleThreat, jobThreat, jobAllowed };
}

const names = (query: HistoryQuery) => history.query(query).items.map((record) => record.fileName).sort();

describe('the main list with scan jobs', () => {
  it('keeps a job’s own files out and its threats in, with every other filter', () => {
    seed();
    expect(names({ jobRows: 'threats' })).toEqual(['job-allowed.exe', 'job-threat.exe', 'single-threat.exe', 'single.txt']);
    expect(history.query({ jobRows: 'threats', limit: 1 }).total).toBe(4);
    expect(names({ jobRows: 'threats', verdicts: ['safe'] })).toEqual(['single.txt']);
    expect(names({ jobRows: 'threats', verdicts: ['unsafe', 'allowed'] })).toEqual(['job-allowed.exe', 'job-threat.exe', 'single-threat.exe']);
    expect(names({ jobRows: 'threats', statuses: ['failed', 'skipped', 'queued'] })).toEqual([]);
    expect(names({ jobRows: 'threats', search: 'job' })).toEqual(['job-allowed.exe', 'job-threat.exe']);
    // Every row without it (export, the threat count), a job's rows with `job`.
    expect(history.query({ limit: 1 }).total).toBe(9);
    expect(names({ job: 3, verdicts: ['could-not-scan', 'skipped'] })).toEqual(['job-failed.txt', 'job-skipped.txt']);
    expect(history.query({ job: 3, limit: 1 }).total).toBe(7);
  });

  it('is answered from the index made for it, unless a rare verdict is asked for', () => {
    seed();
    history.close();
    const db = new DatabaseSync(join(folder, 'history.sqlite'), { readOnly: true });
    try {
      const plan = (query: HistoryQuery) => {
        const filter = buildFilter(parseHistoryQuery(query));
        const rows = db.prepare(`EXPLAIN QUERY PLAN SELECT ${SELECT_COLUMNS} FROM scans ${filter.where} ${filter.orderBy} LIMIT 200`).all(...filter.params) as Array<{ detail: string }>;
        return rows.map((row) => row.detail).join('; ');
      };
      for (const query of [{ jobRows: 'threats' }, { jobRows: 'threats', verdicts: ['safe'] }, { jobRows: 'threats', statuses: ['completed'] }] as HistoryQuery[]) {
        expect(plan(query), JSON.stringify(query)).toMatch(/USING (COVERING )?INDEX scans_listed/);
        expect(plan(query), JSON.stringify(query)).not.toMatch(/TEMP B-TREE/);
      }
      // A rare verdict (few rows, a job's included) is still found through the verdict index.
      expect(plan({ jobRows: 'threats', verdicts: ['skipped'] })).toMatch(/INDEX scans_by_verdict/);
    } finally {
      db.close();
      history = openHistory(folder);
    }
  });
});
