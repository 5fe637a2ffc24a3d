// The history database for real (node:sqlite files in a temp folder): schema
// and migrations, every field round-tripped, the queries the UI uses, reuse,
// crash recovery, exports, retention, damaged files and a kill mid-write.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, openHistory, type History } from '../../../electron/history/history.ts';
import { LATEST_VERSION, migrate, MIGRATIONS, NewerSchemaError, userVersion, type Migration } from '../../../electron/history/migrations.ts';
import { RECORD_COLUMNS, recordToRow } from '../../../electron/history/row-mapping.ts';
import { COLUMNS_OF_MIGRATION_13 } from '../../../electron/history/unchanged-files-migration.ts';
import { COLUMNS_OF_MIGRATION_14 } from '../../../electron/history/allowed-by-migration.ts';
import { COLUMNS_OF_MIGRATION_16 } from '../../../electron/history/engine-detection-migration.ts';
import { COLUMNS_OF_MIGRATION_18 } from '../../../electron/history/engine-self-test-migration.ts';
import { hasFts5 } from '../../../electron/history/name-index.ts';
import { SEARCH_COUNT_STEP, searchCountCap } from '../../../electron/history/query-filter.ts';
import { csvField } from '../../../electron/history/export-format.ts';
import { dispositionSchema, verdictOf, VERDICTS, type LocalStatus, type ScanRecord, type Verdict } from '../../../shared/scans/record.ts';
import { makeRecord } from './fixtures/records.ts';
import { runUntilKilled } from './fixtures/run-until-killed.ts';

let dataDir: string;
let history: History;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-'));
  history = openHistory(dataDir);
});
afterEach(() => {
  history.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const completed = (overrides: Partial<ScanRecord> = {}) =>
  makeRecord({ status: 'completed', safe: true, detailed: 'clean', completedAt: '2026-02-01T00:00:00.000Z', sha256: hex(32), ...overrides });

/** A side connection to the same file, for checks the History API does not offer. */
function inspect<T>(fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(history.file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe('schema', () => {
  it('creates the database in WAL mode at the latest schema version, owner-only', () => {
    expect(history.file).toBe(path.join(dataDir, HISTORY_FILE_NAME));
    expect(statSync(history.file).mode & 0o777).toBe(0o600);
    const db = new DatabaseSync(history.file);
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(userVersion(db)).toBe(LATEST_VERSION);
    } finally {
      db.close();
    }
  });

  it('runs each migration once, in order, and records the version', () => {
    const db = new DatabaseSync(':memory:');
    const ran: number[] = [];
    const migrations: Migration[] = [
      { version: 2, description: 'second', up: (d) => (ran.push(2), d.exec('CREATE TABLE b (x)')) },
      { version: 1, description: 'first', up: (d) => (ran.push(1), d.exec('CREATE TABLE a (x)')) },
    ];
    expect(migrate(db, migrations)).toEqual([1, 2]);
    expect(migrate(db, migrations)).toEqual([]);
    expect(ran).toEqual([1, 2]);
    expect(userVersion(db)).toBe(2);
  });

  it('rolls a failing migration back completely', () => {
    const db = new DatabaseSync(':memory:');
    const migrations: Migration[] = [
      { version: 1, description: 'ok', up: (d) => d.exec('CREATE TABLE a (x)') },
      {
        version: 2,
        description: 'fails halfway',
        up: (d) => {
          d.exec('CREATE TABLE b (x)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrate(db, migrations)).toThrow('boom');
    expect(userVersion(db)).toBe(1);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all()).toEqual([{ name: 'a' }]);
  });

  it('refuses a database from a newer Verdict with a clear error', () => {
    history.close();
    const db = new DatabaseSync(path.join(dataDir, HISTORY_FILE_NAME));
    db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    db.close();
    expect(() => openHistory(dataDir)).toThrow(NewerSchemaError);
    expect(() => openHistory(dataDir)).toThrow(/newer version of Verdict/);
    history = openHistory(mkdtempSync(path.join(dataDir, 'fresh-'))); // for afterEach
  });

  it('sets a damaged database aside and starts a new one, with a warning', () => {
    history.close();
    const file = path.join(dataDir, HISTORY_FILE_NAME);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    writeFileSync(file, Buffer.concat([Buffer.from('definitely not SQLite '), randomBytes(8192)]));
    history = openHistory(dataDir);
    expect(history.warning).toMatch(/set aside as history\.sqlite\.corrupt-/);
    expect(readdirSync(dataDir).some((name) => name.startsWith('history.sqlite.corrupt-'))).toBe(true);
    history.insert(makeRecord());
    expect(history.query({}).total).toBe(1);
  });

  it('reopens an existing database with its rows', () => {
    const record = completed();
    history.insert(record);
    history.close();
    history = openHistory(dataDir);
    expect(history.warning).toBeNull();
    expect(history.get(record.id)).toEqual(record);
  });
});

describe('records', () => {
  it('round-trips every field', () => {
    const full: ScanRecord = {
      id: 'a1b2',
      path: '/home/ü/with space/new\nline "quoted", name.exe',
      fileName: 'new\nline "quoted", name.exe',
      size: 123_456_789,
      md5: hex(16),
      sha1: hex(20),
      sha256: hex(32),
      mode: 'async',
      origin: 'watch',
      backend: 'https://scan.example.com',
      externalReferenceId: 'verdict/install-1/a1b2',
      serviceScanId: 'srv-99',
      status: 'completed',
      pendingReason: null,
      safe: false,
      detailed: 'Eicar-Test-Signature FOUND',
      findings: [{ name: 'Eicar-Test-Signature', engine: 'clamav', extra: { nested: [1, 2] } }, { name: 'Other' }],
      engine: { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } },
      fileType: 'application/x-dosexec',
      queuedAt: '2026-03-01T10:00:00.000Z',
      submittedAt: '2026-03-01T10:00:01.000Z',
      completedAt: '2026-03-01T10:00:02.500Z',
      durationMs: 1500,
      error: null,
      reusedFromId: 'earlier-id',
      disposition: 'quarantined',
      quarantineId: 'entry-7',
    };
    history.insert(full);
    expect(history.get(full.id)).toEqual(full);
    expect(history.getByReference(full.externalReferenceId)).toEqual(full);

    const failed = makeRecord({ status: 'failed', error: { code: 'too_large', message: 'over 100 MB' }, size: null, mode: null });
    history.insert(failed);
    expect(history.get(failed.id)).toEqual(failed);
  });

  it('returns null for unknown ids and references', () => {
    expect(history.get('nope')).toBeNull();
    expect(history.getByReference('nope')).toBeNull();
    expect(history.update('nope', { status: 'failed' })).toBeNull();
  });

  it('refuses invalid records, duplicate ids and duplicate references', () => {
    expect(() => history.insert({ ...makeRecord(), status: 'done' as LocalStatus })).toThrow(/Invalid scan record/);
    expect(() => history.insert({ ...makeRecord(), size: -1 })).toThrow(TypeError);
    const record = makeRecord();
    history.insert(record);
    expect(() => history.insert({ ...makeRecord(), id: record.id })).toThrow(/UNIQUE/);
    expect(() => history.insert({ ...makeRecord(), externalReferenceId: record.externalReferenceId })).toThrow(/UNIQUE/);
    expect(history.query({}).total).toBe(1);
  });

  it('inserts many records all or nothing', () => {
    const good = [makeRecord(), makeRecord()];
    expect(() => history.insertMany([...good, { ...makeRecord(), id: good[0]!.id }])).toThrow();
    expect(history.query({}).total).toBe(0);
    history.insertMany(good);
    expect(history.query({}).total).toBe(2);
  });

  it('updates some fields and returns the new record', () => {
    const record = makeRecord();
    history.insert(record);
    const updated = history.update(record.id, {
      status: 'completed',
      safe: false,
      findings: [{ name: 'X' }],
      error: null,
      serviceScanId: 'srv',
      completedAt: '2026-05-05T00:00:00.000Z',
    });
    expect(updated).toEqual({ ...record, status: 'completed', safe: false, findings: [{ name: 'X' }], serviceScanId: 'srv', completedAt: '2026-05-05T00:00:00.000Z' });
    expect(history.get(record.id)).toEqual(updated);
    expect(history.update(record.id, {})).toEqual(updated);
    expect(history.update(record.id, { error: { code: 'e', message: 'm' } })?.error).toEqual({ code: 'e', message: 'm' });
    expect(history.update(record.id, { error: null })?.error).toBeNull();
  });

  it('refuses an invalid change or one to the id', () => {
    const record = makeRecord();
    history.insert(record);
    expect(() => history.update(record.id, { status: 'bogus' as LocalStatus })).toThrow(/Invalid scan record change/);
    expect(() => history.update(record.id, { id: 'other' } as Partial<ScanRecord>)).toThrow(/Invalid/);
    expect(history.get(record.id)).toEqual(record);
  });

  it('survives a damaged findings cell', () => {
    const record = completed({ findings: [{ name: 'A' }] });
    history.insert(record);
    history.close();
    const db = new DatabaseSync(path.join(dataDir, HISTORY_FILE_NAME));
    db.prepare('UPDATE scans SET findings_json = ? WHERE id = ?').run('{not json', record.id);
    db.close();
    history = openHistory(dataDir);
    expect(history.get(record.id)?.findings).toEqual([]);
  });
});

describe('verdicts', () => {
  it('the verdict filter agrees with verdictOf for every status, safe value, disposition and engine', () => {
    const statuses: LocalStatus[] = ['queued', 'uploading', 'processing', 'completed', 'failed', 'skipped'];
    const dispositions = [null, ...dispositionSchema.options];
    // Who judged: not said, the built-in engine (basic checks only), ClamAV, or not said but the built-in engine's label.
    const engines: Array<Pick<ScanRecord, 'engine' | 'detailed'>> = [
      { engine: null, detailed: null },
      { engine: { name: 'builtin', version: null, signatures: null }, detailed: 'clean (basic checks only; ClamAV not available)' },
      { engine: { name: 'clamav', version: '1.4.6', signatures: null }, detailed: 'clean' },
      { engine: null, detailed: 'clean (basic checks only; ClamAV not available)' },
      // ClamAV could inspect only part of it (issue 27 §3): 'partial' when judged not safe.
      { engine: { name: 'clamav', version: '1.4.6', signatures: null }, detailed: 'scanned in part' },
    ];
    const records = statuses.flatMap((status) =>
      [true, false, null].flatMap((safe) => dispositions.flatMap((disposition) => engines.map((by) => makeRecord({ status, safe, disposition, ...by })))),
    );
    history.insertMany(records);
    const verdicts: Verdict[] = [...VERDICTS];
    for (const verdict of verdicts) {
      const expected = records.filter((r) => verdictOf(r) === verdict).map((r) => r.id).sort();
      const found = history.query({ verdicts: [verdict], limit: 1000 }).items.map((r) => r.id).sort();
      expect(found, verdict).toEqual(expected);
      // The main list words some verdicts on the row's own columns (SAFE_VERDICT_SQL): the same rows, counted alike.
      expect(history.query({ verdicts: [verdict], limit: 1000, jobRows: 'threats' }).items.map((r) => r.id).sort(), `${verdict} in the list`).toEqual(expected);
      expect(history.query({ verdicts: [verdict], limit: 1, jobRows: 'threats' }).total, `${verdict} counted in the list`).toBe(expected.length);
    }
    // A completed scan without a verdict is "could not scan", never "safe"; allowed content is never "safe" either,
    // and neither is a clean answer of basic checks only.
    expect(history.query({ verdicts: ['safe'], limit: 1000 }).items.every((r) => r.safe === true && r.engine?.name !== 'builtin')).toBe(true);
    expect(history.query({ verdicts: ['basic-only'], limit: 1000 }).total).toBe(dispositions.length * 2);
    // Two verdicts at once, with and without a generated one beside them: the union of each.
    expect(history.query({ verdicts: ['partial'], limit: 1000 }).total).toBe(dispositions.length - 1);
    const pairs = [['safe', 'basic-only'], ['basic-only', 'unsafe'], ['safe', 'could-not-scan'], ['unsafe', 'partial'], ['partial', 'basic-only'], ['partial', 'could-not-scan']];
    for (const pair of pairs as Verdict[][]) {
      const expected = records.filter((r) => pair.includes(verdictOf(r))).map((r) => r.id).sort();
      expect(history.query({ verdicts: pair, limit: 1000 }).items.map((r) => r.id).sort(), pair.join('+')).toEqual(expected);
      expect(history.query({ verdicts: pair, limit: 1000, jobRows: 'threats' }).items.map((r) => r.id).sort(), `${pair.join('+')} in the list`).toEqual(expected);
    }
    expect(history.query({ verdicts: ['allowed'], limit: 1000 }).items.every((r) => r.safe === false && r.disposition === 'allowed')).toBe(true);
    expect(verdictOf({ status: 'completed', safe: false, detailed: null, disposition: 'allowed' })).toBe('allowed');
    expect(verdictOf({ status: 'completed', safe: false, detailed: null, disposition: 'quarantined' })).toBe('unsafe');
    expect(verdictOf({ status: 'completed', safe: false, detailed: null })).toBe('unsafe');
  });

  it('filters waiting records by why they wait', () => {
    const held = makeRecord({ status: 'queued', pendingReason: 'awaiting_upload_consent' });
    history.insertMany([held, makeRecord({ status: 'queued', pendingReason: 'retrying' }), makeRecord({ status: 'queued' }), makeRecord({ status: 'completed', safe: true })]);
    expect(history.query({ pendingReasons: ['awaiting_upload_consent'] }).items.map((r) => r.id)).toEqual([held.id]);
    expect(history.query({ pendingReasons: ['awaiting_upload_consent', 'retrying'] }).total).toBe(2);
  });
});

/** Columns migration 5 adds: rows written under an older schema have none of them. */
const ENGINE_COLUMNS: readonly string[] = ['engine_name', 'engine_version', 'signatures_version', 'signatures_date', ...COLUMNS_OF_MIGRATION_13, ...COLUMNS_OF_MIGRATION_14, ...COLUMNS_OF_MIGRATION_16, ...COLUMNS_OF_MIGRATION_18];

describe('migration 2 (dispositions)', () => {
  it('upgrades a schema-1 database in place: rows kept, new columns empty, verdicts as before, allowed content filterable', () => {
    history.close();
    const file = path.join(dataDir, 'old.sqlite');
    const db = new DatabaseSync(file);
    migrate(db, MIGRATIONS.filter((migration) => migration.version === 1));
    const columns = RECORD_COLUMNS.filter((column) => !['disposition', 'quarantine_id', 'error_params', ...ENGINE_COLUMNS].includes(column));
    const insert = db.prepare(`INSERT INTO scans (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    const old = [makeRecord({ status: 'completed', safe: false, sha256: hex(32) }), makeRecord({ status: 'completed', safe: true }), makeRecord({ status: 'queued' })];
    for (const record of old) {
      const row = recordToRow(record);
      insert.run(...columns.map((column) => row[column] ?? null));
    }
    expect(userVersion(db)).toBe(1);
    db.close();

    history = openHistory(dataDir, { fileName: 'old.sqlite' });
    inspect((check) => expect(userVersion(check)).toBe(LATEST_VERSION));
    for (const record of old) expect(history.get(record.id)).toEqual(record);
    expect(history.query({ verdicts: ['unsafe'] }).items.map((r) => r.id)).toEqual([old[0]!.id]);
    const allowed = history.update(old[0]!.id, { disposition: 'allowed', quarantineId: 'entry-1' });
    expect(allowed).toMatchObject({ disposition: 'allowed', quarantineId: 'entry-1' });
    expect(history.query({ verdicts: ['unsafe'] }).total).toBe(0);
    expect(history.query({ verdicts: ['allowed'] }).items.map((r) => r.id)).toEqual([old[0]!.id]);
    // A patch that does not name the disposition leaves it alone.
    expect(history.update(old[0]!.id, { detailed: 'still allowed' })?.disposition).toBe('allowed');
    expect(history.withDisposition('allowed').map((r) => r.id)).toEqual([old[0]!.id]);
    expect(history.withDisposition('allowed', { sha256: old[0]!.sha256!.toUpperCase() })).toHaveLength(1);
    expect(history.withDisposition('allowed', { sha256: hex(32) })).toHaveLength(0);
  });
});

describe('migration 3 (error parameters)', () => {
  it('keeps older errors as they were (English message only) and round-trips parameters from then on', () => {
    history.close();
    const file = path.join(dataDir, 'v2.sqlite');
    const db = new DatabaseSync(file);
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 2));
    const columns = RECORD_COLUMNS.filter((column) => column !== 'error_params' && !ENGINE_COLUMNS.includes(column));
    const old = makeRecord({ status: 'skipped', error: { code: 'excluded_extension', message: 'Not scanned: files ending in .iso are excluded in the global exclusions.' } });
    const row = recordToRow(old);
    db.prepare(`INSERT INTO scans (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((column) => row[column] ?? null));
    db.close();

    history = openHistory(dataDir, { fileName: 'v2.sqlite' });
    expect(history.get(old.id)).toEqual(old);
    expect(history.get(old.id)?.error).not.toHaveProperty('params');
    const params = { scope: 'folder', target: 'file', rule: 'iso' };
    const withParams = makeRecord({ status: 'skipped', error: { code: 'excluded_extension', message: 'Not scanned: …', params } });
    history.insert(withParams);
    expect(history.get(withParams.id)?.error).toEqual({ code: 'excluded_extension', message: 'Not scanned: …', params });
    expect(history.update(old.id, { error: { code: 'over_auto_scan_size', message: 'Not scanned automatically: …', params: { scope: 'global', target: 'file', limit: 1024 } } })?.error?.params).toEqual({
      scope: 'global',
      target: 'file',
      limit: 1024,
    });
    expect(history.update(old.id, { error: null })?.error).toBeNull();
    // A damaged cell costs the parameters only: the English message is still there.
    inspect((check) => check.prepare("UPDATE scans SET error_params = '{not json' WHERE id = ?").run(withParams.id));
    expect(history.get(withParams.id)?.error).toEqual({ code: 'excluded_extension', message: 'Not scanned: …' });
  });
});

for (const nameIndex of [true, false]) {
  describe(`query (name index ${nameIndex ? 'on' : 'off, as without FTS5'})`, () => {
    const names = ['Report 2026.pdf', 'report_final.PDF', 'setup.exe', 'photo%.jpg', 'under_score.txt', 'weird "quote".txt', 'Übersicht.txt', 'emoji 🦠 sample.bin'];
    let records: ScanRecord[];

    beforeEach(() => {
      history.close();
      history = openHistory(dataDir, { nameIndex });
      records = names.map((fileName, i) =>
        makeRecord({
          fileName,
          status: i % 3 === 0 ? 'completed' : i % 3 === 1 ? 'failed' : 'queued',
          safe: i % 3 === 0 ? i % 2 === 0 : null,
          sha256: hex(32),
          sha1: hex(20),
          md5: hex(16),
          queuedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      );
      history.insertMany(records);
    });

    const ids = (list: ScanRecord[]) => list.map((r) => r.id);

    it('pages newest first by default, oldest first on request, with the total', () => {
      const page = history.query({ limit: 3 });
      expect(page.total).toBe(names.length);
      expect(ids(page.items)).toEqual(ids([...records].reverse().slice(0, 3)));
      expect(ids(history.query({ limit: 3, offset: 3 }).items)).toEqual(ids([...records].reverse().slice(3, 6)));
      expect(ids(history.query({ order: 'oldest', limit: 2 }).items)).toEqual(ids(records.slice(0, 2)));
      expect(history.query({ offset: 100 })).toEqual({ items: [], total: names.length });
    });

    it('breaks ties in time by insertion order', () => {
      const same = '2030-01-01T00:00:00.000Z';
      const a = makeRecord({ queuedAt: same });
      const b = makeRecord({ queuedAt: same });
      history.insertMany([a, b]);
      expect(ids(history.query({ limit: 2 }).items)).toEqual([b.id, a.id]);
    });

    it('filters by status and by verdict, and both', () => {
      const byStatus = history.query({ statuses: ['failed', 'queued'], limit: 100 });
      expect(byStatus.items.every((r) => r.status === 'failed' || r.status === 'queued')).toBe(true);
      expect(byStatus.total).toBe(records.filter((r) => r.status !== 'completed').length);
      const unsafe = history.query({ verdicts: ['unsafe'] });
      expect(ids(unsafe.items).sort()).toEqual(ids(records.filter((r) => verdictOf(r) === 'unsafe')).sort());
      expect(history.query({ statuses: ['completed'], verdicts: ['could-not-scan'] }).total).toBe(0);
      expect(history.query({ statuses: [], verdicts: [] }).total).toBe(names.length); // empty lists: no filter
    });

    it('searches names by substring, case-insensitively, with % and _ taken literally', () => {
      const search = (text: string) => history.query({ search: text, limit: 100 }).items.map((r) => r.fileName).sort();
      expect(search('report')).toEqual(['Report 2026.pdf', 'report_final.PDF']);
      expect(search('.pdf')).toEqual(['Report 2026.pdf', 'report_final.PDF']);
      expect(search('%')).toEqual(['photo%.jpg']);
      expect(search('_')).toEqual(['report_final.PDF', 'under_score.txt']);
      expect(search('o%.j')).toEqual(['photo%.jpg']);
      expect(search('"quote"')).toEqual(['weird "quote".txt']);
      expect(search('🦠')).toEqual(['emoji 🦠 sample.bin']);
      expect(search('🦠 sam')).toEqual(['emoji 🦠 sample.bin']);
      expect(search('Übersicht')).toEqual(['Übersicht.txt']);
      expect(search('  setup  ')).toEqual(['setup.exe']);
      expect(search('AND OR NOT * ^')).toEqual([]); // FTS syntax is just text
      expect(search('nothing-like-this')).toEqual([]);
    });

    it('finds records by a prefix of any digest, in either case', () => {
      const target = records[4]!;
      for (const digest of [target.sha256!, target.sha1!, target.md5!]) {
        for (const prefix of [digest, digest.slice(0, 12), digest.slice(0, 12).toUpperCase()]) {
          expect(ids(history.query({ search: prefix }).items), prefix).toContain(target.id);
        }
      }
      expect(ids(history.query({ search: target.sha256! }).items)).toEqual([target.id]);
    });

    it('combines search with filters and paging', () => {
      const page = history.query({ search: 'r', statuses: ['completed'], limit: 1 }); // not a hex digit: names only
      const all = records.filter((r) => r.status === 'completed' && r.fileName.toLowerCase().includes('r'));
      expect(page.total).toBe(all.length);
      expect(ids(page.items)).toEqual([all.at(-1)!.id]);
    });

    it('rejects a malformed query', () => {
      expect(() => history.query({ limit: 0 })).toThrow();
      expect(() => history.query({ statuses: ['nope' as LocalStatus] })).toThrow();
    });
  });

  describe(`query: searches that match many rows (name index ${nameIndex ? 'on' : 'off'})`, () => {
    it('gives the same answers whichever plan runs', () => {
      history.close();
      history = openHistory(dataDir, { nameIndex });
      // More than BROAD_SEARCH_ROWS (2000) matches switches the plan; the results must not change.
      const records = Array.from({ length: 2600 }, (_, i) =>
        makeRecord({
          fileName: i % 5 === 0 ? `other-${i}.bin` : `Setup-${i}.exe`,
          status: i % 4 === 0 ? 'failed' : 'completed',
          safe: i % 4 === 0 ? null : i % 7 !== 0,
          queuedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        }),
      );
      history.insertMany(records);
      const expectPage = (search: string, extra: { verdicts?: Verdict[] } = {}) => {
        const matching = records
          .filter((r) => r.fileName.toLowerCase().includes(search.toLowerCase()))
          .filter((r) => !extra.verdicts || extra.verdicts.includes(verdictOf(r)))
          .reverse();
        const page = history.query({ search, ...extra, limit: 50, offset: 10 });
        // A search counts up to the cap (1,000 here), whichever plan runs.
        const cap = searchCountCap(10, 50);
        const total = matching.length > cap ? { total: cap, totalIsLowerBound: true } : { total: matching.length };
        expect({ total: page.total, totalIsLowerBound: page.totalIsLowerBound }, search).toEqual(total);
        expect(page.items.map((r) => r.id), search).toEqual(matching.slice(10, 60).map((r) => r.id));
      };
      expectPage('setup'); // ~2080 matches: broad
      expectPage('SETUP-1'); // a few hundred: narrow
      expectPage('setup', { verdicts: ['unsafe'] });
      expectPage('other-25');
      expectPage('se'); // too short for the trigram index
    });

    it('counts a broad search only past the page, says so, and is exact at the end', () => {
      history.close();
      history = openHistory(dataDir, { nameIndex });
      expect(SEARCH_COUNT_STEP).toBe(1000);
      const records = Array.from({ length: 2600 }, (_, i) =>
        makeRecord({ fileName: i % 5 === 0 ? `other-${i}.bin` : `setup-${i}.exe`, queuedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() }),
      );
      history.insertMany(records);
      const matching = records.filter((r) => r.fileName.startsWith('setup')).reverse(); // 2080, newest first
      const page = (offset: number) => history.query({ search: 'setup', offset, limit: 200 });
      const ids = (list: ScanRecord[]) => list.map((r) => r.id);

      // Page by page, the bound moves on past the page, so the list always has rows left to load.
      expect(page(0)).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(ids(page(0).items)).toEqual(ids(matching.slice(0, 200)));
      expect(page(600)).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(page(800)).toMatchObject({ total: 2000, totalIsLowerBound: true });
      expect(ids(page(800).items)).toEqual(ids(matching.slice(800, 1000)));
      // Near the end the count reaches every match: exact, without the flag.
      const full = page(1800);
      expect(ids(full.items)).toEqual(ids(matching.slice(1800, 2000)));
      expect(full.total).toBe(2080);
      expect(full).not.toHaveProperty('totalIsLowerBound');
      // A page that stops short is the end: its total is exact too, and so is an empty page past the end.
      const short = page(2000);
      expect(ids(short.items)).toEqual(ids(matching.slice(2000)));
      expect(short).toEqual({ items: short.items, total: 2080 });
      expect(page(2400)).toEqual({ items: [], total: 2080 });
      // A narrow search, and the list without a search, count exactly.
      expect(history.query({ search: 'other-25', limit: 5 })).toMatchObject({ total: records.filter((r) => r.fileName.includes('other-25')).length });
      expect(history.query({ limit: 10 })).toEqual({ items: expect.any(Array), total: 2600 });
      expect(history.query({ verdicts: ['pending'], limit: 10 })).toEqual({ items: expect.any(Array), total: 2600 });
    });
  });
}

describe('name index', () => {
  it('is available in this Node (so the tests above cover both plans)', () => {
    const db = new DatabaseSync(':memory:');
    expect(hasFts5(db)).toBe(true);
    db.close();
  });

  it('is rebuilt after rows were written without it', () => {
    const before = completed({ fileName: 'written-with-index.txt' });
    history.insert(before);
    history.close();
    history = openHistory(dataDir, { nameIndex: false });
    const during = completed({ fileName: 'written-without-index.txt' });
    history.insert(during);
    history.update(before.id, { fileName: 'renamed-without-index.txt' });
    history.close();
    history = openHistory(dataDir);
    expect(history.query({ search: 'without-index' }).items.map((r) => r.id).sort()).toEqual([before.id, during.id].sort());
    expect(history.query({ search: 'with-index' }).total).toBe(0);
    inspect((db) => db.exec(`INSERT INTO scans_name_search (scans_name_search, rank) VALUES ('integrity-check', 1)`));
  });
});

describe('reuse, recovery and counts', () => {
  it('finds the latest completed verdict for the same content within the period', () => {
    const sha256 = hex(32);
    const old = completed({ sha256, completedAt: '2026-01-01T00:00:00.000Z' });
    const recent = completed({ sha256, safe: false, completedAt: '2026-03-01T00:00:00.000Z' });
    const failed = makeRecord({ sha256, status: 'failed', completedAt: '2026-04-01T00:00:00.000Z', error: { code: 'x', message: 'y' } });
    const noVerdict = completed({ sha256, safe: null, completedAt: '2026-04-02T00:00:00.000Z' });
    const skipped = makeRecord({ sha256, status: 'skipped', completedAt: '2026-04-03T00:00:00.000Z' });
    const pending = makeRecord({ sha256, status: 'processing' });
    const reused = completed({ sha256, completedAt: '2026-04-04T00:00:00.000Z', reusedFromId: recent.id });
    const otherContent = completed({ completedAt: '2026-04-05T00:00:00.000Z' });
    history.insertMany([old, recent, failed, noVerdict, skipped, pending, reused, otherContent]);

    expect(history.findReusable(sha256, '2025-12-01T00:00:00.000Z')?.id).toBe(recent.id);
    expect(history.findReusable(sha256.toUpperCase(), '2025-12-01T00:00:00.000Z')?.id).toBe(recent.id);
    expect(history.findReusable(sha256, '2026-03-01T00:00:00.000Z')?.id).toBe(recent.id); // inclusive
    expect(history.findReusable(sha256, '2026-03-01T00:00:00.001Z')).toBeNull(); // only the failed/reused/etc. are newer
    expect(history.findReusable(sha256, '2025-01-01T00:00:00.000Z', { backend: 'https://elsewhere.example' })).toBeNull();
    expect(history.findReusable(hex(32), '2000-01-01T00:00:00.000Z')).toBeNull();
  });

  it('lists non-terminal records oldest first for crash recovery', () => {
    const statuses: LocalStatus[] = ['processing', 'completed', 'queued', 'failed', 'uploading', 'skipped'];
    const records = statuses.map((status) => makeRecord({ status }));
    history.insertMany(records);
    expect(history.listPending().map((r) => r.status)).toEqual(['processing', 'queued', 'uploading']);
  });

  it('counts queued, uploading and processing scans', () => {
    expect(history.counts()).toEqual({ queued: 0, uploading: 0, processing: 0 });
    const statuses: LocalStatus[] = ['queued', 'queued', 'uploading', 'processing', 'processing', 'processing', 'completed', 'failed'];
    history.insertMany(statuses.map((status) => makeRecord({ status })));
    expect(history.counts()).toEqual({ queued: 2, uploading: 1, processing: 3 });
  });
});

/** RFC 4180 parser for checking exports (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

describe('export', () => {
  const hostile = ['comma, in name.txt', 'quote " in name.txt', 'line\nbreak.txt', 'crlf\r\nbreak.txt', 'emoji 😀.txt', '=cmd|calc.exe', '+1.txt', '@at.txt', 'plain.txt'];

  it('writes CSV with every name intact (commas, quotes, newlines) and formulas defused', async () => {
    const records = hostile.map((fileName) => completed({ fileName, path: `/x/${fileName}`, findings: [{ name: 'A', engine: 'e' }, { name: 'B' }] }));
    history.insertMany(records);
    const target = path.join(dataDir, 'out.csv');
    expect(await history.exportCsv(target, { order: 'oldest' })).toEqual({ rows: hostile.length });
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const rows = parseCsv(readFileSync(target, 'utf8'));
    const header = rows[0]!;
    const column = (name: string) => header.indexOf(name);
    expect(rows).toHaveLength(hostile.length + 1);
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    const expectedName = (name: string) => (/^[=+\-@]/.test(name) ? `'${name}` : name);
    expect(rows.slice(1).map((row) => row[column('file_name')])).toEqual(hostile.map(expectedName));
    expect(rows.slice(1).map((row) => row[column('id')])).toEqual(records.map((r) => r.id));
    expect(rows[1]![column('verdict')]).toBe('safe');
    expect(rows[1]![column('findings')]).toBe('A (e); B');
    expect(rows[1]![column('size')]).toBe('42');
    expect(rows[1]![column('md5')]).toBe('');
  });

  it('escapes single CSV fields by the rules', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('=1+1')).toBe(`'=1+1`);
    expect(csvField('-x,y')).toBe(`"'-x,y"`);
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
    expect(csvField(-5)).toBe('-5');
  });

  it('writes JSON that parses back to the records, and only those the query selects', async () => {
    const records = hostile.map((fileName, i) => completed({ fileName, safe: i % 2 === 0 }));
    history.insertMany(records);
    const target = path.join(dataDir, 'out.json');
    const result = await history.exportJson(target, { verdicts: ['unsafe'], order: 'oldest' });
    const parsed = JSON.parse(readFileSync(target, 'utf8')) as ScanRecord[];
    expect(parsed).toEqual(records.filter((_, i) => i % 2 === 1));
    expect(result.rows).toBe(parsed.length);
  });

  it('writes an empty export as a header or an empty array', async () => {
    await history.exportJson(path.join(dataDir, 'empty.json'));
    expect(JSON.parse(readFileSync(path.join(dataDir, 'empty.json'), 'utf8'))).toEqual([]);
    await history.exportCsv(path.join(dataDir, 'empty.csv'));
    expect(parseCsv(readFileSync(path.join(dataDir, 'empty.csv'), 'utf8'))).toHaveLength(1);
  });

  it('streams to a slow writer with bounded buffering, and leaves the stream open', async () => {
    const records = Array.from({ length: 3000 }, (_, i) => completed({ fileName: `${'long-name-'.repeat(10)}${i}.bin` }));
    history.insertMany(records);
    let maxBuffered = 0;
    let received = '';
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.toString();
        maxBuffered = Math.max(maxBuffered, this.writableLength);
        setImmediate(callback);
      },
    });
    const result = await history.exportCsv(slow);
    expect(result.rows).toBe(3000);
    expect(slow.writableEnded).toBe(false);
    expect(received.length).toBeGreaterThan(1_000_000);
    // Without waiting for 'drain', the whole export (> 1 MB) would queue up in the stream.
    expect(maxBuffered).toBeLessThan(200 * 1024);
    expect(parseCsv(received)).toHaveLength(3001);
  });

  it('fails cleanly when the stream is destroyed midway', async () => {
    history.insertMany(Array.from({ length: 2000 }, () => completed({ fileName: 'x'.repeat(200) })));
    const broken = new Writable({
      highWaterMark: 1024,
      write(_chunk, _encoding, callback) {
        setImmediate(() => callback(new Error('disk full')));
      },
    });
    broken.on('error', () => {});
    await expect(history.exportCsv(broken)).rejects.toThrow();
  });

  it('leaves an existing file untouched when the export to it fails', async () => {
    const target = path.join(dataDir, 'keep.csv');
    writeFileSync(target, 'old export');
    await expect(history.exportCsv(target, { limit: 5 } as never)).resolves.toBeDefined(); // paging fields are ignored
    expect(readFileSync(target, 'utf8')).not.toBe('old export');
    writeFileSync(target, 'old export');
    await expect(history.exportCsv(target, { statuses: ['nope' as LocalStatus] })).rejects.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('old export');
    expect(readdirSync(dataDir).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes terminal records older than a date, never pending ones', () => {
    const old = [
      completed({ queuedAt: '2025-01-01T00:00:00.000Z' }),
      makeRecord({ status: 'failed', queuedAt: '2025-01-02T00:00:00.000Z' }),
      makeRecord({ status: 'processing', queuedAt: '2025-01-03T00:00:00.000Z' }),
    ];
    const recent = completed({ queuedAt: '2026-06-01T00:00:00.000Z' });
    history.insertMany([...old, recent]);
    expect(history.deleteOlderThan('2026-01-01T00:00:00.000Z').sort()).toEqual([old[0]!.id, old[1]!.id].sort());
    expect(history.query({}).items.map((r) => r.id).sort()).toEqual([old[2]!.id, recent.id].sort());
  });

  it('keeps the newest terminal records', () => {
    const records = Array.from({ length: 6 }, (_, i) => completed({ queuedAt: new Date(Date.UTC(2026, 0, i + 1)).toISOString() }));
    const pending = makeRecord({ status: 'queued', queuedAt: '2020-01-01T00:00:00.000Z' });
    history.insertMany([...records, pending]);
    expect(history.keepLast(4).sort()).toEqual([records[0]!.id, records[1]!.id].sort());
    expect(history.query({ order: 'oldest' }).items.map((r) => r.id)).toEqual([pending.id, ...records.slice(2).map((r) => r.id)]);
    expect(() => history.keepLast(-1)).toThrow(RangeError);
  });

  it('retention never removes a threat or the record of a file in quarantine (or on its way there); "clear" removes all but the latter', () => {
    const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();
    const quarantined = completed({ safe: false, disposition: 'quarantined', quarantineId: 'q1', queuedAt: at(1) });
    const moving = completed({ safe: false, disposition: 'quarantine_pending', queuedAt: at(2) });
    const restored = completed({ safe: false, disposition: 'restored', quarantineId: 'q2', queuedAt: at(3) });
    const allowed = completed({ safe: false, disposition: 'allowed', queuedAt: at(4) });
    const leftInPlace = completed({ safe: false, queuedAt: at(5) });
    const clean = completed({ queuedAt: at(6) });
    history.insertMany([quarantined, moving, restored, allowed, leftInPlace, clean]);
    expect(history.deleteOlderThan('2026-01-01T00:00:00.000Z')).toEqual([clean.id]);
    expect(history.keepLast(0)).toEqual([]);
    expect(history.query({ order: 'oldest' }).items.map((r) => r.id)).toEqual([quarantined.id, moving.id, restored.id, allowed.id, leftInPlace.id]);
    // "Clear history" is asked for: threats go too, files in quarantine stay reachable.
    expect(history.clearFinished().sort()).toEqual([restored.id, allowed.id, leftInPlace.id].sort());
    expect(history.query({ order: 'oldest' }).items.map((r) => r.id)).toEqual([quarantined.id, moving.id]);
    // Restored from quarantine: the record is ordinary history again, for "clear"; retention keeps it (a threat).
    history.update(quarantined.id, { disposition: 'restored' });
    expect(history.keepLast(0)).toEqual([]);
    expect(history.clearFinished()).toEqual([quarantined.id]);
  });

  it('keeps the name index in step with inserts, renames and deletes', () => {
    const a = completed({ fileName: 'alpha-report.pdf', queuedAt: '2025-01-01T00:00:00.000Z' });
    const b = completed({ fileName: 'beta-report.pdf' });
    history.insertMany([a, b]);
    history.update(b.id, { fileName: 'gamma-notes.txt' });
    history.deleteOlderThan('2026-01-01T00:00:00.000Z');
    expect(history.query({ search: 'report' }).total).toBe(0);
    expect(history.query({ search: 'gamma' }).items.map((r) => r.id)).toEqual([b.id]);
    inspect((db) => {
      expect(() => db.exec(`INSERT INTO scans_name_search (scans_name_search, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
    });
  });
});

describe('power cut', () => {
  it('keeps every committed row and an intact database when the writer is killed', async () => {
    history.close();
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'insert-until-killed.ts');
    const committed: string[] = [];
    for (const afterLines of [1, 40, 150]) {
      const run = await runUntilKilled(script, [dataDir], afterLines);
      committed.push(...run.lines);
      history = openHistory(dataDir);
      expect(history.warning).toBeNull();
      inspect((db) => {
        expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
        db.exec(`INSERT INTO scans_name_search (scans_name_search, rank) VALUES ('integrity-check', 1)`);
      });
      for (const id of committed) expect(history.get(id)?.status, id).toBe('completed');
      history.close();
    }
    history = openHistory(dataDir);
    expect(committed.length).toBeGreaterThanOrEqual(191);
  });
});
