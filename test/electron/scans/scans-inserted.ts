// Counting the `scans` rows a job writes, in the history file itself: a trigger (the compaction
// deletes a finished job's clean rows later, so counting the rows left would tell nothing).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** From now on every `scans` row written is counted by its job. */
export function countScansInserts(dataDir: string): void {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'));
  try {
    db.exec(`CREATE TABLE test_scans_inserted (job_id INTEGER);
      CREATE TRIGGER test_count_scans AFTER INSERT ON scans BEGIN INSERT INTO test_scans_inserted VALUES (new.job_id); END;`);
  } finally {
    db.close();
  }
}

/** The `scans` rows written for the job (its newest when `jobId` is absent) since countScansInserts. */
export function scansInserted(dataDir: string, jobId?: number): number {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    const id = jobId ?? Number((db.prepare('SELECT max(id) AS id FROM jobs').get() as { id: number }).id);
    return Number((db.prepare('SELECT count(*) AS n FROM test_scans_inserted WHERE job_id = ?').get(id) as { n: number }).n);
  } finally {
    db.close();
  }
}
