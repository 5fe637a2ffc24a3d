// Migration 14: why an allowed record is allowed (issue 28 §1): its content (sha256) or every
// finding's detection name. Rows allowed before it have none and read as allowed by content.
import type { Migration } from './migrations.ts';

/** The scans columns this migration adds (a test writing an older schema leaves them out). */
export const COLUMNS_OF_MIGRATION_14: readonly string[] = ['allowed_by'];

export const ALLOWED_BY: Migration = {
  version: 14,
  description: 'why an allowed record is allowed: its content or its detection names',
  up(db) {
    db.exec('ALTER TABLE scans ADD COLUMN allowed_by TEXT;');
  },
};
