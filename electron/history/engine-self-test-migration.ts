// Migration 18: a verdict given while the engine's self-test failed (issue 27 §2): the engine
// identity's `selfTest: 'failed'`, so the history says so after a restart too. Rows before it: none.
import type { Migration } from './migrations.ts';

/** The scans columns this migration adds (a test writing an older schema leaves them out). */
export const COLUMNS_OF_MIGRATION_18: readonly string[] = ['engine_self_test'];

export const ENGINE_SELF_TEST: Migration = {
  version: 18,
  description: "a verdict given while the engine's self-test failed (it did not detect the EICAR test file)",
  up(db) {
    db.exec('ALTER TABLE scans ADD COLUMN engine_self_test TEXT;');
  },
};
