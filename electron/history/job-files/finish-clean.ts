// A job's clean verdict goes straight into its compact store (issue 26 §4, "the whole run counts"):
// the file's queued `scans` row is deleted in the same write, never updated with the verdict and then
// compacted at the job's end. That was three rewrites of a wide row and its dozen index entries per
// file. The record is stored as the compaction would store it (add-unchanged.ts) and comes back
// under its compact id. Nothing names the queued row to rename (as compact-recheck-ids.ts does): the
// recheck's and the unchanged-file memory name a scan once it has its verdict, and a row never goes
// from a verdict back to waiting, so they learn the compact id.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { toStoredText } from '../../sqlite/stored-text.ts';
import type { HistoryDb } from '../history-db.ts';
import { applyPatch, patchedRecord } from '../history-writes.ts';
import type { ScanRecordPatch } from '../row-mapping.ts';
import { addUnchangedFiles, fitsCompactStore } from './add-unchanged.ts';

const SQL = {
  // The row as the record has it, with nothing set on it by another writer that COMPACTABLE would refuse.
  row: `SELECT seq, file_name FROM scans WHERE id = ? AND job_id = ? AND path = ? AND file_name = ?
    AND rescan_requested_at IS NULL AND quarantine_id IS NULL AND disposition IS NULL`,
  delete: 'DELETE FROM scans WHERE seq = ?',
};

/**
 * Writes the patch to the record, as applyPatch does; a job's record that the patch gives its verdict
 * (status completed), clean and as the compact store keeps it exactly, moves there instead. Returns the record as it is now
 * (moved: under its compact id, `clean:N`, with the service's scan id, which the compact store does
 * not keep: the CLI prints it), or null when no row has this id.
 */
export function applyOrFinishClean(h: HistoryDb, record: ScanRecord, patch: ScanRecordPatch): ScanRecord | null {
  // Checked before the record is merged: most writes on the hot path are a file's other states.
  if (record.jobId === undefined || patch.status !== 'completed' || patch.fileName !== undefined) return applyPatch(h, record, patch);
  const next = patchedRecord(record, patch);
  if (!fitsCompactStore(next)) return applyPatch(h, record, patch);
  return h.transaction(() => {
    const row = h.prepare(SQL.row).get(record.id, record.jobId!, toStoredText(record.path), toStoredText(record.fileName)) as { seq: number; file_name: string } | undefined;
    if (!row) return applyPatch(h, record, patch);
    const [stored] = addUnchangedFiles(h, [next]);
    h.prepare(SQL.delete).run(row.seq);
    h.nameIndex.remove(row.seq, row.file_name);
    return stored!;
  });
}
