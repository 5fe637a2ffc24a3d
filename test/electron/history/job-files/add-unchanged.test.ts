// A job's unchanged files go straight into the compact store (add-unchanged.ts): each must be stored
// exactly as the compaction stores the same record from a `scans` row (compact-job.ts), and read
// back as it was given, under compact ids in the order given: the same cells (type included), not only
// the same records read back (a path split elsewhere, or its own name kept, reads back alike).
// Generated paths: any characters, both separators, the stored-text mark and a lone surrogate (a name that
// is not UTF-8), names that differ from the path's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openHistory, type History } from '../../../../electron/history/history.ts';
import type { ScanRecord } from '../../../../shared/scans/record.ts';
import { cleanFile, compactAll, seedJob } from './fixtures.ts';

let folder: string;
let history: History;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-add-unchanged-'));
  history = openHistory(folder);
});
afterEach(async () => {
  history.close();
  await rm(folder, { recursive: true, force: true });
});

// Any character but NUL: no file name holds one (the intake refuses such a path before any row is written),
// and SQLite's length() stops at it: the stores would split such a path at the wrong place.
const character = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0');
const segment = fc.string({ unit: fc.oneof(fc.constantFrom('/', '\\', '\uFDD0', '\uD800', '%', 'ä', ' '), character), minLength: 1, maxLength: 12 });
// What the compact store keeps once per kind: engines with and without signatures, and the nullable columns.
const ENGINES: Array<ScanRecord['engine']> = [null, { name: 'builtin', version: null, signatures: null }, { name: 'clamav', version: '1.4.6', signatures: { version: 27000, date: '2026-11-27T00:00:00.000Z' } }, { name: 'clamav', version: '1.4.6', signatures: null },
  { name: 'clamav', version: '1.4.6', signatures: null, signatureBasis: 'databases', databases: 'a'.repeat(64), detection: 'heuristic-alerts-off' },
  { name: 'clamav', version: '1.4.6', signatures: { version: 27000, date: '2026-11-27T00:00:00.000Z' }, signatureBasis: 'version', selfTest: 'failed' },
];
const kind = fc.record({ engine: fc.constantFrom(...ENGINES), mode: fc.constantFrom('sync' as const, 'async' as const, null), fileType: fc.constantFrom('text/plain', null), detailed: fc.constantFrom('clean', null), reuseKind: fc.constantFrom('unchanged' as const, 'content' as const, undefined) });
const files = fc.array(fc.record({ parts: fc.array(segment, { minLength: 1, maxLength: 4 }), ownName: fc.option(segment, { nil: undefined }), kind }), { minLength: 1, maxLength: 12 });

/** A job's files in the compact store as they read back: every field but the ids the two ways give out. */
function stored(jobId: number): Array<Omit<ScanRecord, 'id' | 'externalReferenceId' | 'jobId'>> {
  return [...history.jobs.finishedRecords(jobId)].filter((record) => record.id.startsWith('clean:')).map(({ id: _id, externalReferenceId: _ref, jobId: _job, ...rest }) => rest);
}

const CELLS = ['c.folder_id', 'f.path', 'c.name', 'c.file_name', 'c.size', 'c.sha256', 'c.md5', 'c.sha1', 'c.kind_id', 'c.queued_ms', 'c.submitted_ms', 'c.completed_ms', 'c.duration_ms', 'c.reused_from_id', 'c.rescan_requested_ms'];

/** A job's compact rows as stored, each cell quoted (its type shows: a BLOB is X'…'), in the order stored. */
function cells(jobId: number): unknown[] {
  const db = new DatabaseSync(join(folder, 'history.sqlite'), { readOnly: true });
  try {
    const sql = `SELECT ${CELLS.map((cell) => `quote(${cell})`).join(" || ' ' || ")} AS stored FROM job_clean_files AS c JOIN job_folders AS f ON f.id = c.folder_id WHERE c.job_id = ? ORDER BY c.id`;
    return db.prepare(sql).all(jobId).map((row) => row.stored);
  } finally {
    db.close();
  }
}

it('stores each file as the compaction stores it, and reads it back as given', () => {
  fc.assert(
    fc.property(files, (generated) => {
      const direct = seedJob(history, 0).id;
      const compacted = seedJob(history, 0).id;
      const records: ScanRecord[] = generated.map(({ parts, ownName, kind }, i) => {
        const path = `/${parts.join('/')}`;
        const { reuseKind, ...rest } = kind;
        return cleanFile(i, { path, fileName: ownName ?? path.slice(path.lastIndexOf('/') + 1), ...rest, ...(reuseKind ? { reuseKind, reusedFromId: 'clean:1' } : {}) });
      });
      const added = history.jobs.addUnchanged(records.map((record) => ({ ...record, jobId: direct })));
      expect(added.map((record) => record.id)).toEqual(added.map((_, i) => `clean:${Number(added[0]!.id.slice(6)) + i}`));
      history.insertMany(records, compacted);
      compactAll(history, compacted);
      const written = stored(direct);
      expect(written).toEqual(stored(compacted));
      expect(cells(direct)).toEqual(cells(compacted));
      expect(written).toHaveLength(records.length);
      // Read back as given: the name, and the verdict's whole engine (its databases digest, a failed self-test) and reuse.
      expect(written.map((record) => [record.path, record.fileName, record.engine, record.reuseKind])).toEqual(records.map((record) => [record.path, record.fileName, record.engine, record.reuseKind]));
    }),
    { numRuns: 40 },
  );
});

it('asks again for a folder whose id a rollback or the drop of unused folders may have taken away', () => {
  const inFolder = (job: number, folderPath: string, i: number) => cleanFile(i, { path: `${folderPath}/f-${i}.txt`, fileName: `f-${i}.txt`, jobId: job });
  const pathOf = (record: ScanRecord | undefined) => history.get(record!.id)?.path;
  const running = seedJob(history, 0, 'running').id;

  // Rolled back: /a and its id are gone, and /b takes that id.
  expect(() =>
    history.transaction(() => {
      history.jobs.addUnchanged([inFolder(running, '/a', 1)]);
      throw new Error('rolled back');
    }),
  ).toThrow('rolled back');
  expect(pathOf(history.jobs.addUnchanged([inFolder(running, '/b', 2)])[0])).toBe('/b/f-2.txt');
  expect(pathOf(history.jobs.addUnchanged([inFolder(running, '/a', 3)])[0])).toBe('/a/f-3.txt');

  // A finished job's files expire: /c, which only they were in, goes, and /d takes its id.
  const finished = seedJob(history, 0).id;
  expect(pathOf(history.jobs.addUnchanged([inFolder(finished, '/c', 4)])[0])).toBe('/c/f-4.txt');
  expect(history.jobs.expireBeyond(0)).toEqual([finished]);
  expect(pathOf(history.jobs.addUnchanged([inFolder(running, '/d', 5)])[0])).toBe('/d/f-5.txt');
  expect(pathOf(history.jobs.addUnchanged([inFolder(running, '/c', 6)])[0])).toBe('/c/f-6.txt');
});
