// Moving a finished job's clean rows from `scans` into the compact store, a chunk per
// transaction: each chunk's rows are written there and deleted here together, so a crash
// leaves every file in exactly one of the two, and the next start goes on where it was.
// Then the pages the wide rows left are given back to the file system.
import type { HistoryDb } from '../history-db.ts';
import { deleteWhere, FINAL_JOB } from '../history-writes.ts';
import { forgetJobIds, repointCompactedIds } from './compact-recheck-ids.ts';
import { COMPACTABLE, FOLDER_OF_PATH, KIND_COLUMNS, msOf } from './compact-sql.ts';

export interface CompactStep {
  /** Rows moved by this step. */
  moved: number;
  /** Every compactable row of the job has moved (the job is marked compacted). */
  done: boolean;
}

const CHUNK_TABLE = 'temp.job_compact_chunk';
const sameKind = KIND_COLUMNS.map((column) => `k.${column} IS s.${column}`).join(' AND ');
// CROSS JOIN keeps the chunk as the outer loop: SQLite has no statistics for a temp table and took it
// for a large one, so it scanned all of `scans` for each chunk (about 0.3 s a step on a 100,000-row history).
const chunkRows = `${CHUNK_TABLE} AS t CROSS JOIN scans AS s ON s.seq = t.seq`;

/** The statements of a step (exported for the test of their plans). */
export const COMPACT_STEP_SQL = {
  create: `CREATE TEMP TABLE IF NOT EXISTS job_compact_chunk (seq INTEGER PRIMARY KEY, folder TEXT NOT NULL)`,
  clear: `DELETE FROM ${CHUNK_TABLE}`,
  // scans_by_job in seq order: the LIMIT stops early; rows that stay (threats, failures) are passed over.
  choose: `INSERT INTO ${CHUNK_TABLE} (seq, folder) SELECT s.seq, ${FOLDER_OF_PATH} FROM scans AS s WHERE s.job_id = ? AND ${COMPACTABLE} ORDER BY s.seq LIMIT ?`,
  kinds: `INSERT INTO job_file_kinds (${KIND_COLUMNS.join(', ')})
    SELECT DISTINCT ${KIND_COLUMNS.map((column) => `s.${column}`).join(', ')} FROM ${chunkRows}
    WHERE NOT EXISTS (SELECT 1 FROM job_file_kinds AS k WHERE ${sameKind})`,
  folders: `INSERT OR IGNORE INTO job_folders (path) SELECT DISTINCT folder FROM ${CHUNK_TABLE}`,
  move: `INSERT INTO job_clean_files (job_id, folder_id, name, file_name, size, sha256, md5, sha1, kind_id, queued_ms, submitted_ms, completed_ms, duration_ms, reused_from_id)
    SELECT s.job_id, f.id, substr(s.path, length(t.folder) + 1), nullif(s.file_name, substr(s.path, length(t.folder) + 1)), s.size,
      unhex(s.sha256), unhex(s.md5), unhex(s.sha1), (SELECT min(k.id) FROM job_file_kinds AS k WHERE ${sameKind}),
      ${msOf('s.queued_at')}, ${msOf('s.submitted_at')} - ${msOf('s.queued_at')}, ${msOf('s.completed_at')} - ${msOf('s.queued_at')},
      s.duration_ms, s.reused_from_id
    FROM ${chunkRows} JOIN job_folders AS f ON f.path = t.folder ORDER BY s.seq`,
};

/** Moves up to `max` of a finished job's clean rows; a job not finished (or gone) moves none and is done. */
export function compactStep(h: HistoryDb, jobId: number, max: number): CompactStep {
  return h.transaction(() => {
    const job = h.prepare(`SELECT compacted FROM jobs WHERE id = ? AND ${FINAL_JOB}`).get(jobId) as { compacted: number } | undefined;
    if (!job || job.compacted === 1) return { moved: 0, done: true };
    h.db.exec(COMPACT_STEP_SQL.create);
    h.prepare(COMPACT_STEP_SQL.clear).run();
    const chosen = Number(h.prepare(COMPACT_STEP_SQL.choose).run(jobId, max).changes);
    if (chosen > 0) {
      const before = Number((h.prepare('SELECT coalesce(max(id), 0) AS id FROM job_clean_files').get() as { id: number }).id);
      h.prepare(COMPACT_STEP_SQL.kinds).run();
      h.prepare(COMPACT_STEP_SQL.folders).run();
      const moved = Number(h.prepare(COMPACT_STEP_SQL.move).run().changes);
      if (moved !== chosen) throw new Error(`Compaction of job ${jobId} wrote ${moved} of ${chosen} rows; nothing was moved.`);
      h.compactNames.addAfter(before);
      repointCompactedIds(h, CHUNK_TABLE, before, jobId);
      deleteWhere(h, `SELECT seq FROM ${CHUNK_TABLE}`);
      h.prepare(COMPACT_STEP_SQL.clear).run();
    }
    const done = chosen < max;
    if (done) {
      h.prepare('UPDATE jobs SET compacted = 1 WHERE id = ?').run(jobId);
      forgetJobIds(h);
    }
    return { moved: chosen, done };
  });
}

/** Finished jobs whose clean rows have not all moved yet (a crash, or a Verdict from before the compact store), oldest first. */
export function uncompactedJobs(h: HistoryDb): number[] {
  const rows = h.prepare(`SELECT id FROM jobs WHERE ${FINAL_JOB} AND compacted = 0 ORDER BY id`).all() as Array<{ id: number }>;
  return rows.map((row) => Number(row.id));
}

/**
 * One step of tidying up after a compaction, up to about `maxPages` pages: first the name
 * indexes drop the entries of the moved rows (FTS5 keeps them until its segments merge),
 * then free pages go back to the file system (a history created with auto_vacuum =
 * INCREMENTAL; an older one keeps them for its next rows). Returns 0 when all is done
 * (and checkpoints and truncates the WAL), else how much is left (call again).
 */
export function reclaimPages(h: HistoryDb, maxPages: number): number {
  const pages = Math.max(1, Math.floor(maxPages));
  if (h.nameIndex.merge(pages) || h.compactNames.merge(pages)) return pages;
  const mode = Number((h.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum);
  if (mode === 2) h.db.exec(`PRAGMA incremental_vacuum(${pages})`);
  const left = mode === 2 ? Number((h.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count) : 0;
  if (left === 0) h.truncateWal();
  return left;
}
