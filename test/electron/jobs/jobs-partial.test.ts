// A job's files scanned in part (issue 27 §3) are counted among those scanned, never as threats
// (jobTotals after a restart, and countFinished as they end), are listed under their own verdict and
// not with the threats, and stay out of the compact store of clean files.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import type { ScanRecordPatch } from '../../../electron/history/row-mapping.ts';
import { countFinished } from '../../../electron/jobs/run-job.ts';
import { SCANNED_IN_PART_LABEL } from '../../../shared/scans/coverage.ts';
import { queuedRecord, type ScanRecord } from '../../../shared/scans/record.ts';
import { tempDir } from '../scans/harness.ts';
import { jobStateFor } from './job-kit.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-jobs-partial-');
});
afterEach(async () => {
  await dir.remove();
});

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const record = (n: number, name: string): ScanRecord =>
  queuedRecord({ id: id(n), path: `/tree/${name}`, fileName: name, origin: 'cli', backend: 'local', externalReferenceId: `verdict/test/${id(n)}`, queuedAt: '2026-11-25T10:00:00.000Z' });
const at = '2026-11-25T10:00:01.000Z';
const VERDICTS: Record<'clean' | 'partial' | 'threat', ScanRecordPatch> = {
  clean: { status: 'completed', safe: true, detailed: 'clean', completedAt: at },
  partial: { status: 'completed', safe: false, detailed: SCANNED_IN_PART_LABEL, findings: [{ name: 'Heuristics.Encrypted.Zip' }], completedAt: at },
  threat: { status: 'completed', safe: false, detailed: 'infected', findings: [{ name: 'Eicar-Signature' }], completedAt: at },
};

describe('a job and its files scanned in part', () => {
  it('counts them as scanned, not as threats, lists them apart and keeps them out of the compact store', () => {
    const history = openHistory(dir.path, { synchronous: 'NORMAL' });
    try {
      const { id: _id, ...fields } = jobStateFor({ kind: 'custom', roots: ['/tree'] });
      const jobId = history.jobs.insert(fields);
      const names = ['a.txt', 'photos.zip', 'big.iso', 'eicar.com'];
      history.insertMany(names.map((name, i) => record(i + 1, name)), jobId);
      const patches = [VERDICTS.clean, VERDICTS.partial, { ...VERDICTS.partial, findings: [{ name: 'Heuristics.Limits.Exceeded.MaxFileSize' }] }, VERDICTS.threat];
      patches.forEach((patch, i) => history.update(id(i + 1), patch));

      expect(history.jobs.totals(jobId)).toEqual({ scanned: 4, threats: 1, couldNotScan: 0, skipped: 0, partial: 2, pending: 0 });
      const partial = history.query({ job: jobId, verdicts: ['partial'], limit: 10 });
      expect(partial.items.map((r) => r.fileName).sort()).toEqual(['big.iso', 'photos.zip']);
      expect(history.query({ job: jobId, verdicts: ['unsafe', 'allowed'], limit: 10 }).items.map((r) => r.fileName)).toEqual(['eicar.com']);

      // As they end, the run counts the same.
      const run = { state: { ...fields, id: jobId, counts: { found: 4, bytes: 0, scanned: 0, threats: 0, couldNotScan: 0, skipped: 0 } } } as unknown as Parameters<typeof countFinished>[0];
      for (const n of [1, 2, 3, 4]) countFinished(run, history.get(id(n))!);
      expect(run.state.counts).toMatchObject({ scanned: 4, threats: 1, couldNotScan: 0, partial: 2 });

      // Only the clean file moves to the compact store; the ones scanned in part stay rows of their own.
      history.jobs.save({ ...fields, id: jobId, status: 'completed', finishedAt: at });
      while (!history.jobs.compactStep(jobId, 100).done);
      expect(history.query({ job: jobId, verdicts: ['partial'], limit: 10 }).total).toBe(2);
      expect(history.jobs.totals(jobId)).toEqual({ scanned: 4, threats: 1, couldNotScan: 0, skipped: 0, partial: 2, pending: 0 });
    } finally {
      history.close();
    }
  });
});
