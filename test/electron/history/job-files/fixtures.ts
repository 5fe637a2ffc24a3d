// A finished job in a real history file for the compact store's tests: clean files in
// folders of 50 with real digests and the pipeline's ISO times, plus the rows that must
// stay in `scans` (a threat, a failure, a skip, a clean file with a finding, one whose time
// would not read back the same).
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { History } from '../../../../electron/history/history.ts';
import type { ScanRecord } from '../../../../shared/scans/record.ts';
import { jobStateFor } from '../../jobs/job-kit.ts';
import { makeRecord } from '../fixtures/records.ts';

const digest = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');
const BASE = Date.UTC(2026, 10, 25, 10);

export interface SeededJob {
  id: number;
  clean: ScanRecord[];
  /** The rows that stay in `scans`. */
  others: ScanRecord[];
}

/** A clean file `i` of a job as the pipeline records it (the built-in engine, or ClamAV with signatures). */
export function cleanFile(i: number, over: Partial<ScanRecord> = {}): ScanRecord {
  const fileName = `f-${i}.txt`;
  const path = `/home/user/tree/d${Math.floor(i / 200)}/s${Math.floor(i / 50) % 4}/${fileName}`;
  const queued = BASE + i * 7;
  return makeRecord({
    id: randomUUID(),
    path,
    fileName,
    size: 100 + (i % 4000),
    md5: digest('md5', path),
    sha1: digest('sha1', path),
    sha256: digest('sha256', path),
    status: 'completed',
    safe: true,
    detailed: 'clean (basic checks only; ClamAV not available)',
    fileType: 'text/plain',
    queuedAt: new Date(queued).toISOString(),
    submittedAt: new Date(queued + 1).toISOString(),
    completedAt: new Date(queued + 3).toISOString(),
    durationMs: 2,
    origin: 'cli',
    externalReferenceId: `verdict/cli/${randomUUID()}`,
    serviceScanId: randomUUID(),
    engine: { name: 'builtin', version: null, signatures: null },
    ...over,
  });
}

/** Stores a job (finished unless `status` says otherwise) with `count` clean files and the rows that stay. */
export function seedJob(history: History, count: number, status: 'completed' | 'cancelled' | 'running' = 'completed'): SeededJob {
  const { id: _id, ...draft } = jobStateFor({ status, walkComplete: true, finishedAt: status === 'running' ? null : new Date(BASE).toISOString() });
  const id = history.jobs.insert(draft);
  const clean = Array.from({ length: count }, (_, i) => cleanFile(i));
  const at = { queuedAt: new Date(BASE).toISOString(), completedAt: new Date(BASE).toISOString() };
  const others = [
    makeRecord({ status: 'completed', safe: false, detailed: 'Eicar FOUND', findings: [{ name: 'Eicar' }], ...at }),
    makeRecord({ status: 'failed', error: { code: 'permission_denied', message: 'no' }, ...at }),
    makeRecord({ status: 'skipped', error: { code: 'excluded_path', message: 'left out' }, ...at }),
    cleanFile(count + 1, { findings: [{ name: 'Heuristics.Note' }] }),
    cleanFile(count + 2, { queuedAt: '2026-11-25T10:00:00.5Z' }),
  ];
  for (let start = 0; start < clean.length; start += 1000) history.insertMany(clean.slice(start, start + 1000), id);
  history.insertMany(others, id);
  return { id, clean, others };
}

/** Runs a job's compaction to its end, as the core does; returns the steps it took. */
export function compactAll(history: History, id: number, chunk = 1000): number {
  let steps = 1;
  while (!history.jobs.compactStep(id, chunk).done) steps++;
  while (history.jobs.reclaimSpace(2048) > 0);
  return steps;
}

export interface StoreCounts {
  scans: number;
  compact: number;
  folders: number;
  kinds: number;
}

/** How many rows of the job each store holds, read from the file by a second connection. */
export function storeCounts(dataDir: string, jobId: number): StoreCounts {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'));
  try {
    const n = (sql: string, ...params: number[]) => Number((db.prepare(sql).get(...params) as { n: number }).n);
    return {
      scans: n('SELECT count(*) AS n FROM scans WHERE job_id = ?', jobId),
      compact: n('SELECT count(*) AS n FROM job_clean_files WHERE job_id = ?', jobId),
      folders: n('SELECT count(*) AS n FROM job_folders'),
      kinds: n('SELECT count(*) AS n FROM job_file_kinds'),
    };
  } finally {
    db.close();
  }
}

/** A record as the compact store gives it back: its own id, no service scan id (the service forgot it). */
export const asCompacted = (record: ScanRecord): Omit<ScanRecord, 'id' | 'externalReferenceId' | 'serviceScanId'> => {
  const { id: _id, externalReferenceId: _ref, serviceScanId: _scan, ...rest } = record;
  return rest;
};
