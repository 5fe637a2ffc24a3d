// The history query from the renderer (`scans:list`; query-filter.ts and
// historyQuerySchema): anything the renderer sends is refused by the schema or
// answered with a page from a real history database, never a throw, and the
// page holds exactly the rows the query asks for.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openHistory } from '../../../electron/history/history.ts';
import { shownOutsideItsJob } from '../../../shared/jobs/job.ts';
import { historyQuerySchema, localStatusSchema, VERDICTS, type HistoryQuery, type ScanRecord } from '../../../shared/scans/record.ts';
import { makeRecord } from '../../electron/history/fixtures/records.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue, hostileString, trickyString } from './support/strings.ts';

const NAMES = ['report.pdf', 'a%b_c.txt', 'ÄÖÜ straße.doc', '100%_done', 'back\\slash', '"quoted".txt', 'emoji 😀.png', 'x'.repeat(200), 'NEAR(a b)', 'a*b', '-minus', 'OR AND NOT'];

const search = fc.oneof(fc.constantFrom(...NAMES.map((name) => name.slice(0, 6)), 'ab', '%', '_', '\\', '"', '*', 'NEAR', '0f', 'deadbeef'), trickyString(4), hostileString(512));
const wellShaped = fc.record(
  {
    statuses: fc.array(fc.constantFrom(...localStatusSchema.options), { maxLength: 4 }),
    verdicts: fc.array(fc.constantFrom(...VERDICTS), { maxLength: 4 }),
    pendingReasons: fc.array(fc.oneof(fc.constantFrom('awaiting_upload_consent', 'retrying'), trickyString(2)), { maxLength: 3 }),
    search,
    offset: fc.oneof(fc.nat({ max: 60 }), fc.integer(), fc.double()),
    limit: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer(), fc.constant(1000)),
    order: fc.oneof(fc.constantFrom('newest', 'oldest'), trickyString(1)),
    job: fc.oneof(fc.constantFrom(1, 2, 3), fc.integer(), anyJsonValue),
    jobRows: fc.oneof(fc.constantFrom('all', 'threats'), trickyString(1)),
  },
  { requiredKeys: [] },
);

/** Mostly valid queries about scan jobs, so their rows are actually compared (a hostile search would match nothing). */
const aboutJobs = fc.record(
  {
    job: fc.constantFrom(1, 2, 3),
    jobRows: fc.constantFrom('all', 'threats'),
    verdicts: fc.array(fc.constantFrom(...VERDICTS), { maxLength: 2 }),
    search: fc.constantFrom('report', '.bak', 'a'),
    offset: fc.nat({ max: 10 }),
    limit: fc.integer({ min: 1, max: 30 }),
    order: fc.constantFrom('newest', 'oldest'),
  },
  { requiredKeys: ['jobRows'] },
);

const queryInput: fc.Arbitrary<unknown> = fc.oneof({ weight: 6, arbitrary: wellShaped }, { weight: 3, arbitrary: aboutJobs }, { weight: 1, arbitrary: anyJsonValue }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('statuses', 'verdicts', 'search', 'offset', 'limit', 'order', 'pendingReasons', 'job', 'jobRows'), anyJsonValue) });

/** The rows a query must return, worked out in plain code over the records (ASCII case-insensitive substring, or digest prefix). */
function expected(records: ScanRecord[], query: ReturnType<typeof historyQuerySchema.parse>, verdictOf: (record: ScanRecord) => string): ScanRecord[] {
  const term = query.search?.trim() ?? '';
  const lower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const matches = records.filter((record) => {
    if (query.statuses?.length && !query.statuses.includes(record.status)) return false;
    if (query.verdicts?.length && !(query.verdicts as string[]).includes(verdictOf(record))) return false;
    if (query.job !== undefined && record.jobId !== query.job) return false;
    if (query.jobRows === 'threats' && !shownOutsideItsJob(record)) return false;
    if (term === '') return true;
    const hex = term.toLowerCase();
    const digest = /^[0-9a-f]{1,64}$/.test(hex) && [record.sha256, record.sha1, record.md5].some((value) => value?.startsWith(hex));
    return lower(record.fileName).includes(lower(term)) || digest;
  });
  const sorted = matches.sort((a, b) => (a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0));
  if (query.order === 'newest') sorted.reverse();
  return sorted.slice(query.offset, query.offset + query.limit);
}

export const historyQueryTarget: FuzzTarget<unknown> = {
  name: 'history-query',
  about: 'historyQuerySchema + History.query on a real database: refused, or exactly the matching page, never a throw',
  smoke: { runs: 1500 },
  async: false,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-fuzz-history-'));
    const history = openHistory(dir);
    const { verdictOf } = await import('../../../shared/scans/record.ts');
    const records = NAMES.flatMap((name, index) => [
      makeRecord({ fileName: name, status: 'completed', safe: index % 2 === 0, detailed: 'clean', completedAt: '2026-02-01T00:00:00.000Z', sha256: `${index.toString(16).padStart(2, '0')}${'ab'.repeat(31)}` }),
      makeRecord({ fileName: `${name}.bak`, status: 'failed', error: { code: 'engine_error', message: 'x' }, completedAt: '2026-02-01T00:00:00.000Z' }),
    ]);
    // A third on their own, a third in scan job 1, a third in job 2 (the `job` and `jobRows` filters).
    const third = Math.ceil(records.length / 3);
    history.insertMany(records.slice(0, third));
    history.insertMany(records.slice(third, 2 * third), 1);
    history.insertMany(records.slice(2 * third), 2);
    const stored = records.map((record) => history.get(record.id) as ScanRecord);
    return {
      arbitrary: queryInput,
      check(input) {
        const parsed = historyQuerySchema.safeParse(input);
        if (!parsed.success) return;
        const page = history.query(input as HistoryQuery);
        expectThat(page.items.length <= parsed.data.limit && page.total >= 0, 'page over its limit');
        if (parsed.data.pendingReasons?.length) {
          expectThat(page.items.length === 0, 'a record that waits for nothing matched a pending reason');
          return;
        }
        const want = expected(stored, parsed.data, verdictOf).map((record) => record.id);
        const got = page.items.map((record) => record.id);
        expectThat(JSON.stringify(got) === JSON.stringify(want), () => `query ${JSON.stringify(parsed.data)} gave ${got.length} rows, expected ${want.length}`);
      },
      async close() {
        history.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};
