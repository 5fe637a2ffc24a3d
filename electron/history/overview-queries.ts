// The protection overview's questions to the history (issue 29 §5), each a walk of an index:
// per day and verdict, scans rows by their verdict index (verdict, queued_at) and a finished
// job's clean files (the compact store) by theirs (job_id, queued_ms); the top detections
// from the threats' rows found through the verdict index. No row of a clean file is read.
import type { OverviewDay, ProtectionOverview } from '../../shared/overview/overview.ts';
import type { Verdict } from '../../shared/scans/record.ts';
import type { HistoryDb } from './history-db.ts';
import { FINAL_JOB } from './history-writes.ts';
import { signatureDays } from './signature-overview.ts';

const DAY_MS = 86_400_000;

/** The values the generated verdict column takes (migration 17's VERDICT_SQL_17). */
const COLUMN_VERDICTS = ['safe', 'unsafe', 'allowed', 'partial', 'could-not-scan', 'skipped', 'pending'] as const;
/** Verdicts that mean the file was scanned (OverviewDay.scanned). */
const SCANNED: ReadonlySet<string> = new Set(['safe', 'unsafe', 'allowed', 'partial']);
/** Threat rows the top detections read at most: a history full of threats stays quick (the counts are then of a part). */
const DETECTION_ROWS = 20_000;

const IN_VERDICTS = `verdict IN (${COLUMN_VERDICTS.map((v) => `'${v}'`).join(', ')})`;

/** Every statement the overview runs: the query-plan test explains each. */
export const OVERVIEW_SQL = {
  // The IN list walks scans_by_verdict once per verdict, within the day's range: a covering index, no sort.
  scansOfDay: `SELECT verdict, count(*) AS n FROM scans WHERE ${IN_VERDICTS} AND queued_at >= ? AND queued_at < ? GROUP BY verdict`,
  // Jobs are few (one row each): which may hold compact files in the window.
  jobsInWindow: `SELECT id FROM jobs WHERE finished_at IS NULL OR finished_at >= ?`,
  compactSpan: `SELECT min(queued_ms) AS first, max(queued_ms) AS last FROM job_clean_files WHERE job_id = ? AND queued_ms >= ? AND queued_ms < ?`,
  compactOfDay: `SELECT count(*) AS n FROM job_clean_files WHERE job_id = ? AND queued_ms >= ? AND queued_ms < ?`,
  detections: `SELECT j.value ->> '$.name' AS name, count(*) AS n
    FROM (SELECT findings_json FROM scans WHERE verdict IN ('unsafe', 'allowed') AND queued_at >= ? AND queued_at < ? LIMIT ${DETECTION_ROWS}) AS s,
      json_each(s.findings_json) AS j
    WHERE name IS NOT NULL GROUP BY name ORDER BY n DESC, name LIMIT ?`,
  lastFullScan: `SELECT status, finished_at, scanned, threats FROM jobs WHERE kind = 'full' AND ${FINAL_JOB} AND finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1`,
} as const;

export interface OverviewWindow {
  /** Now, in ms since 1970. */
  nowMs: number;
  utcOffsetMinutes: number;
  days: number;
  topDetections: number;
}

type HistoryOverview = Omit<ProtectionOverview, 'nextScheduled'>;

const iso = (ms: number): string => new Date(ms).toISOString();

/** The user's day starts (UTC ms), oldest first, and the end of the last one. */
function dayStarts(window: OverviewWindow): number[] {
  const offsetMs = window.utcOffsetMinutes * 60_000;
  const today = Math.floor((window.nowMs + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
  return Array.from({ length: window.days + 1 }, (_, i) => today - (window.days - 1 - i) * DAY_MS);
}

const dayLabel = (startMs: number, offsetMinutes: number): string => iso(startMs + offsetMinutes * 60_000).slice(0, 10);

/** A finished job's clean files per day, by day index (they are all "safe"). */
function compactPerDay(h: HistoryDb, starts: number[]): number[] {
  const counts = new Array<number>(starts.length - 1).fill(0);
  const first = starts[0] as number;
  const end = starts[starts.length - 1] as number;
  const jobs = h.prepare(OVERVIEW_SQL.jobsInWindow).all(iso(first)) as Array<{ id: number }>;
  for (const { id } of jobs) {
    const span = h.prepare(OVERVIEW_SQL.compactSpan).get(id, first, end) as { first: number | null; last: number | null };
    if (span.first === null || span.last === null) continue;
    // Only the days the job's files span: a job usually runs within a day or two.
    const from = Math.floor((Number(span.first) - first) / DAY_MS);
    const to = Math.floor((Number(span.last) - first) / DAY_MS);
    for (let day = Math.max(0, from); day <= Math.min(counts.length - 1, to); day++) {
      const row = h.prepare(OVERVIEW_SQL.compactOfDay).get(id, starts[day] as number, starts[day + 1] as number) as { n: number };
      counts[day] = (counts[day] as number) + Number(row.n);
    }
  }
  return counts;
}

export function historyOverview(h: HistoryDb, window: OverviewWindow): HistoryOverview {
  return h.readTransaction(() => {
    const starts = dayStarts(window);
    const compact = compactPerDay(h, starts);
    const signatures = signatureDays(h, starts, window.nowMs);
    const mix = new Map<string, number>();
    const days: OverviewDay[] = [];
    for (let day = 0; day < starts.length - 1; day++) {
      const rows = h.prepare(OVERVIEW_SQL.scansOfDay).all(iso(starts[day] as number), iso(starts[day + 1] as number)) as Array<{ verdict: string; n: number }>;
      const entry: OverviewDay = { day: dayLabel(starts[day] as number, window.utcOffsetMinutes), scanned: compact[day] as number, threats: 0, updates: 0, signatureAgeDays: null, ...signatures.perDay[day] };
      mix.set('safe', (mix.get('safe') ?? 0) + (compact[day] as number));
      for (const { verdict, n } of rows) {
        const count = Number(n);
        mix.set(verdict, (mix.get(verdict) ?? 0) + count);
        if (SCANNED.has(verdict)) entry.scanned += count;
        if (verdict === 'unsafe') entry.threats += count;
      }
      days.push(entry);
    }
    const detections = h.prepare(OVERVIEW_SQL.detections).all(iso(starts[0] as number), iso(starts[starts.length - 1] as number), window.topDetections) as Array<{ name: string; n: number }>;
    const full = h.prepare(OVERVIEW_SQL.lastFullScan).get() as { status: string; finished_at: string; scanned: number; threats: number } | undefined;
    return {
      since: iso(starts[0] as number),
      days,
      verdicts: [...mix]
        .filter(([, count]) => count > 0)
        .map(([verdict, count]) => ({ verdict: verdict as Verdict, count }))
        .sort((a, b) => b.count - a.count),
      topDetections: detections.map((row) => ({ name: String(row.name), count: Number(row.n) })),
      signatureUpdates: signatures.updates,
      lastFullScan: full ? { status: full.status, finishedAt: full.finished_at, scanned: Number(full.scanned), threats: Number(full.threats) } : null,
    };
  });
}
