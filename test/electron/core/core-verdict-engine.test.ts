// Every verdict says which engine made it, and verdict reuse follows it (issue 14),
// through the real core and embedded service: the built-in engine, then a real clamd
// whose database knows a file the built-in engine called clean; and ClamAV with dated
// signatures (a scanning stand-in: a real clamd with the tests' own databases reports
// no signature version, and clamd refuses databases built here with sigtool, unsigned).
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { writeCustomSignature } from '../../support/clamav-db.ts';
import { startClamd } from '../../support/clamd.ts';
import { datedVersionLine, startScanningClamdStandIn } from '../../support/clamd-stand-in.ts';
import { FAST, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-engine-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Scans the files and returns their records, in the order given. */
async function scan(core: CoreInternals, paths: string[]): Promise<ScanRecord[]> {
  const submitted = value(await core.submit(paths, { origin: 'drop' }));
  expect(submitted.queued).toBe(paths.length);
  await core.idle();
  const records = await Promise.all(submitted.ids.map(async (id) => value(await core.scans.get(id))));
  return records;
}

async function filesDir(): Promise<string> {
  const dir = join(fixture.dir.path, 'files');
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('reuse across engines', () => {
  test('clean by basic checks, then ClamAV: scanned again and found; unsafe verdicts still reused; "Scan again with ClamAV" sends the rest', async (context) => {
    const clamd = await startClamd();
    if (!clamd) return context.skip();
    fixture.onCleanup(() => clamd.stop());
    const files = await filesDir();
    // A file only ClamAV's database knows (by its MD5), loaded after a restart.
    const known = await writeCustomSignature(clamd.dbDir, files, 'known-to-clamav');
    await clamd.restart();
    const plain = join(files, 'plain.txt');
    await writeFile(plain, 'nothing to see\n');
    const gone = join(files, 'gone.txt');
    await writeFile(gone, 'removed before the rescan\n');
    const eicar = await writeEicar(join(files, 'eicar.com'));

    const builtin = await fixture.open();
    const first = await scan(builtin, [known.file, plain, gone, eicar]);
    expect(first.map((record) => record.safe)).toEqual([true, true, true, false]);
    for (const record of first) expect(record.engine).toEqual({ name: 'builtin', version: null, signatures: null });
    // The built-in engine scans again: its clean verdict is reused.
    await copyFile(plain, join(files, 'plain-copy.txt'));
    const [copy] = await scan(builtin, [join(files, 'plain-copy.txt')]);
    expect(copy?.reusedFromId).toBe(first[1]?.id);
    expect(copy?.engine).toEqual({ name: 'builtin', version: null, signatures: null });
    // ClamAV is not available: nothing to offer.
    expect(value(await builtin.scans.basicOnlyCount()).count).toBe(4);
    expect(await builtin.scans.rescanBasicOnly()).toMatchObject({ ok: false, error: { code: 'clamav_not_available' } });
    await builtin.close();

    const withClamav = await fixture.open(FAST, { localService: { engine: 'clamd', clamdSocket: clamd.socketPath } });
    await copyFile(known.file, join(files, 'known-copy.bin'));
    await copyFile(eicar, join(files, 'eicar-copy.com'));
    const [knownAgain, eicarAgain] = await scan(withClamav, [join(files, 'known-copy.bin'), join(files, 'eicar-copy.com')]);
    // Not the reused "clean (basic checks only)": ClamAV scanned it, and knows it.
    expect(knownAgain).toMatchObject({ status: 'completed', safe: false, reusedFromId: null, findings: [{ name: known.signature }] });
    expect(knownAgain?.engine).toMatchObject({ name: 'clamav', version: expect.stringMatching(/^\d+\.\d+/), signatures: null });
    // An unsafe verdict stands whatever scans now.
    expect(eicarAgain).toMatchObject({ safe: false, reusedFromId: first[3]?.id, engine: { name: 'builtin' } });

    // known.file's content was judged by ClamAV since: not counted. plain, plain-copy and gone are.
    expect(value(await withClamav.scans.basicOnlyCount()).count).toBe(3);
    await rm(gone);
    expect(value(await withClamav.scans.rescanBasicOnly())).toEqual({ queued: 2, missing: 1 });
    await withClamav.idle();
    const again = value(await withClamav.scans.list({ statuses: ['completed'], order: 'newest', limit: 2 })).items;
    expect(again.map((record) => record.path).sort()).toEqual([plain, join(files, 'plain-copy.txt')].sort());
    for (const record of again) expect(record).toMatchObject({ origin: 'rescan', safe: true, reusedFromId: null, detailed: 'clean', engine: { name: 'clamav' } });
    expect(value(await withClamav.scans.basicOnlyCount()).count).toBe(0);
  });
});

describe('reuse across signature versions', () => {
  test('a clean ClamAV verdict stands while the signatures are the same, and not once they changed', async () => {
    const files = await filesDir();
    const old = datedVersionLine(26, 27467);
    const standIn = await startScanningClamdStandIn(join(fixture.dir.path, 'clamd.sock'), old.line);
    fixture.onCleanup(() => standIn.close());
    const content = 'the same bytes each time\n';
    const paths = await Promise.all(['a', 'b', 'c', 'd'].map(async (name) => {
      const path = join(files, `${name}.txt`);
      await writeFile(path, content);
      return path;
    }));
    const options = { localService: { engine: 'clamd' as const, clamdSocket: standIn.socketPath } };

    const first = await fixture.open(FAST, options);
    const [a] = await scan(first, [paths[0] as string]);
    expect(a).toMatchObject({ safe: true, detailed: 'clean', engine: { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: old.date.toISOString() } } });
    const [b] = await scan(first, [paths[1] as string]);
    expect(b).toMatchObject({ reusedFromId: a?.id, engine: a?.engine });
    expect(standIn.scans()).toBe(1);
    await first.close();

    // A signature update (clamd reloaded): the next core's engine answers with the new version.
    const updated = datedVersionLine(2, 27468);
    standIn.setVersion(updated.line);
    const second = await fixture.open(FAST, options);
    const [c] = await scan(second, [paths[2] as string]);
    expect(c).toMatchObject({ safe: true, reusedFromId: null, engine: { signatures: { version: 27468, date: updated.date.toISOString() } } });
    expect(standIn.scans()).toBe(2);
    const [d] = await scan(second, [paths[3] as string]);
    expect(d).toMatchObject({ reusedFromId: c?.id });
    expect(standIn.scans()).toBe(2);
  });
});
