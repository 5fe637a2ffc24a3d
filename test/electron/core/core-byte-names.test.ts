// Names that are not UTF-8 through the real core: a watched folder's EICAR file named
// evil\xfe.com is judged, quarantined by its exact bytes and restored under them; the scan is
// run again by its row; and a dropped path broken by a lossy decoding reaches the file meant.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { bytesOf, byteNamePath, rawPath, writeByteName } from '../../support/byte-names.ts';
import { EICAR_TEST_STRING, FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, open } = useCoreFixture('verdict-core-bytes-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const namesIn = (folder: string) => readdirSync(rawPath(folder), { encoding: 'buffer' }).map((name) => name.toString('hex'));

async function recordOf(core: CoreInternals, path: string, origin: ScanRecord['origin']): Promise<ScanRecord> {
  let found: ScanRecord | undefined;
  await until(async () => {
    found = value(await core.scans.list({ statuses: ['completed'], limit: 100 })).items.find((record) => record.path === path && record.origin === origin);
    return found !== undefined;
  }, `the ${origin} scan of ${path}`);
  await core.threatsSettled();
  return value(await core.scans.get(found!.id));
}

describe('the core and names that are not UTF-8', () => {
  it('quarantines a watched EICAR file by its exact name, restores it under that name, and scans it again by its row', async () => {
    const core = await open({ ...FAST, watch: true, watchSettleMs: 100 });
    const watched = join(dir.path, 'watched');
    await mkdir(watched);
    value(await core.watch.add({ path: watched, threatAction: 'quarantine' }));
    await until(async () => value(await core.watch.list()).every((status) => status.state === 'watching'), 'the folder to be watched');

    const staging = join(dir.path, 'staging');
    await mkdir(staging);
    writeFileSync(join(staging, 'draft'), EICAR_TEST_STRING);
    const evil = byteNamePath(watched, bytesOf('evil\xfe.com'));
    renameSync(join(staging, 'draft'), rawPath(evil));

    const record = await recordOf(core, evil, 'watch');
    expect(record).toMatchObject({ safe: false, disposition: 'quarantined', fileName: 'evil\uDCFE.com' });
    expect(namesIn(watched)).toEqual([]);
    const entry = value(await core.quarantine.forRecord(record.id))!;
    expect(entry).toMatchObject({ originalPath: evil, state: 'quarantined' });

    value(await core.quarantine.restore(entry.id));
    expect(namesIn(watched)).toEqual([bytesOf('evil\xfe.com').toString('hex')]);
    expect(readFileSync(rawPath(evil), 'utf8')).toBe(EICAR_TEST_STRING);

    // Scanned again from its row (the list's "Scan again"): the same file, by its exact name.
    value(await core.settings.update({ threatAction: 'notify' }));
    expect(value(await core.scans.rescan(record.id))).toEqual({ queued: 1 });
    const again = await recordOf(core, evil, 'rescan');
    expect(again).toMatchObject({ path: evil, safe: false });
  });

  it('scans the file meant by a dropped path that a lossy decoding broke', async () => {
    const core = await open();
    const file = writeByteName(join(dir.path, 'drop'), bytesOf('doc\xe9.txt'), 'clean words');
    const submitted = value(await core.submit([join(dir.path, 'drop', 'doc\uFFFD.txt')], { origin: 'drop' }));
    const record = await recordOf(core, file, 'drop');
    expect(submitted.ids).toEqual([record.id]);
    expect(record).toMatchObject({ path: file, safe: true, size: 'clean words'.length });
  });
});
