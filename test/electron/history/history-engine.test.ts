// The engine of each verdict in the history (migration 5): kept and read back, set
// for old basic-checks verdicts on upgrade from schema 4, and the files "Scan again
// with ClamAV" offers (clean by the built-in engine, not judged by ClamAV since, once).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../electron/history/migrations.ts';
import { RECORD_COLUMNS, recordToRow } from '../../../electron/history/row-mapping.ts';
import { COLUMNS_OF_MIGRATION_13 } from '../../../electron/history/unchanged-files-migration.ts';
import { COLUMNS_OF_MIGRATION_14 } from '../../../electron/history/allowed-by-migration.ts';
import { COLUMNS_OF_MIGRATION_16 } from '../../../electron/history/engine-detection-migration.ts';
import { COLUMNS_OF_MIGRATION_18 } from '../../../electron/history/engine-self-test-migration.ts';
import { BUILTIN_IDENTITY } from '../../../shared/engine/engine-identity.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { makeRecord } from './fixtures/records.ts';

const BASIC_CLEAN = 'clean (basic checks only; ClamAV not available)';
const CLAMAV = { name: 'clamav' as const, version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } };
const hex = (n: number) => 'ab'.repeat(n);

let dataDir: string;
let history: History;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-engine-'));
  history = openHistory(dataDir);
});
afterEach(() => {
  history.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const verdict = (overrides: Partial<ScanRecord>): ScanRecord => makeRecord({ status: 'completed', safe: true, detailed: 'clean', sha256: hex(32), completedAt: '2026-11-25T10:00:00.000Z', ...overrides });

describe('the engine of a verdict', () => {
  it('round-trips ClamAV with dated signatures, ClamAV without, the built-in engine and none; a patch changes it', () => {
    // …and a verdict given while the self-test failed (issue 27 §2) keeps saying so.
    const records = [verdict({ engine: CLAMAV }), verdict({ engine: { ...CLAMAV, signatures: null } }), verdict({ engine: BUILTIN_IDENTITY }), verdict({ engine: null }), verdict({ engine: { ...CLAMAV, selfTest: 'failed' } })];
    for (const record of records) history.insert(record);
    for (const record of records) expect(history.get(record.id)).toEqual(record);
    const queued = makeRecord();
    history.insert(queued);
    expect(history.update(queued.id, { status: 'completed', safe: true, engine: CLAMAV })?.engine).toEqual(CLAMAV);
    expect(history.get(queued.id)?.engine).toEqual(CLAMAV);
  });

  it('upgrades a schema-4 history: basic-checks verdicts are the built-in engine\'s, others not recorded', () => {
    history.close();
    const file = path.join(dataDir, 'v4.sqlite');
    const db = new DatabaseSync(file);
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 4));
    const columns = RECORD_COLUMNS.filter((column) => !['engine_name', 'engine_version', 'signatures_version', 'signatures_date', ...COLUMNS_OF_MIGRATION_13, ...COLUMNS_OF_MIGRATION_14, ...COLUMNS_OF_MIGRATION_16, ...COLUMNS_OF_MIGRATION_18].includes(column));
    const old = [verdict({ detailed: BASIC_CLEAN }), verdict({ detailed: 'clean' }), verdict({ safe: false, detailed: 'infected' })];
    for (const record of old) {
      const row = recordToRow(record);
      db.prepare(`INSERT INTO scans (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((column) => row[column] ?? null));
    }
    db.close();

    history = openHistory(dataDir, { fileName: 'v4.sqlite' });
    const check = new DatabaseSync(file, { readOnly: true });
    expect(userVersion(check)).toBe(LATEST_VERSION);
    check.close();
    expect(old.map((record) => history.get(record.id)?.engine)).toEqual([BUILTIN_IDENTITY, null, null]);
    expect(history.basicOnly.count()).toBe(1);
  });
});

describe('files judged clean by basic checks only', () => {
  it('counts each path once, leaves out content ClamAV judged since, and offers a path once the action took it up', () => {
    const builtin = (file: string, sha: string) => verdict({ path: `/files/${file}`, fileName: file, sha256: sha, detailed: BASIC_CLEAN, engine: BUILTIN_IDENTITY });
    history.insertMany([
      builtin('a.txt', hex(32)),
      builtin('a.txt', hex(32)), // scanned twice: one file
      builtin('b.txt', 'cd'.repeat(32)),
      builtin('c.txt', 'ef'.repeat(32)),
      verdict({ path: '/files/d.txt', fileName: 'd.txt', safe: false, detailed: 'infected', engine: BUILTIN_IDENTITY }), // unsafe: not offered
      verdict({ path: '/files/e.txt', fileName: 'e.txt', sha256: '12'.repeat(32), engine: CLAMAV }), // ClamAV's own
    ]);
    expect(history.basicOnly.count()).toBe(3);
    expect(history.basicOnly.paths(10)).toEqual(['/files/a.txt', '/files/b.txt', '/files/c.txt']);
    expect(history.basicOnly.paths(2)).toHaveLength(2);

    // ClamAV judged b's content since (another path, e.g. a watched copy): b is not offered.
    history.insert(verdict({ path: '/elsewhere/b-copy.txt', sha256: 'cd'.repeat(32), engine: CLAMAV }));
    expect(history.basicOnly.paths(10)).toEqual(['/files/a.txt', '/files/c.txt']);

    expect(history.basicOnly.markRescanRequested(['/files/a.txt'], '2026-11-25T12:00:00.000Z')).toBe(2);
    expect(history.basicOnly.count()).toBe(1);
    expect(history.basicOnly.paths(10)).toEqual(['/files/c.txt']);
    // Verdicts from later scans are offered again if the built-in engine made them.
    history.insert(builtin('a.txt', hex(32)));
    expect(history.basicOnly.count()).toBe(2);
  });

  it('finds them through the partial index, not by reading every row', () => {
    const plan = (sql: string): string => {
      const db = new DatabaseSync(history.file, { readOnly: true });
      try {
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail).join(' | ');
      } finally {
        db.close();
      }
    };
    // The count as history-engine.ts asks it; SQLite refuses a query whose named index cannot serve it.
    const detail = plan(
      `SELECT count(DISTINCT s.path) FROM scans AS s INDEXED BY scans_safe_by_builtin WHERE s.engine_name = 'builtin' AND s.safe = 1 AND s.status = 'completed' AND s.rescan_requested_at IS NULL`,
    );
    expect(detail).toMatch(/USING (COVERING )?INDEX scans_safe_by_builtin/);
    for (let i = 0; i < 3; i++) history.insert(verdict({ path: `/p/${i}`, detailed: BASIC_CLEAN, engine: BUILTIN_IDENTITY }));
    expect(history.basicOnly.count()).toBe(3);
  });
});
