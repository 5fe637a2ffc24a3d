// A job's clean verdict moves its file into the compact store as it is written (finish-clean.ts; the CLI's
// history, compactOnVerdict): stored exactly as the compaction would store the same record later, read
// back as returned, and all or none:
// until the grouped commit, another connection (a crash) sees the queued row and no compact one. What
// the compact store cannot keep (a threat, a finding, another writer's mark) stays in `scans`. Real
// history files; generated paths and kinds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory, type History } from '../../../../electron/history/history.ts';
import type { ScanRecordPatch } from '../../../../electron/history/row-mapping.ts';
import { queuedRecord, type ScanRecord } from '../../../../shared/scans/record.ts';
import { committedStatus } from '../fixtures/committed-status.ts';
import { cleanFile, compactAll, seedJob, storeCounts } from './fixtures.ts';

let folder: string;
let history: History;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-finish-clean-'));
  history = openHistory(folder, { commitWindowMs: 60_000, compactOnVerdict: true });
});
afterEach(async () => {
  history.close();
  await rm(folder, { recursive: true, force: true });
});

const historyFile = () => join(folder, 'history.sqlite');

/** The file of a clean record, queued as the intake queues it (in job `jobId`), and the verdict the pipeline then writes. */
function queuedAndVerdict(record: ScanRecord, jobId: number): { queued: ScanRecord; verdict: ScanRecordPatch } {
  const { id, path, fileName, origin, backend, externalReferenceId, queuedAt, size: _size, ...verdict } = record;
  const queued = { ...queuedRecord({ id, path, fileName, origin, backend, externalReferenceId, queuedAt }), jobId };
  const { status, safe, detailed, findings, engine, fileType, completedAt, submittedAt, durationMs, sha256, md5, sha1, mode, reuseKind, reusedFromId, serviceScanId } = verdict;
  return { queued, verdict: { serviceScanId, status, safe, detailed, findings, engine, fileType, completedAt, submittedAt, durationMs, sha256, md5, sha1, mode, size: record.size, pendingReason: null, error: null, ...(reuseKind ? { reuseKind, reusedFromId } : {}) } };
}

/** The job's compact rows as stored, each cell quoted (a BLOB shows as X'…'), in the order stored. */
function cells(jobId: number): unknown[] {
  const db = new DatabaseSync(historyFile(), { readOnly: true });
  try {
    const columns = ['f.path', 'c.name', 'c.file_name', 'c.size', 'c.sha256', 'c.md5', 'c.sha1', 'c.kind_id', 'c.queued_ms', 'c.submitted_ms', 'c.completed_ms', 'c.duration_ms', 'c.reused_from_id'];
    const sql = `SELECT ${columns.map((cell) => `quote(${cell})`).join(" || ' ' || ")} AS stored FROM job_clean_files AS c JOIN job_folders AS f ON f.id = c.folder_id WHERE c.job_id = ? ORDER BY c.id`;
    return db.prepare(sql).all(jobId).map((row) => row.stored);
  } finally {
    db.close();
  }
}

const segment = fc.string({ unit: fc.oneof(fc.constantFrom('/', '\\', '\uFDD0', '\uD800', 'ä', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0')), minLength: 1, maxLength: 10 });
const ENGINES: Array<ScanRecord['engine']> = [
  { name: 'builtin', version: null, signatures: null },
  { name: 'clamav', version: '1.4.6', signatures: { version: 27000, date: '2026-11-27T00:00:00.000Z' }, signatureBasis: 'databases', databases: 'b'.repeat(64) },
];
const files = fc.array(
  fc.record({ parts: fc.array(segment, { minLength: 1, maxLength: 3 }), engine: fc.constantFrom(...ENGINES), md5: fc.boolean(), durability: fc.constantFrom('now' as const, 'soon' as const) }),
  { minLength: 1, maxLength: 10 },
);

describe("a job's clean verdict, written", () => {
  it('moves the file into the compact store as the compaction would, and reads back as returned', () => {
    fc.assert(
      fc.property(files, (generated) => {
        const direct = seedJob(history, 0, 'running').id;
        const later = seedJob(history, 0).id;
        const records = generated.map(({ parts, engine, md5 }, i) => {
          const path = `/${parts.join('/')}`;
          // A local scan records sha256 alone; a remote service's answer brings md5 and sha1 too.
          return cleanFile(i, { path, fileName: path.slice(path.lastIndexOf('/') + 1), engine, ...(md5 ? {} : { md5: null, sha1: null, serviceScanId: null }) });
        });
        const moved = records.map((record, i) => {
          const { queued, verdict } = queuedAndVerdict(record, direct);
          history.insertMany([queued], direct);
          return history.apply(queued, verdict, generated[i]!.durability)!;
        });
        history.flush();
        expect(moved.every((record) => record.id.startsWith('clean:') && record.externalReferenceId === record.id)).toBe(true);
        // As returned, but for the service's scan id, which the compact store does not keep.
        expect(moved.map((record) => history.get(record.id))).toEqual(moved.map((record) => ({ ...record, serviceScanId: null })));
        expect(storeCounts(folder, direct)).toMatchObject({ scans: 5, compact: records.length });
        // The same records, written whole and compacted at the job's end.
        history.insertMany(records, later);
        compactAll(history, later);
        expect(cells(direct).slice(-records.length)).toEqual(cells(later));
      }),
      { numRuns: 30 },
    );
  });

  it('is all or none with its grouped commit: until then, another connection sees the queued row', () => {
    const jobId = seedJob(history, 0, 'running').id;
    const { queued, verdict } = queuedAndVerdict(cleanFile(1), jobId);
    history.insertMany([queued], jobId);
    // A job's rows wait for the grouped commit too (its walk finds them again after a crash).
    expect(committedStatus(historyFile(), queued.id)).toBeUndefined();
    history.flush();
    const moved = history.apply(queued, verdict, 'soon')!;
    expect(committedStatus(historyFile(), queued.id)).toBe('queued');
    expect(committedStatus(historyFile(), moved.id)).toBeUndefined();
    // This connection reads its own waiting write.
    expect(history.get(queued.id)).toBeNull();
    history.flush();
    expect(committedStatus(historyFile(), queued.id)).toBeUndefined();
    expect(committedStatus(historyFile(), moved.id)).toBe('completed');
  });

  it('leaves in `scans` what the compact store cannot keep, with its verdict', () => {
    const jobId = seedJob(history, 0, 'running').id;
    const cases: Array<[string, ScanRecordPatch]> = [
      ['a threat', { safe: false, detailed: 'Eicar FOUND', findings: [{ name: 'Eicar' }] }],
      ['a clean verdict with a finding', { findings: [{ name: 'Heuristics.Note' }] }],
      ['an uppercase digest', { sha256: 'A'.repeat(64) }],
    ];
    const kept = cases.map(([what, change], i) => {
      const { queued, verdict } = queuedAndVerdict(cleanFile(i), jobId);
      history.insertMany([queued], jobId);
      return { what, saved: history.apply(queued, { ...verdict, ...change }, 'now')!, id: queued.id };
    });
    for (const { what, saved, id } of kept) {
      expect(saved.id, what).toBe(id);
      expect(history.get(id)?.status, what).toBe('completed');
    }
    // Not a job's file: a drop's clean verdict stays where the list reads it.
    const { queued: dropped, verdict } = queuedAndVerdict(cleanFile(9), jobId);
    const { jobId: _none, ...single } = dropped;
    history.insertMany([single]);
    expect(history.apply(single, verdict, 'now')!.id).toBe(single.id);
  });

  it('stays in `scans` until the job is compacted without compactOnVerdict (the app: it compacts after the job)', () => {
    history.close();
    history = openHistory(folder, { commitWindowMs: 60_000 });
    const jobId = seedJob(history, 0, 'running').id;
    const { queued, verdict } = queuedAndVerdict(cleanFile(5), jobId);
    history.insertMany([queued], jobId);
    expect(history.apply(queued, verdict, 'now')!.id).toBe(queued.id);
    expect(history.get(queued.id)).toMatchObject({ status: 'completed', safe: true });
  });

  it('is not moved when another writer marked the row for a rescan meanwhile', () => {
    const jobId = seedJob(history, 0, 'running').id;
    const { queued, verdict } = queuedAndVerdict(cleanFile(3), jobId);
    history.insertMany([queued], jobId);
    history.flush();
    const other = new DatabaseSync(historyFile());
    other.prepare("UPDATE scans SET rescan_requested_at = '2026-11-29T10:00:00.000Z' WHERE id = ?").run(queued.id);
    other.close();
    const saved = history.apply(queued, verdict, 'now')!;
    expect(saved.id).toBe(queued.id);
    expect(history.get(queued.id)).toMatchObject({ status: 'completed', safe: true });
  });
});
