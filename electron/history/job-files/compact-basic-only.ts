// "Scan again with ClamAV" (history-engine.ts) over the compact store: a job's files that
// the built-in engine judged clean stay on offer after the job is compacted, once per path,
// until the action takes them up or ClamAV judges their content. Rarely asked (the offer's
// count, one press of the button): each question reads the job files in one pass.
import type { HistoryDb } from '../history-db.ts';
import { isoOf, msOf } from './compact-sql.ts';

/**
 * `SELECT path, first` (first: the file's id, for the order) of the compact files judged by the
 * built-in engine, not taken up, and whose content ClamAV has not judged since (in either store).
 */
export const COMPACT_BASIC_ONLY = `SELECT f.path || c.name AS path, c.id AS first
  FROM job_clean_files AS c JOIN job_file_kinds AS k ON k.id = c.kind_id JOIN job_folders AS f ON f.id = c.folder_id
  WHERE k.engine_name = 'builtin' AND c.rescan_requested_ms IS NULL
    AND NOT EXISTS (SELECT 1 FROM scans AS later WHERE later.sha256 = lower(hex(c.sha256)) AND later.engine_name = 'clamav'
      AND later.completed_at > ${isoOf('c.queued_ms + c.completed_ms')})
    AND NOT EXISTS (SELECT 1 FROM job_clean_files AS l JOIN job_file_kinds AS lk ON lk.id = l.kind_id
      WHERE l.sha256 = c.sha256 AND lk.engine_name = 'clamav' AND l.id > c.id)`;

/** The action took these paths (in their stored form, sqlite/stored-text.ts) up: their compact files are not offered again. Returns how many were marked. */
export function markCompactRescanRequested(h: HistoryDb, paths: readonly string[], atIso: string): number {
  if (paths.length === 0) return 0;
  const { changes } = h
    .prepare(
      `UPDATE job_clean_files SET rescan_requested_ms = ${msOf('?')}
       WHERE rescan_requested_ms IS NULL AND kind_id IN (SELECT id FROM job_file_kinds WHERE engine_name = 'builtin')
         AND (SELECT path FROM job_folders WHERE id = folder_id) || name IN (SELECT value FROM json_each(?))`,
    )
    .run(atIso, JSON.stringify(paths));
  return Number(changes);
}
