// Migration 22: a job's compact files keep the whole engine identity of their verdict and how it
// was reused. The kinds (migration 9) kept the engine's name, version and official signatures only,
// so a compacted clean verdict lost the digest of the databases that judged it (reuse by content
// then saw unknown signatures and scanned the file again), the note that it was given while the
// engine's self-test failed, the detection setting, and whether it was reused unchanged or by content.
import type { Migration } from './migrations.ts';

/** The kind columns this migration adds (compact-sql.ts KIND_COLUMNS holds them after the first nine). */
export const KIND_COLUMNS_OF_MIGRATION_22 = ['signatures_basis', 'signatures_digest', 'engine_detection', 'engine_self_test', 'reuse_kind'] as const;

export const COMPACT_KINDS_WHOLE_ENGINE: Migration = {
  version: 22,
  description: "a job's compact files keep their verdict's whole engine identity (databases digest, self-test, detection) and how it was reused",
  up(db) {
    db.exec(KIND_COLUMNS_OF_MIGRATION_22.map((column) => `ALTER TABLE job_file_kinds ADD COLUMN ${column} TEXT;`).join('\n'));
  },
};
