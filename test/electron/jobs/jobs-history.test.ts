// The history's scan jobs (migration 4): a history of schema 3 with rows is upgraded in
// place (old rows belong to no job), and a job's rows are counted and listed by job_id.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../electron/history/migrations.ts';
import { queuedRecord, type ScanRecord } from '../../../shared/scans/record.ts';
import { tempDir } from '../scans/harness.ts';
import { jobStateFor } from './job-kit.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-jobs-history-');
});
afterEach(async () => {
  await dir.remove();
});

const record = (id: string, path: string): ScanRecord =>
  queuedRecord({ id, path, fileName: path.split('/').at(-1)!, origin: 'cli', backend: 'local', externalReferenceId: `verdict/test/${id}`, queuedAt: '2026-11-25T10:00:00.000Z' });

describe('scan jobs in the history', () => {
  it('upgrades a schema 3 history in place and keeps each job’s rows apart', () => {
    const file = join(dir.path, 'history.sqlite');
    const old = new DatabaseSync(file);
    migrate(old, MIGRATIONS.slice(0, 3));
    old.close();
    const history = openHistory(dir.path, { synchronous: 'NORMAL' });
    try {
      history.insert(record('00000000-0000-4000-8000-000000000001', '/single.txt'));
      const { id: _id, ...fields } = jobStateFor({ kind: 'custom', roots: ['/tree'] });
      const jobId = history.jobs.insert(fields);
      history.insertMany([record('00000000-0000-4000-8000-000000000002', '/tree/a.txt'), record('00000000-0000-4000-8000-000000000003', '/tree/b.txt')], jobId);
      history.update('00000000-0000-4000-8000-000000000002', { status: 'completed', safe: true, completedAt: '2026-11-25T10:00:01.000Z' });

      expect([...history.jobs.paths(jobId)].sort()).toEqual(['/tree/a.txt', '/tree/b.txt']);
      expect(history.jobs.pendingIds(jobId)).toEqual(['00000000-0000-4000-8000-000000000003']);
      expect(history.jobs.totals(jobId)).toEqual({ scanned: 1, threats: 0, couldNotScan: 0, skipped: 0, partial: 0, pending: 1 });
      expect(history.jobs.unfinished().map((job) => job.id)).toEqual([jobId]);
    } finally {
      history.close();
    }
    const check = new DatabaseSync(file, { readOnly: true });
    expect(userVersion(check)).toBe(LATEST_VERSION);
    expect(check.prepare('SELECT count(*) AS n FROM scans WHERE job_id IS NULL').get()).toEqual({ n: 1 });
    check.close();
  });
});
