// Migration 23: the unchanged-file skip's memory is found by the scan it names. Compacting a job
// renames its clean rows (compact-recheck-ids.ts renames the names of them too); without this index
// an entry kept the row's old id, and every later row reusing it said "reused from" a scan that no
// longer existed (the detail panel's link: "There is no scan with this id").
import type { Migration } from './migrations.ts';

export const UNCHANGED_BY_RECORD: Migration = {
  version: 23,
  description: "the unchanged-file skip's memory indexed by the scan it names, so compacting a job renames it",
  up(db) {
    db.exec('CREATE INDEX unchanged_files_by_record ON unchanged_files (record_id);');
  },
};
