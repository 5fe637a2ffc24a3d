// A recheck's finding for a file a scan job judged clean, after that job's clean rows moved into
// the compact store (job_clean_files: no `scans` row left): the new scan is still linked to the
// earlier verdict, and the link still says when that verdict was given (what was known when); an
// unchanged rescan in between leaves that link as it was.
// Real core, Verdict's own clamd (database A, then B by RELOAD) and the real SQLite history.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test } from 'vitest';
import { ownClamdFiles } from '../../../electron/engine/own-clamd/clamd-config.ts';
import { reloadAndMark } from '../../../electron/engine/own-clamd/reload-and-mark.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { parseClamdConf } from '../../../electron/engine/conf/system-clamd-conf.ts';
import { COMPACT_ID_PREFIX } from '../../../electron/history/job-files/compact-sql.ts';
import type { RecheckFinding } from '../../../electron/recheck/seen-files.ts';
import { RACY_WINDOW_MS } from '../../../electron/scans/pipeline/unchanged.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, until } from '../scans/harness.ts';
import { ownClamdDetects } from '../../support/own-clamd-probe.ts';

const fixture = useCoreFixture('verdict-recheck-compact-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}


describe.skipIf(findClamd() === null)('recheck of a compacted job file', () => {
  test.for([
    { rescan: false, what: "the finding links to the job's compact row and keeps the earlier verdict's date" },
    // The unchanged rescan's rows reuse that verdict: the sighting stays the scan that read the file, written once.
    { rescan: true, what: 'after an unchanged rescan, the finding still links to the scan that read the file' },
  ])('$what', { timeout: 120_000 }, async ({ rescan }, context) => {
    const dataDir = fixture.dataDir();
    const dbDir = join(dataDir, 'clamav-db');
    await writeEicarDatabase(dbDir);
    const folder = join(fixture.dir.path, 'downloads');
    await mkdir(folder, { recursive: true });
    const names = ['invoice.pdf', 'a.txt', 'b.txt', 'c.txt'];
    for (const name of names) await writeFile(join(folder, name), randomBytes(2048));
    const invoice = join(folder, 'invoice.pdf');
    const probe = join(fixture.dir.path, 'probe.bin');
    await writeFile(probe, readFileSync(invoice));
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS));

    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false }, recheck: { settleMs: 0 } }, { localService: { engine: 'auto' } });
    const view = async () => value(await core.protection.status());
    await until(async () => (await view()).status?.engine.source === 'own' && (await view()).status?.engine.databases !== undefined, "Verdict's own clamd with its database digest", 60_000);
    if ((await view()).status?.state === 'failing') return context.skip();
    const findings: RecheckFinding[] = [];
    core.recheck.onFinding((finding) => findings.push(finding));

    const job = await core.jobs.start({ kind: 'custom', roots: [folder] });
    expect(await core.jobs.finished(job.id)).toMatchObject({ status: 'completed', counts: { scanned: names.length, threats: 0 } });
    await core.recheck.idle();
    await core.jobs.compacted(job.id);
    // The job's clean files live in the compact store now: no full row to link to.
    const page = value(await core.scans.list({ job: job.id, limit: 10 }));
    const earlier = page.items.find((record) => record.path === invoice);
    expect(earlier?.id.startsWith(COMPACT_ID_PREFIX)).toBe(true);
    expect(earlier?.completedAt).toEqual(expect.any(String));
    // The memories name the file's scan by the id it has now (its verdict moved it into the compact store).
    expect(unchangedEntryOf(dataDir, invoice)).toEqual({ record_id: earlier?.id });
    if (rescan) {
      const sighting = () => sightingOf(dataDir, invoice);
      expect(sighting()).toEqual({ record_id: earlier?.id });
      const again = await core.jobs.start({ kind: 'custom', roots: [folder] });
      await core.jobs.finished(again.id);
      await core.recheck.idle();
      await core.jobs.compacted(again.id);
      const reused = value(await core.scans.list({ job: again.id, limit: 10 })).items.find((record) => record.path === invoice);
      expect(reused).toMatchObject({ reuseKind: 'unchanged', safe: true });
      expect(sighting()).toEqual({ record_id: earlier?.id });
    }

    await writeFile(join(dbDir, 'database-b.hdb'), `${execFileSync('sigtool', ['--md5', invoice], { encoding: 'utf8' }).trim()}\n`);
    const keyA = (await view()).status?.engine.databases;
    const socketPath = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8')).get('localsocket')!;
    expect(await reloadAndMark(dataDir, { socketPath }, { timeoutMs: 60_000 })).toBe('loaded');
    await until(() => ownClamdDetects(dataDir, probe), 'clamd to load database B');
    value(await core.protection.refresh());
    await until(async () => (await view()).status?.engine.databases !== keyA, 'the new signature identity');
    await until(() => findings.length === 1, 'the recheck to find invoice.pdf', 60_000);
    await core.recheck.idle();

    const [finding] = findings;
    expect(finding?.previousId).toBe(earlier?.id);
    // The detail panel and `verdict recheck --json` read the record with its link.
    const now = value(await core.scans.get(finding!.record.id));
    expect(now.recheckOf).toEqual({ id: earlier?.id, externalReferenceId: earlier?.externalReferenceId ?? null, completedAt: earlier?.completedAt });
    expect(value(await core.scans.get(earlier!.id))).toMatchObject({ safe: true, completedAt: earlier?.completedAt });
  });
});

/** The unchanged-file memory's entry for a file (by its device and inode), read from the history file as another process would. */
function unchangedEntryOf(dataDir: string, path: string): unknown {
  const { dev, ino } = statSync(path, { bigint: true });
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT record_id FROM unchanged_files WHERE dev = ? AND ino = ?').get(String(dev), String(ino));
  } finally {
    db.close();
  }
}

/** The recheck's memory of a file, read from the history file as another process would. */
function sightingOf(dataDir: string, path: string): unknown {
  const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT record_id FROM recheck_files WHERE path = ?').get(path);
  } finally {
    db.close();
  }
}
