// Recent files judged again after a signature update (issue 27 §1), through the real core,
// Verdict's own clamd and the real history (SQLite). Files are judged clean under database A;
// database B, which knows two of them, is loaded with a RELOAD (as `verdict update` does): the
// recheck job starts by itself and finds exactly the recent one, records a new scan linked to
// the old one, applies the threat response (quarantine) and tells it as a finding. A file
// changed since its scan is not rechecked as the file judged; a job's file whose mtime is outside
// the window is left, though B knows it.
import { execFileSync } from 'node:child_process';
import { appendFile, copyFile, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { ownClamdFiles } from '../../../electron/engine/own-clamd/clamd-config.ts';
import { databasesLoadedAt } from '../../../electron/engine/own-clamd/databases-loaded.ts';
import { reloadAndMark, type ReloadResult } from '../../../electron/engine/own-clamd/reload-and-mark.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { parseClamdConf } from '../../../electron/engine/conf/system-clamd-conf.ts';
import type { RecheckFinding } from '../../../electron/recheck/seen-files.ts';
import { recheckNotice } from '../../../electron/shell/recheck-notice.ts';
import { RACY_WINDOW_MS } from '../../../electron/scans/pipeline/unchanged.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, until } from '../scans/harness.ts';
import { ownClamdDetects } from '../../support/own-clamd-probe.ts';

const fixture = useCoreFixture('verdict-recheck-');
const DAY_MS = 86_400_000;

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Database B: the files' MD5 signatures (as `sigtool --md5 FILE > x.hdb` makes them). */
async function knowFiles(dbDir: string, name: string, files: readonly string[]): Promise<void> {
  const lines = files.map((file) => execFileSync('sigtool', ['--md5', file], { encoding: 'utf8' }).trim());
  await writeFile(join(dbDir, `${name}.hdb`), `${lines.join('\n')}\n`);
}

/** What `verdict update` does after an update: RELOAD, and the mark "clamd has read its folder" once clamd uses it. */
async function reloadOwnClamd(dataDir: string): Promise<ReloadResult> {
  const socketPath = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8')).get('localsocket');
  if (socketPath === undefined) throw new Error('no socket in the own clamd.conf');
  return reloadAndMark(dataDir, { socketPath }, { timeoutMs: 60_000 });
}


async function scanDropped(core: CoreInternals, paths: readonly string[]): Promise<Map<string, ScanRecord>> {
  const submitted = value(await core.submit([...paths], { origin: 'drop' }));
  await core.idle();
  const records = await Promise.all(submitted.ids.map(async (id) => value(await core.scans.get(id))));
  return new Map(records.map((record) => [record.path, record]));
}

describe.skipIf(findClamd() === null)('recheck after a signature update', () => {
  test('database B loaded by RELOAD: the recheck job finds exactly the recent file B knows, links its new scan, quarantines and tells it', async (context) => {
    const dataDir = fixture.dataDir();
    const dbDir = join(dataDir, 'clamav-db');
    await writeEicarDatabase(dbDir); // database A
    const files = join(fixture.dir.path, 'files');
    const oldFolder = join(fixture.dir.path, 'old');
    await mkdir(files, { recursive: true });
    await mkdir(oldFolder, { recursive: true });
    const invoice = join(files, 'invoice.pdf');
    const notes = join(files, 'notes.txt');
    const changed = join(files, 'changed.txt');
    const oldFile = join(oldFolder, 'old-setup.exe');
    const probe = join(fixture.dir.path, 'probe.bin');
    for (const file of [invoice, notes, changed, oldFile, probe]) await writeFile(file, randomBytes(2048));
    // A job's file is recent by its mtime: this one was last changed 30 days ago, outside the 14-day window.
    const monthAgo = new Date(Date.now() - 30 * DAY_MS);
    await utimes(oldFile, monthAgo, monthAgo);
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS));

    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false }, recheck: { settleMs: 0 } }, { localService: { engine: 'auto' } });
    const view = async () => value(await core.protection.status());
    await until(async () => (await view()).status?.engine.source === 'own' && (await view()).status?.engine.databases !== undefined, "Verdict's own clamd with its database digest", 60_000);
    if ((await view()).status?.state === 'failing') return context.skip();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const findings: RecheckFinding[] = [];
    core.recheck.onFinding((finding) => findings.push(finding));

    const first = await scanDropped(core, [invoice, notes, changed]);
    for (const record of first.values()) expect(record, record.path).toMatchObject({ status: 'completed', safe: true });
    const oldJob = await core.jobs.start({ kind: 'custom', roots: [oldFolder] });
    expect(await core.jobs.finished(oldJob.id)).toMatchObject({ status: 'completed', counts: { scanned: 1, threats: 0 } });
    await core.recheck.idle();
    // Nothing to recheck under the signatures that judged them.
    expect(core.recheck.selected()).toBe(0);

    // Changed since its scan: B knows its new content, so a recheck of it as the file judged would find it.
    await appendFile(changed, 'more');
    await knowFiles(dbDir, 'database-b', [invoice, oldFile, changed, probe]);
    const keyA = (await view()).status?.engine.databases;
    await reloadOwnClamd(dataDir);
    await until(() => ownClamdDetects(dataDir, probe), 'clamd to load database B');
    value(await core.protection.refresh());
    await until(async () => (await view()).status?.engine.databases !== keyA, 'the new signature identity');

    await until(() => core.jobs.list().some((job) => job.kind === 'recheck' && job.status === 'completed'), 'the recheck job to end', 60_000);
    await core.threatsSettled();
    await core.recheck.idle();
    const rechecks = core.jobs.list().filter((job) => job.kind === 'recheck');
    expect(rechecks).toHaveLength(1);
    // One job row with its counts: invoice.pdf and notes.txt (changed.txt is not the file judged; old-setup.exe is outside the window).
    expect(rechecks[0]).toMatchObject({ origin: 'schedule', status: 'completed', counts: { found: 2, scanned: 2, threats: 1, couldNotScan: 0 } });

    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding?.record).toMatchObject({ path: invoice, status: 'completed', safe: false, jobId: rechecks[0]?.id, disposition: 'quarantined' });
    expect(finding?.previousId).toBe(first.get(invoice)?.id);
    // The new scan is linked to the one that judged the file clean; that one stays as it was (what was known when).
    expect(core.recheck.linkOf(finding!.record.id)).toMatchObject({ recheckedFromId: first.get(invoice)?.id });
    expect(value(await core.scans.get(first.get(invoice)!.id))).toMatchObject({ safe: true, status: 'completed' });
    // Notified as the most important notice, in both languages.
    const notice = recheckNotice(finding!, 'en', Date.now() + 3 * DAY_MS);
    expect(notice).toMatchObject({ kind: 'threat', scanId: finding?.record.id, title: 'invoice.pdf, first seen 3 days ago, is now detected as invoice.pdf.UNOFFICIAL' });
    expect(notice?.title).toMatch(/^invoice\.pdf, first seen 3 days ago, is now detected as /);
    expect(notice?.body).toMatch(/quarantine/);
    expect(recheckNotice(finding!, 'de', Date.now())?.title).toMatch(/^invoice\.pdf, heute zuerst gesehen, wird jetzt als .+ erkannt$/);

    // Nothing is left to recheck, and a second change of nothing starts nothing.
    expect(core.recheck.selected()).toBe(0);
    expect(await core.recheck.start('cli')).toEqual({ job: null, why: 'nothing_to_recheck' });
  }, 120_000);

  test('the quarantine judged again: an entry the new signatures no longer detect says so and waits for Restore (never restored by itself)', async (context) => {
    const dataDir = fixture.dataDir();
    const dbDir = join(dataDir, 'clamav-db');
    await writeEicarDatabase(dbDir);
    const fp = join(fixture.dir.path, 'report.docx');
    const probe = join(fixture.dir.path, 'probe.docx');
    await writeFile(fp, randomBytes(2048));
    await copyFile(fp, probe);
    // Database A flags report.docx (a false positive); database B, after the vendor's fix, does not.
    await knowFiles(dbDir, 'false-positive', [fp]);

    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false }, recheck: { settleMs: 0 } }, { localService: { engine: 'auto' } });
    const view = async () => value(await core.protection.status());
    await until(async () => (await view()).status?.engine.source === 'own' && (await view()).status?.engine.databases !== undefined, "Verdict's own clamd with its database digest", 60_000);
    if ((await view()).status?.state === 'failing') return context.skip();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const [record] = (await scanDropped(core, [fp])).values();
    await core.threatsSettled();
    expect(value(await core.scans.get(record!.id))).toMatchObject({ safe: false, disposition: 'quarantined' });
    expect(existsSync(fp)).toBe(false);
    const [entry] = value(await core.quarantine.list());
    expect(entry).toMatchObject({ originalPath: fp, state: 'quarantined' });

    // A database clamd cannot load: the reload fails, clamd keeps the old databases, and the mark stays where it was.
    const markBefore = databasesLoadedAt(dataDir);
    await writeFile(join(dbDir, 'broken.ndb'), 'not a signature line\n');
    expect(await reloadOwnClamd(dataDir)).toBe('failed');
    expect(databasesLoadedAt(dataDir)).toBe(markBefore);
    expect(ownClamdDetects(dataDir, probe)).toBe(true);
    await rm(join(dbDir, 'broken.ndb'));

    await rm(join(dbDir, 'false-positive.hdb'));
    const sentAt = Date.now();
    expect(await reloadOwnClamd(dataDir)).toBe('loaded');
    // Marked only once clamd uses database B, as of when RELOAD was sent (B was read after it).
    expect(ownClamdDetects(dataDir, probe)).toBe(false);
    expect(databasesLoadedAt(dataDir)).toBeGreaterThanOrEqual(sentAt - 1);
    expect(databasesLoadedAt(dataDir)).toBeLessThanOrEqual(Date.now());
    value(await core.protection.refresh());
    await until(() => core.recheck.quarantine.noLongerDetected().length === 1, 'the quarantine to be judged again', 30_000);
    const [missed] = core.recheck.quarantine.noLongerDetected();
    expect(missed?.entry.id).toBe(entry?.id);
    expect(missed?.judgement).toMatchObject({ detected: false, names: [] });
    // The window reads it with the entry (its detail says so beside Restore).
    expect(value(await core.quarantine.forRecord(record!.id))).toMatchObject({ id: entry?.id, noLongerDetectedAt: expect.any(String) });
    expect(value(await core.quarantine.list())[0]?.noLongerDetectedAt).toEqual(expect.any(String));
    // Said, never done by itself: the file is still in quarantine until the user restores it.
    expect(existsSync(fp)).toBe(false);
    expect(value(await core.quarantine.restore(entry!.id))).toMatchObject({ state: 'restored', restoredTo: fp });
    expect(existsSync(fp)).toBe(true);
    expect(core.recheck.quarantine.noLongerDetected()).toEqual([]);
  }, 120_000);
});
