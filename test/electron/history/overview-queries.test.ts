// The protection overview's counts (issue 29 §5) on a real SQLite history: jobs whose clean files
// are in the compact store, their threats and failures and single scans in `scans` rows (the
// bench's seed, small), and threats of several names, one allowed. Each figure is checked against
// the rows read whole and counted here, for any UTC offset and any "now"; each statement's plan
// walks an index (no table scan of scans or job_clean_files).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, openHistory, type History } from '../../../electron/history/history.ts';
import { OVERVIEW_SQL } from '../../../electron/history/overview-queries.ts';
import { SIGNATURE_UPDATES_SQL, type SignaturesNoticed } from '../../../electron/history/signature-updates.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { seedJobHistory } from '../../bench/job-history-seed.ts';
import { makeRecord } from './fixtures/records.ts';

const DAY = 86_400_000;
const JAN_1 = Date.UTC(2026, 0, 1);
let dataDir: string;
let history: History;
/** Signature updates: one before the seeded month, two on 10 January (built the day before and that morning), one on 20 January without a build date. */
const noticed = (at: number, version: number | null, built: number | null): SignaturesNoticed => ({
  noticedMs: at,
  engine: 'clamav',
  engineVersion: '1.4.2',
  identity: `version:${version ?? at}`,
  signatureVersion: version,
  databases: version === null ? `digest-${at}` : null,
  signatureDate: built === null ? null : new Date(built).toISOString(),
});
const UPDATES = [
  noticed(JAN_1 - 20 * DAY, 27_000, JAN_1 - 21 * DAY),
  noticed(JAN_1 + 9 * DAY + 3_600_000, 27_010, JAN_1 + 8 * DAY),
  noticed(JAN_1 + 9 * DAY + 7_200_000, 27_011, JAN_1 + 9 * DAY),
  noticed(JAN_1 + 19 * DAY + 3_600_000, null, null),
];
let rows: { scans: Array<{ queued_at: string; verdict: string; findings_json: string }>; compact: number[] };

const threat = (name: string, at: number, extra: Partial<ScanRecord> = {}): ScanRecord =>
  makeRecord({ status: 'completed', safe: false, findings: [{ name, engine: 'clamav' }], detailed: `${name} FOUND`, queuedAt: new Date(at).toISOString(), completedAt: new Date(at + 5).toISOString(), ...extra });

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-overview-'));
  // Jobs on 11 and 21 January (10,001 files each: two threats, one failure), 2,000 single scans over 30 days.
  seedJobHistory(dataDir, { jobs: 2, filesPerJob: 10_001, singles: 2_000 });
  history = openHistory(dataDir);
  history.insertMany([
    threat('Win.Trojan.Alpha', JAN_1 + 14 * DAY + 3_600_000),
    threat('Win.Trojan.Alpha', JAN_1 + 15 * DAY),
    threat('Win.Trojan.Beta', JAN_1 + 15 * DAY + 7_200_000, { disposition: 'allowed' }),
    // Two names on one file: each is counted.
    { ...threat('Win.Trojan.Beta', JAN_1 + 16 * DAY), findings: [{ name: 'Win.Trojan.Beta' }, { name: 'Doc.Macro.Gamma' }] },
  ]);
  history.flush();
  for (const update of UPDATES) history.signatureUpdates.notice(update);
  const db = new DatabaseSync(path.join(dataDir, HISTORY_FILE_NAME), { readOnly: true });
  rows = {
    scans: db.prepare('SELECT queued_at, verdict, findings_json FROM scans').all() as typeof rows.scans,
    compact: (db.prepare('SELECT queued_ms FROM job_clean_files').all() as Array<{ queued_ms: number }>).map((row) => Number(row.queued_ms)),
  };
  db.close();
}, 60_000);
afterAll(() => {
  history?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The same figures from every row, counted here: the user's day of each row by its offset. */
function expected(nowMs: number, offsetMinutes: number, days: number) {
  const offset = offsetMinutes * 60_000;
  const dayOf = (ms: number) => new Date(ms + offset).toISOString().slice(0, 10);
  const today = dayOf(nowMs);
  const first = new Date(Date.parse(`${today}T00:00:00.000Z`) - (days - 1) * DAY).toISOString().slice(0, 10);
  const perDay = new Map<string, { scanned: number; threats: number }>();
  const mix = new Map<string, number>();
  const names = new Map<string, number>();
  const add = (ms: number, verdict: string, findings: string) => {
    const day = dayOf(ms);
    if (day < first || day > today) return;
    const entry = perDay.get(day) ?? { scanned: 0, threats: 0 };
    if (['safe', 'unsafe', 'allowed', 'partial'].includes(verdict)) entry.scanned++;
    if (verdict === 'unsafe') entry.threats++;
    perDay.set(day, entry);
    mix.set(verdict, (mix.get(verdict) ?? 0) + 1);
    if (verdict === 'unsafe' || verdict === 'allowed') for (const { name } of JSON.parse(findings) as Array<{ name: string }>) names.set(name, (names.get(name) ?? 0) + 1);
  };
  for (const row of rows.scans) add(Date.parse(row.queued_at), row.verdict, row.findings_json);
  for (const ms of rows.compact) add(ms, 'safe', '[]');
  return { first, today, perDay, mix, names };
}

describe('the protection overview from the history', () => {
  it('counts files per day (the compact store included), the verdict mix and the top detections as the rows say, for any offset and day', () => {
    fc.assert(
      fc.property(fc.integer({ min: JAN_1 - 5 * DAY, max: JAN_1 + 45 * DAY }), fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.integer({ min: 1, max: 40 }), (nowMs, offset, days) => {
        const overview = history.overview({ nowMs, utcOffsetMinutes: offset, days, topDetections: 3 });
        const want = expected(nowMs, offset, days);
        expect(overview.days).toHaveLength(days);
        expect(overview.days[0]?.day).toBe(want.first);
        expect(overview.days.at(-1)?.day).toBe(want.today);
        for (const day of overview.days) expect({ day: day.day, scanned: day.scanned, threats: day.threats }).toEqual({ day: day.day, ...(want.perDay.get(day.day) ?? { scanned: 0, threats: 0 }) });
        expect(new Map(overview.verdicts.map((v) => [v.verdict, v.count]))).toEqual(want.mix);
        const top = [...want.names].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
        expect(overview.topDetections.map((d) => [d.name, d.count])).toEqual(top);
      }),
      { numRuns: 25 },
    );
  });

  it('holds the jobs’ clean files and the threat names on the busy days', () => {
    const overview = history.overview({ nowMs: JAN_1 + 24 * DAY, utcOffsetMinutes: 0, days: 30, topDetections: 5 });
    const job = overview.days.find((day) => day.day === '2026-01-11');
    // The job's 10,001 files less its failure, with the day's single scans.
    expect(job?.scanned).toBeGreaterThan(10_000);
    expect(overview.topDetections.map((d) => d.name)).toEqual(['Eicar-Test-Signature', 'Win.Trojan.Alpha', 'Win.Trojan.Beta', 'Doc.Macro.Gamma']);
    expect(overview.verdicts.find((v) => v.verdict === 'allowed')?.count).toBe(1);
    expect(overview.lastFullScan).toMatchObject({ status: 'completed', scanned: expect.any(Number), threats: 2 });
    expect(overview.lastFullScan?.finishedAt.startsWith('2026-01-21')).toBe(true);
  });

  it('counts the signature updates per day and the age of the signatures in use at each day’s end, as the updates say', () => {
    fc.assert(
      fc.property(fc.integer({ min: JAN_1 - 25 * DAY, max: JAN_1 + 45 * DAY }), fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.integer({ min: 1, max: 40 }), (nowMs, offset, days) => {
        const overview = history.overview({ nowMs, utcOffsetMinutes: offset, days, topDetections: 3 });
        const first = Date.parse(`${overview.days[0]?.day}T00:00:00.000Z`) - offset * 60_000;
        const noticedBy = (ms: number) => UPDATES.filter((update) => update.noticedMs < ms);
        overview.days.forEach((day, i) => {
          const start = first + i * DAY;
          const end = Math.min(start + DAY, nowMs);
          expect(day.updates, day.day).toBe(UPDATES.filter((u) => u.noticedMs >= start && u.noticedMs < start + DAY).length);
          const inUse = noticedBy(start + DAY).at(-1);
          const want = inUse?.signatureDate && inUse.noticedMs <= end ? Math.max(0, Math.floor((end - Date.parse(inUse.signatureDate)) / DAY)) : null;
          expect(day.signatureAgeDays, day.day).toBe(want);
        });
        const within = UPDATES.filter((u) => u.noticedMs >= first && u.noticedMs < first + days * DAY);
        expect(overview.signatureUpdates.map((u) => u.at)).toEqual(within.map((u) => new Date(u.noticedMs).toISOString()));
      }),
      { numRuns: 40 },
    );
  });

  it('writes a signature update only when the signatures differ from the newest', () => {
    const latest = history.signatureUpdates.latest();
    expect(latest?.identity).toBe(UPDATES.at(-1)?.identity);
    expect(history.signatureUpdates.notice({ ...latest!, noticedMs: JAN_1 + 40 * DAY })).toBe(false);
    expect(history.signatureUpdates.latest()?.noticedMs).toBe(latest?.noticedMs);
  });

  it('walks indexes only: no statement scans the scans table or the compact store', () => {
    const db = new DatabaseSync(path.join(dataDir, HISTORY_FILE_NAME), { readOnly: true });
    try {
      for (const [name, sql] of Object.entries(OVERVIEW_SQL)) {
        const params = (sql.match(/\?/g) ?? []).map(() => 1);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
        const onBigTables = plan.filter((detail) => /\b(scans|job_clean_files)\b/.test(detail));
        // The jobs table has a row per job (a few hundred at most): scanning it is fine.
        if (name === 'jobsInWindow' || name === 'lastFullScan') continue;
        expect(onBigTables.length, `${name}: ${plan.join(' | ')}`).toBeGreaterThan(0);
        for (const detail of onBigTables) expect(detail, name).toMatch(/^SEARCH (scans|job_clean_files) USING (COVERING )?INDEX (scans_by_verdict|job_clean_files_by_job) /);
      }
      for (const [name, sql] of Object.entries(SIGNATURE_UPDATES_SQL)) {
        const params = (sql.match(/\?/g) ?? []).map(() => 1);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
        expect(plan.join(' | '), name).toMatch(/^SCAN signature_updates USING INDEX signature_updates_by_noticed$|^SEARCH signature_updates USING INDEX signature_updates_by_noticed \(noticed_ms/);
        expect(plan.join(' | '), name).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });
});
