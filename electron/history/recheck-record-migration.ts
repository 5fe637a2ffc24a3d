// Migration 21: the recheck's memory is found by the scan it names. Compacting a job renames its
// clean rows (compact-recheck-ids.ts), and without these indexes each chunk of up to 4,000 files
// read all of recheck_files to find the rows it renames: a 20,000-file job's compaction spent
// 590 ms there on the core's thread, and the cost grew with the memory (every file seen lately).
import type { Migration } from './migrations.ts';

export const RECHECK_BY_RECORD: Migration = {
  version: 21,
  description: "the recheck's memory indexed by the scan it names, so compacting a job renames its rows without reading all of them",
  up(db) {
    db.exec(`
      CREATE INDEX recheck_files_by_record ON recheck_files (record_id);
      CREATE INDEX recheck_links_by_rechecked_from ON recheck_links (rechecked_from_id);
    `);
  },
};
