// Migration 17: a history written before it, holding a file scanned in part, a threat and a clean
// file, reads the file scanned in part as 'partial' afterwards (never 'unsafe'), the others as before,
// and the verdict's indexes are back.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, migrate, MIGRATIONS, userVersion } from '../../../electron/history/migrations.ts';
import { SCANNED_IN_PART_LABEL } from '../../../shared/scans/coverage.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migration 17 (the verdict of a file scanned in part)', () => {
  it("reads rows written before it as verdictOf() does: 'partial', 'unsafe', 'safe'", () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-partial-verdict-'));
    dirs.push(dir);
    const db = new DatabaseSync(join(dir, 'history.sqlite'));
    try {
      migrate(db, MIGRATIONS.filter((migration) => migration.version < 17));
      const insert = db.prepare(
        "INSERT INTO scans (id, path, file_name, origin, backend, external_reference_id, status, safe, detailed, queued_at) VALUES (?, ?, ?, 'drop', 'local', ?, 'completed', ?, ?, '2026-11-28T00:00:00.000Z')",
      );
      insert.run('part', '/a/big.iso', 'big.iso', 'ref-part', 0, SCANNED_IN_PART_LABEL);
      insert.run('threat', '/a/eicar.com', 'eicar.com', 'ref-threat', 0, 'infected');
      insert.run('clean', '/a/notes.txt', 'notes.txt', 'ref-clean', 1, 'clean');
      const before = db.prepare("SELECT verdict FROM scans WHERE id = 'part'").get() as { verdict: string };
      expect(before.verdict).toBe('unsafe');

      expect(migrate(db)).toContain(17);
      expect(userVersion(db)).toBe(LATEST_VERSION);
      const verdicts = Object.fromEntries((db.prepare('SELECT id, verdict FROM scans').all() as Array<{ id: string; verdict: string }>).map((row) => [row.id, row.verdict]));
      expect(verdicts).toEqual({ part: 'partial', threat: 'unsafe', clean: 'safe' });
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('scans_by_verdict', 'scans_job_not_clean')").all() as Array<{ name: string }>).map((row) => row.name).sort();
      expect(indexes).toEqual(['scans_by_verdict', 'scans_job_not_clean']);
    } finally {
      db.close();
    }
  });
});
