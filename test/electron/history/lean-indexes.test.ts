// Migration 6 (issue 16): md5 and sha1 indexed by a 12-character prefix, the status index
// without file names. A database at schema 4 (without 5, written on another branch) moves
// to the latest version, digest searches find exactly what they found before (a prefix
// shorter, as long as and longer than the indexed part; a row sharing only the indexed
// part is not found), the plan uses the new indexes, and they take fewer bytes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { DIGEST_PREFIX_CHARS, LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../electron/history/migrations.ts';
import { RECORD_COLUMNS, recordToRow } from '../../../electron/history/row-mapping.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { makeRecord } from './fixtures/records.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-history-lean-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const FILE = 'v4.sqlite';

/** A history at schema 4 holding `records`, written as schema 4 wrote them. */
function schema4With(records: readonly ScanRecord[]): void {
  const db = new DatabaseSync(path.join(dataDir, FILE));
  try {
    migrate(db, MIGRATIONS.filter((migration) => migration.version <= 4));
    // Schema 4 has no engine columns (migration 5): only the columns it has.
    const known = new Set((db.prepare('PRAGMA table_info(scans)').all() as Array<{ name: string }>).map((column) => column.name));
    const columns = RECORD_COLUMNS.filter((column) => known.has(column));
    const insert = db.prepare(`INSERT INTO scans (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    db.exec('BEGIN');
    for (const record of records) {
      const row = recordToRow(record);
      insert.run(...columns.map((column) => row[column] ?? null));
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

function indexBytes(db: DatabaseSync, names: readonly string[]): number {
  const rows = db.prepare(`SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as Array<{ name: string; bytes: number }>;
  return rows.filter((row) => names.includes(row.name)).reduce((sum, row) => sum + Number(row.bytes), 0);
}

const clean = (i: number, overrides: Partial<ScanRecord> = {}): ScanRecord =>
  makeRecord({
    fileName: `file-${i}.txt`,
    status: 'completed',
    safe: true,
    detailed: 'clean',
    completedAt: '2026-02-01T00:00:00.000Z',
    md5: hex(16),
    sha1: hex(20),
    sha256: hex(32),
    queuedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    ...overrides,
  });

describe('migration 6 (leaner indexes)', () => {
  it('moves a schema 4 database to the latest version, with the prefix indexes in place of the full ones', () => {
    schema4With([clean(0)]);
    const history = openHistory(dataDir, { fileName: FILE });
    history.close();
    const db = new DatabaseSync(path.join(dataDir, FILE), { readOnly: true });
    try {
      expect(userVersion(db)).toBe(LATEST_VERSION);
      const indexes = (db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'scans'`).all() as Array<{ name: string; sql: string | null }>).map(
        (row) => [row.name, row.sql],
      );
      const byName = new Map(indexes as Array<[string, string | null]>);
      expect(byName.has('scans_by_md5')).toBe(false);
      expect(byName.has('scans_by_sha1')).toBe(false);
      expect(byName.get('scans_by_md5_prefix')).toContain(`substr(md5, 1, ${DIGEST_PREFIX_CHARS})`);
      expect(byName.get('scans_by_sha1_prefix')).toContain(`substr(sha1, 1, ${DIGEST_PREFIX_CHARS})`);
      expect(byName.get('scans_by_status')).not.toContain('file_name');
    } finally {
      db.close();
    }
  });

  it('finds by md5 and sha1 exactly what a full index found, through the prefix indexes', () => {
    const target = clean(1);
    // Shares the indexed part of both digests, differs after it.
    const twin = clean(2, {
      md5: `${target.md5!.slice(0, DIGEST_PREFIX_CHARS)}${'0'.repeat(32 - DIGEST_PREFIX_CHARS)}`,
      sha1: `${target.sha1!.slice(0, DIGEST_PREFIX_CHARS)}${'0'.repeat(40 - DIGEST_PREFIX_CHARS)}`,
    });
    const others = Array.from({ length: 50 }, (_, i) => clean(10 + i));
    schema4With([target, twin, ...others]);
    const history = openHistory(dataDir, { fileName: FILE });
    try {
      const found = (search: string) => history.query({ search, limit: 100 }).items.map((record) => record.id).sort();
      const both = [target.id, twin.id].sort();
      for (const digest of ['md5', 'sha1'] as const) {
        const value = target[digest]!;
        expect(found(value.slice(0, 5)), `${digest}: shorter than the indexed part`).toEqual(both);
        expect(found(value.slice(0, DIGEST_PREFIX_CHARS)), `${digest}: the indexed part`).toEqual(both);
        expect(found(value.slice(0, DIGEST_PREFIX_CHARS + 4)), `${digest}: longer`).toEqual([target.id]);
        expect(found(value.toUpperCase()), `${digest}: whole, any case`).toEqual([target.id]);
        expect(found(twin[digest]!), `${digest}: the twin's whole digest`).toEqual([twin.id]);
      }
      const db = new DatabaseSync(path.join(dataDir, FILE), { readOnly: true });
      try {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN SELECT seq FROM scans WHERE substr(md5, 1, ${DIGEST_PREFIX_CHARS}) >= ? AND substr(md5, 1, ${DIGEST_PREFIX_CHARS}) < ?`).all('ab', 'abg') as Array<{
            detail: string;
          }>
        )
          .map((row) => row.detail)
          .join('; ');
        expect(plan).toContain('scans_by_md5_prefix');
      } finally {
        db.close();
      }
    } finally {
      history.close();
    }
  });

  it('takes fewer bytes: the digest and status indexes of 3,000 rows shrink by a third or more', () => {
    schema4With(Array.from({ length: 3_000 }, (_, i) => clean(i)));
    const file = path.join(dataDir, FILE);
    const before = (() => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return indexBytes(db, ['scans_by_md5', 'scans_by_sha1', 'scans_by_status']);
      } finally {
        db.close();
      }
    })();
    openHistory(dataDir, { fileName: FILE }).close();
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const after = indexBytes(db, ['scans_by_md5_prefix', 'scans_by_sha1_prefix', 'scans_by_status']);
      expect(before).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThanOrEqual(before * (2 / 3));
    } finally {
      db.close();
    }
  });
});
