// What the scan job tests share: a generated tree, a job's state to start from, and
// the job's rows read straight from the history file (each path exactly once).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { emptyCounts, type JobState } from '../../../electron/jobs/job-state.ts';

/** A running job that has found nothing yet, with `over` applied. */
export const jobStateFor = (over: Partial<JobState> = {}): JobState => ({
  id: 1,
  kind: 'custom',
  roots: ['/tree'],
  excluded: [],
  origin: 'cli',
  status: 'running',
  walkComplete: false,
  counts: emptyCounts(),
  startedAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  activeMs: 0,
  currentFolder: null,
  runningSince: null,
  ...over,
});

/** `count` small files in folders of 50, `a/b/f-N.txt` style; returns their paths. */
export async function writeTree(root: string, count: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const folder = join(root, `d${Math.floor(i / 200)}`, `s${Math.floor(i / 50) % 4}`);
    if (i % 50 === 0) await mkdir(folder, { recursive: true });
    const path = join(folder, `f-${i}.txt`);
    await writeFile(path, `file ${i} ${'x'.repeat(i % 300)}\n`);
    paths.push(path);
  }
  return paths;
}

export interface JobRow {
  path: string;
  status: string;
  verdict: string;
}

/** The job's scan rows, read from the history file: its `scans` rows, then its clean files in the compact store (once it finished). */
export function jobRows(dataDir: string, jobId: number): JobRow[] {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db
      .prepare(
        `SELECT path, status, verdict FROM (
           SELECT 0 AS store, seq AS at, path, status, verdict FROM scans WHERE job_id = ?
           UNION ALL SELECT 1, c.id, f.path || c.name, 'completed', 'safe' FROM job_clean_files AS c JOIN job_folders AS f ON f.id = c.folder_id WHERE c.job_id = ?
         ) ORDER BY store, at`,
      )
      .all(jobId, jobId) as unknown as JobRow[];
  } finally {
    db.close();
  }
}

/** Paths recorded more than once for the job (none: exactly once). */
export function repeats(rows: readonly JobRow[]): string[] {
  const seen = new Set<string>();
  return rows.filter((row) => (seen.has(row.path) ? true : (seen.add(row.path), false))).map((row) => row.path);
}

/** The job's status as its `jobs` row keeps it (what a later start, or the window, reads). */
export function jobStatusIn(dataDir: string, jobId: number): string | undefined {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return (db.prepare('SELECT status FROM jobs WHERE id = ?').get(jobId) as { status: string } | undefined)?.status;
  } finally {
    db.close();
  }
}
