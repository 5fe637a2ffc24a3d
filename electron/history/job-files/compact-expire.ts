// Retention in the compact store: a job that expires takes its compact files with it (a
// clean file is never a threat nor in quarantine), and folders and kinds no file names any
// more go too (folders are shared by the jobs that scanned them).
import type { HistoryDb } from '../history-db.ts';
import { forgetJobFileIds } from './add-unchanged.ts';

/** Deletes a job's compact files (and their names from the trigram index); returns how many. */
export function deleteCompactFiles(h: HistoryDb, jobId: number): number {
  return h.transaction(() => {
    h.compactNames.removeJob(jobId);
    return Number(h.prepare('DELETE FROM job_clean_files WHERE job_id = ?').run(jobId).changes);
  });
}

/** After jobs went: one pass over the store (SQLite builds the set of used ids once). */
export function dropUnusedFolders(h: HistoryDb): void {
  h.transaction(() => {
    h.prepare('DELETE FROM job_folders WHERE id NOT IN (SELECT folder_id FROM job_clean_files)').run();
    h.prepare('DELETE FROM job_file_kinds WHERE id NOT IN (SELECT kind_id FROM job_clean_files)').run();
    forgetJobFileIds(h);
  });
}
