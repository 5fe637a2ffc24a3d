// The history database, opened read-only: after the final run it is whole (PRAGMA
// integrity_check) and every scan job has ended (its `jobs` table,
// electron/history/migrations.ts); after an earlier run that ended by itself, no
// job still says `running`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Problem } from './oracle.ts';

/** electron/history/history.ts's HISTORY_FILE_NAME, restated (the oracle imports nothing of the code it judges). */
const HISTORY_FILE = 'history.sqlite';

interface JobRow {
  id: number;
  kind: string;
  status: string;
  walk_complete: number;
  found: number;
  scanned: number;
  could_not_scan: number;
  skipped: number;
}

/** Opens the history read-only and asks `ask`; null when there is no history, a problem when it does not open. */
function withHistory(dataDir: string, ask: (db: DatabaseSync) => Problem[]): Problem[] | null {
  const file = join(dataDir, HISTORY_FILE);
  if (!existsSync(file)) return null;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    return [{ kind: 'history damaged', detail: `it does not open: ${(error as Error).message}` }];
  }
  try {
    return ask(db);
  } catch (error) {
    return [{ kind: 'history damaged', detail: `reading it failed: ${(error as Error).message}` }];
  } finally {
    db.close();
  }
}

const jobText = (job: JobRow) =>
  `job ${job.id} (${job.kind}) is ${job.status} (walk ${job.walk_complete ? 'complete' : 'not complete'}; found ${job.found}, scanned ${job.scanned}, could not scan ${job.could_not_scan}, skipped ${job.skipped})`;

const jobsWith = (db: DatabaseSync, where: string) =>
  db.prepare(`SELECT id, kind, status, walk_complete, found, scanned, could_not_scan, skipped FROM jobs WHERE ${where}`).all() as unknown as JobRow[];

/** After the final run: the history is whole and every job ended (completed or cancelled). */
export function historyProblems(dataDir: string): Problem[] {
  const problems = withHistory(dataDir, (db) => {
    const found: Problem[] = [];
    const check = db.prepare('PRAGMA integrity_check').all().map((row) => String(Object.values(row)[0]));
    if (check.join() !== 'ok') found.push({ kind: 'history damaged', detail: `integrity_check: ${check.slice(0, 5).join('; ')}` });
    for (const job of jobsWith(db, "status NOT IN ('completed', 'cancelled')")) found.push({ kind: 'job left unfinished', detail: `after the final run ${jobText(job)}` });
    return found;
  });
  return problems ?? [{ kind: 'history missing', detail: `no ${HISTORY_FILE} after the final run` }];
}

/**
 * After an earlier run that ended by itself (an exit code: done, Ctrl-C handled, a full disk): no
 * job is `running`, since no process runs it any more. (After SIGKILL nothing could have said so.)
 */
export function jobsLeftRunning(dataDir: string, run: string): Problem[] {
  const problems = withHistory(dataDir, (db) => jobsWith(db, "status = 'running'").map((job) => ({ kind: 'job left running', detail: `after ${run} ended, ${jobText(job)}` })));
  // A full disk may keep even a reader out between runs: only the final run's history must open.
  return problems?.filter((problem) => problem.kind === 'job left running') ?? [];
}
