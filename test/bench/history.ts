// History benchmark (a report, not a test): `node test/bench/history.ts [rows]`.
// Inserts rows in one transaction, reopens the database, times typical page
// queries (median of 25 runs each), an export, and single-row commits with
// synchronous=FULL vs NORMAL. KEEP=1 keeps the database and prints its folder
// (for EXPLAIN QUERY PLAN by hand). The measuring part (measureHistory) is also
// the `history` case of `npm run bench` (test/bench/cases/).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistoryQuery, ScanRecord } from '../../shared/scans/record.ts';
import { openHistory, type History } from '../../electron/history/history.ts';

const names = ['report', 'invoice', 'setup', 'photo', 'backup', 'notes', 'driver', 'archive'];
const exts = ['pdf', 'docx', 'exe', 'jpg', 'zip', 'txt', 'msi', 'tar.gz'];

/** Row i: 95 % completed (3 of them unsafe), 2 % failed, 1 % skipped, 2 % pending; one second apart. */
export function makeRecord(i: number): ScanRecord {
  const roll = i % 100;
  const status = roll < 95 ? 'completed' : roll < 97 ? 'failed' : roll < 98 ? 'skipped' : roll < 99 ? 'queued' : 'processing';
  const safe = status === 'completed' ? roll >= 3 : null;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    id: randomUUID(),
    path: `/home/user/Downloads/${names[i % names.length]}-${i}.${exts[(i >> 3) % exts.length]}`,
    fileName: `${names[i % names.length]}-${i}.${exts[(i >> 3) % exts.length]}`,
    size: 1000 + i,
    md5: randomBytes(16).toString('hex'),
    sha1: randomBytes(20).toString('hex'),
    sha256: randomBytes(32).toString('hex'),
    mode: i % 2 ? 'sync' : 'async',
    origin: 'drop',
    backend: 'local',
    externalReferenceId: `verdict/bench/${i}`,
    serviceScanId: status === 'skipped' ? null : randomUUID(),
    status,
    pendingReason: null,
    safe,
    detailed: safe === false ? 'Eicar-Test-Signature FOUND' : safe ? 'clean' : null,
    findings: safe === false ? [{ name: 'Eicar-Test-Signature', engine: 'clamav' }] : [],
    fileType: 'application/octet-stream',
    queuedAt: at,
    submittedAt: at,
    completedAt: status === 'completed' ? at : null,
    durationMs: 12,
    error: status === 'failed' ? { code: 'engine_error', message: 'engine failed' } : null,
    reusedFromId: null,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function time(fn: () => void, runs = 25): number {
  fn(); // warm the statement cache and the page cache
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Typical page queries of the UI: the list's first page, filtered by verdict, status, name or digest. */
export function typicalQueries(sample: ScanRecord, rows: number): Array<[string, HistoryQuery]> {
  const middle = Math.floor(rows / 2);
  return [
    ['newest page, no filter (limit 100)', {}],
    ['verdict=unsafe (limit 100)', { verdicts: ['unsafe'] }],
    ['verdict=unsafe + name search "setup"', { verdicts: ['unsafe'], search: 'setup' }],
    ['verdict=safe + name search "setup"', { verdicts: ['safe'], search: 'setup' }],
    ['name search "invoice-4242" (1 match, all rows)', { search: 'invoice-4242' }],
    ['name search "setup" (1 row in 8, no filter)', { search: 'setup' }],
    ['name search "up" (2 chars: no trigram index)', { search: 'up' }],
    ['digest prefix search (8 hex chars)', { search: sample.sha256!.slice(0, 8) }],
    ['statuses=[failed], oldest first', { statuses: ['failed'], order: 'oldest' }],
    [`offset ${middle.toLocaleString('en-US')}, no filter`, { offset: middle }],
  ];
}

export interface HistoryMeasurement {
  insertMs: number;
  openMs: number;
  /** Median of 25 runs of each typical query, with its total (`1000+`: a search counted only that far). */
  queries: Array<{ label: string; query: HistoryQuery; ms: number; total: string }>;
  /** The reopened history (the caller closes it). */
  history: History;
  records: ScanRecord[];
}

/** Inserts `rows` rows into a new history in `dir` (one transaction), reopens it, times the typical queries. */
export function measureHistory(dir: string, rows: number): HistoryMeasurement {
  const records = Array.from({ length: rows }, (_, i) => makeRecord(i));
  let history = openHistory(dir);
  let start = performance.now();
  history.insertMany(records);
  const insertMs = performance.now() - start;
  history.close();

  start = performance.now();
  history = openHistory(dir);
  const openMs = performance.now() - start;

  const queries = typicalQueries(records[Math.floor(rows / 2)]!, rows).map(([label, query]) => {
    let total = '';
    const ms = time(() => {
      const page = history.query(query);
      total = `${page.total}${page.totalIsLowerBound ? '+' : ''}`;
    });
    return { label, query, ms, total };
  });
  return { insertMs, openMs, queries, history, records };
}

async function main(): Promise<void> {
  const ROWS = Number(process.argv[2] ?? 100_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-bench-'));
  try {
    const { insertMs, openMs, queries, history, records } = measureHistory(dir, ROWS);
    const sample = records[Math.floor(ROWS / 2)]!;
    console.log(`rows: ${ROWS}`);
    console.log(`insert ${ROWS} rows in one transaction: ${insertMs.toFixed(1)} ms`);
    console.log(`open existing database (migrations checked): ${openMs.toFixed(2)} ms`);
    console.log(`database size: ${(statSync(history.file).size / 1024 / 1024).toFixed(1)} MiB (+ WAL)`);
    for (const { label, ms, total } of queries) console.log(`query ${label}: ${ms.toFixed(2)} ms median (total ${total})`);
    console.log(`counts(): ${time(() => history.counts()).toFixed(3)} ms median`);
    console.log(`findReusable(): ${time(() => history.findReusable(sample.sha256!, '2000-01-01T00:00:00.000Z')).toFixed(3)} ms median`);
    console.log(`listPending(): ${time(() => history.listPending(), 5).toFixed(2)} ms median`);

    let start = performance.now();
    const exported = await history.exportCsv(path.join(dir, 'export.csv'));
    console.log(`exportCsv to file (${exported.rows} rows): ${(performance.now() - start).toFixed(0)} ms, ${(statSync(path.join(dir, 'export.csv')).size / 1024 / 1024).toFixed(1)} MiB`);
    start = performance.now();
    await history.exportJson(path.join(dir, 'export.json'));
    console.log(`exportJson to file: ${(performance.now() - start).toFixed(0)} ms`);
    history.close();

    for (const synchronous of ['FULL', 'NORMAL'] as const) {
      const commitDir = mkdtempSync(path.join(dir, `commit-${synchronous}-`));
      const h = openHistory(commitDir, { synchronous });
      const samples: number[] = [];
      for (let i = 0; i < 200; i++) {
        const record = makeRecord(ROWS + i);
        const t = performance.now();
        h.insert(record);
        samples.push(performance.now() - t);
      }
      h.close();
      console.log(`single-row insert commit, synchronous=${synchronous}: ${median(samples).toFixed(3)} ms median of 200`);
    }
  } finally {
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(dir);
  }
}

if (import.meta.main) await main();
