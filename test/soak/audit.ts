// The end of a soak run: every file exactly once, checked against the history
// database and against the service's own records (GET by external reference),
// and the figures the issue asks for (memory, descriptors, tracked records).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { getHeapSpaceStatistics } from 'node:v8';
import { serviceScanCount } from '../electron/reliability/pipeline-kit.ts';

export interface Sample {
  percent: number;
  files: number;
  rssMb: number;
  /** The main thread's V8 heap in use, and committed (heapTotal). */
  heapMb: number;
  heapTotalMb: number;
  /** Of heapTotal: the young generation (new space), committed; the rest is old and large-object space. */
  newSpaceMb: number;
  /** Memory outside V8 heaps that V8 knows of (Buffers, ArrayBuffers), all threads: process.memoryUsage().external. */
  externalMb: number;
  arrayBuffersMb: number;
  /** The service thread's V8 heap in use and committed, and its external memory (null while it restarts). */
  serviceHeapMb: number | null;
  serviceHeapTotalMb: number | null;
  serviceExternalMb: number | null;
  /** V8's malloced memory of the service thread (its zone and parser memory, outside the heap). */
  serviceMallocedMb: number | null;
  fds: number;
  tracked: number | null;
  seconds: number;
}

export const openFds = (): number => readdirSync('/proc/self/fd').length;

/** The pipeline's tracked-record count, where a version of the core offers one (read defensively: it may not exist yet). */
export function trackedCount(core: object): number | null {
  const direct = (core as { trackedCount?: () => number }).trackedCount;
  if (typeof direct === 'function') return direct.call(core);
  const state = (core as { pipelineState?: () => Record<string, unknown> }).pipelineState?.();
  const fromState = state?.trackedCount ?? state?.tracked;
  if (typeof fromState === 'number') return fromState;
  return typeof fromState === 'function' ? (fromState as () => number)() : null;
}

const MB = 2 ** 20;

export async function sample(percent: number, files: number, core: object, started: number, service: { heapStatistics(): Promise<{ used_heap_size: number; total_heap_size: number; malloced_memory: number; external_memory?: number } | null> }): Promise<Sample> {
  const thread = await service.heapStatistics();
  const memory = process.memoryUsage();
  return {
    percent,
    files,
    rssMb: memory.rss / MB,
    heapMb: memory.heapUsed / MB,
    heapTotalMb: memory.heapTotal / MB,
    newSpaceMb: (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / MB,
    externalMb: memory.external / MB,
    arrayBuffersMb: memory.arrayBuffers / MB,
    serviceHeapMb: thread ? thread.used_heap_size / MB : null,
    serviceHeapTotalMb: thread ? thread.total_heap_size / MB : null,
    serviceExternalMb: thread?.external_memory === undefined ? null : thread.external_memory / MB,
    serviceMallocedMb: thread ? thread.malloced_memory / MB : null,
    fds: openFds(),
    tracked: trackedCount(core),
    seconds: (performance.now() - started) / 1000,
  };
}

interface HistoryRow {
  path: string;
  status: string;
  ref: string;
  scanId: string | null;
  error: string | null;
}

export interface SoakAudit {
  files: number;
  rows: number;
  completed: number;
  failed: number;
  /** Failed rows by error code: what the faults and restarts cost. */
  failures: Record<string, number>;
  other: number;
  /** Files without exactly one history row. */
  missing: number;
  duplicateRows: number;
  /** Completed rows the service does not know by their reference, or knows as another scan. */
  unknownAtService: number;
  /** Scans at the service beyond one per history row. */
  duplicatedAtService: number;
  problems: string[];
}

function historyRows(dataDir: string): HistoryRow[] {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT path, status, external_reference_id AS ref, service_scan_id AS scanId, error_code AS error FROM scans').all() as unknown as HistoryRow[];
  } finally {
    db.close();
  }
}

/** GETs by reference with a few requests in flight; returns the scan id the service has for each reference (or null). */
async function serviceIds(url: string, key: string, refs: string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  let next = 0;
  const worker = async () => {
    while (next < refs.length) {
      const ref = refs[next++] as string;
      const response = await fetch(`${url}/file-scans/external-reference/${encodeURIComponent(ref)}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.json()) as { id?: string };
      found.set(ref, response.status === 200 ? (body.id ?? null) : null);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return found;
}

export async function auditSoak(input: { dataDir: string; serviceDir: string; serviceUrl: string; key: string; paths: readonly string[] }): Promise<SoakAudit> {
  const rows = historyRows(input.dataDir);
  const problems: string[] = [];
  const perPath = new Map<string, number>();
  for (const row of rows) perPath.set(row.path, (perPath.get(row.path) ?? 0) + 1);
  let missing = 0;
  let duplicateRows = 0;
  for (const path of input.paths) {
    const n = perPath.get(path) ?? 0;
    if (n === 0) missing++;
    if (n > 1) duplicateRows++;
    if (n !== 1 && problems.length < 10) problems.push(`${path}: ${n} history rows`);
  }
  const completed = rows.filter((row) => row.status === 'completed');
  const ids = await serviceIds(input.serviceUrl, input.key, completed.map((row) => row.ref));
  let unknownAtService = 0;
  for (const row of completed) {
    const id = ids.get(row.ref);
    if (id === row.scanId) continue;
    unknownAtService++;
    if (problems.length < 20) problems.push(`${row.path}: history has scan ${row.scanId}, the service ${id ?? 'none'} for ${row.ref}`);
  }
  const atService = [...ids.values()].filter((id) => id !== null).length;
  return {
    files: input.paths.length,
    rows: rows.length,
    completed: completed.length,
    failed: rows.filter((row) => row.status === 'failed').length,
    failures: rows.filter((row) => row.status === 'failed').reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.error ?? 'none']: (counts[row.error ?? 'none'] ?? 0) + 1 }), {}),
    other: rows.filter((row) => row.status !== 'completed' && row.status !== 'failed').length,
    missing,
    duplicateRows,
    unknownAtService,
    duplicatedAtService: Math.max(0, serviceScanCount(input.serviceDir) - atService),
    problems,
  };
}
