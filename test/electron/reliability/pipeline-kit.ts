// Shared by the pipeline-level reliability tests: a batch of distinct files,
// a bounded wait for the batch to settle, and the audit that issue 7 asks for —
// every file against the service's own records (GET by external reference)
// and the history database: exactly one scan and one row per file, each row
// terminal or stating why it waits.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { TERMINAL_STATUSES, type ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';

/** `count` files of `size` bytes with distinct content (so no verdict is reused); returns their paths. */
export async function writeBatch(dir: string, count: number, size = 2048, prefix = 'file'): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${prefix}-${String(i).padStart(5, '0')}.txt`);
    const head = `${prefix} ${i} ${process.pid} ${Math.random()}\n`;
    await writeFile(path, head.padEnd(size, '.'));
    paths.push(path);
  }
  return paths;
}

export async function records(core: CoreInternals, ids: readonly string[]): Promise<ScanRecord[]> {
  const out: ScanRecord[] = [];
  for (const id of ids) {
    const result = await core.scans.get(id);
    if (!result.ok) throw new Error(`history lost row ${id}: ${result.error.message}`);
    out.push(result.value);
  }
  return out;
}

export const isTerminal = (record: ScanRecord): boolean => TERMINAL_STATUSES.includes(record.status);

/** Polls (bounded) until `done` holds for every record of the batch. */
export async function waitForBatch(
  core: CoreInternals,
  ids: readonly string[],
  done: (record: ScanRecord) => boolean = isTerminal,
  timeoutMs = 60_000,
): Promise<ScanRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Reading every record is costly for big batches: while the queue still holds something, nothing can be all terminal.
    if (done === isTerminal && Date.now() <= deadline) {
      const counts = await core.scans.counts();
      if (counts.ok && counts.value.queued + counts.value.uploading + counts.value.processing > 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
    }
    const now = await records(core, ids);
    if (now.every(done)) return now;
    if (Date.now() > deadline) {
      const stuck = now.filter((record) => !done(record)).slice(0, 5);
      throw new Error(`Timed out: ${now.filter((r) => !done(r)).length} of ${ids.length} records not settled, e.g. ${JSON.stringify(stuck.map((r) => [r.status, r.pendingReason, r.error]))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls (bounded) until `condition` holds. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface ServiceView {
  /** GET /file-scans/external-reference/{ref} on the service itself (not through any proxy). */
  byReference(ref: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Every scan the service database holds (all integrations). */
  scanCount(): number;
}

export interface Audit {
  files: number;
  /** Files with no history row, a row neither terminal nor stating a reason, or a completed row the service does not know. */
  lost: number;
  /** Scans at the service beyond one per file. */
  duplicated: number;
  completed: number;
  failed: number;
  /** Non-terminal rows by pending reason. */
  pending: Record<string, number>;
  problems: string[];
}

/**
 * Checks a batch against the service's records and the history database.
 * `expectAtService`: rows that must have a scan at the service (default: every completed row).
 */
export async function auditBatch(core: CoreInternals, ids: readonly string[], paths: readonly string[], service: ServiceView): Promise<Audit> {
  const rows = await records(core, ids);
  const problems: string[] = [];
  let lost = 0;
  const pending: Record<string, number> = {};
  let atService = 0;

  // One history row per file: every path handed in has exactly one row in the database.
  const perPath = historyRowsPerPath(core.dataDir);
  for (const path of paths) {
    const n = perPath.get(path) ?? 0;
    if (n !== 1) {
      problems.push(`${path}: ${n} history rows`);
      if (n === 0) lost++;
    }
  }
  for (const [path, n] of perPath) if (!paths.includes(path)) problems.push(`orphan history row(s) for ${path} (${n})`);

  for (const record of rows) {
    const remote = await service.byReference(record.externalReferenceId);
    if (remote.status === 200) atService++;
    if (isTerminal(record)) {
      if (record.status === 'completed') {
        if (remote.status !== 200) {
          lost++;
          problems.push(`${record.fileName}: completed locally, the service has no scan for ${record.externalReferenceId} (${remote.status})`);
        } else if (remote.body.id !== record.serviceScanId) {
          problems.push(`${record.fileName}: history says ${record.serviceScanId}, the service ${String(remote.body.id)}`);
        } else if (remote.body.file_hash && (remote.body.file_hash as { sha256: string }).sha256 !== record.sha256) {
          problems.push(`${record.fileName}: the service scanned other content`);
        }
      }
      continue;
    }
    if (!record.pendingReason) {
      lost++;
      problems.push(`${record.fileName}: ${record.status} without a pending reason`);
    }
    pending[record.pendingReason ?? 'none'] = (pending[record.pendingReason ?? 'none'] ?? 0) + 1;
  }
  // References are unique per integration at the service, so any scan beyond the ones found by reference is a duplicate.
  const duplicated = Math.max(0, service.scanCount() - atService);
  if (duplicated > 0) problems.push(`${duplicated} scans at the service without a matching history row`);
  return {
    files: paths.length,
    lost,
    duplicated,
    completed: rows.filter((r) => r.status === 'completed').length,
    failed: rows.filter((r) => r.status === 'failed').length,
    pending,
    problems,
  };
}

/** Rows per path in `<dataDir>/history.sqlite`, read directly (a second, read-only connection). */
export function historyRowsPerPath(dataDir: string): Map<string, number> {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    const rows = db.prepare('SELECT path, count(*) AS n FROM scans GROUP BY path').all() as Array<{ path: string; n: number }>;
    return new Map(rows.map((row) => [row.path, Number(row.n)]));
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` of an SQLite file ('ok' when sound). */
export function integrityCheck(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** Scan count per integration straight from the service database. */
export function serviceScanCount(serviceDataDir: string): number {
  const db = new DatabaseSync(join(serviceDataDir, 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}
