// Migration 16: the detection settings a verdict was made under (issue 28 §2): the engine
// identity's `detection` key (PUA, scan limits, archives, heuristics of Verdict's own clamd),
// so a verdict is not reused under other settings. Rows before it have none: the defaults.
import type { Migration } from './migrations.ts';

/** The scans columns this migration adds (a test writing an older schema leaves them out). */
export const COLUMNS_OF_MIGRATION_16: readonly string[] = ['engine_detection'];

export const ENGINE_DETECTION: Migration = {
  version: 16,
  description: "the detection settings a verdict was made under (Verdict's own clamd: PUA, limits, archives, heuristics)",
  up(db) {
    db.exec('ALTER TABLE scans ADD COLUMN engine_detection TEXT;');
  },
};
