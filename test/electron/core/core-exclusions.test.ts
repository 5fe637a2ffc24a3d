// Exclusions and the automatic size limit through the real core: excluded
// files are listed as `skipped` with the reason (never sent, never silently
// dropped), in manual scans (global rules) and in watched folders (global +
// the folder's own rules + size limit); "scan again" scans a skipped file anyway.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOf, type ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { FAST, until, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, open } = useCoreFixture('verdict-core-exclusions-');

async function folder(name: string): Promise<string> {
  const path = join(dir.path, name);
  await mkdir(path, { recursive: true });
  return path;
}

async function write(path: string, content: string | Buffer = `content of ${path}\n`): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  return path;
}

async function all(core: CoreInternals): Promise<ScanRecord[]> {
  const page = await core.scans.list({ limit: 1000, order: 'oldest' });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.items;
}

const byName = (records: ScanRecord[], name: string) => records.find((record) => record.fileName === name);

describe('exclusions in manual scans', () => {
  it('lists excluded files as skipped with the rule that matched; the rest is scanned; nothing excluded is sent', async () => {
    const core = await open();
    const root = await folder('drop');
    const saved = await core.settings.update({
      exclusions: { paths: [join(root, 'Private')], globs: ['node_modules', '*.iso'], extensions: ['vmdk'] },
      // The size limit is for automatic scans only: a manual scan of a large file goes ahead.
      maxAutoScanSize: 10,
    });
    expect(saved.ok).toBe(true);
    await write(join(root, 'Private', 'diary.txt'));
    await write(join(root, 'PrivateNotes', 'shared.txt'));
    await write(join(root, 'project', 'node_modules', 'lib', 'index.js'));
    await write(join(root, 'image.iso'));
    await write(join(root, 'disk.VMDK'));
    await write(join(root, 'report.txt'), 'a report that is longer than ten bytes\n');
    await writeEicar(join(root, 'eicar.com'));

    const submitted = await core.scans.submit([root]);
    expect(submitted).toMatchObject({ ok: true, value: { queued: 3, skipped: 4, failed: 0 } });
    await core.idle();
    const records = await all(core);
    expect(records).toHaveLength(7);
    const skipped = (name: string) => {
      const record = byName(records, name);
      expect(record, name).toMatchObject({ status: 'skipped', safe: null, serviceScanId: null, submittedAt: null });
      expect(verdictOf(record!)).toBe('skipped');
      return record!.error;
    };
    // An excluded folder is one record (it is not walked), not one per file in it.
    // The English sentence for the CLI, and what the UI words it from in its own language (stored with the record).
    expect(skipped('Private')).toEqual({
      code: 'excluded_path',
      message: `Not scanned: ${join(root, 'Private')} is excluded in the global exclusions; nothing in this folder was looked at.`,
      params: { scope: 'global', target: 'folder', rule: join(root, 'Private') },
    });
    expect(skipped('node_modules')).toEqual({
      code: 'excluded_glob',
      message: 'Not scanned: the folder matches the pattern "node_modules" in the global exclusions; nothing in it was looked at.',
      params: { scope: 'global', target: 'folder', rule: 'node_modules' },
    });
    expect(skipped('image.iso')).toMatchObject({ code: 'excluded_glob', params: { scope: 'global', target: 'file', rule: '*.iso' } });
    expect(skipped('disk.VMDK')).toEqual({
      code: 'excluded_extension',
      message: 'Not scanned: files ending in .vmdk are excluded in the global exclusions.',
      params: { scope: 'global', target: 'file', rule: 'vmdk' },
    });
    // A sibling sharing the prefix is not excluded; a manual scan is not limited by the automatic size limit.
    expect(byName(records, 'shared.txt')).toMatchObject({ status: 'completed', safe: true });
    expect(byName(records, 'report.txt')).toMatchObject({ status: 'completed', safe: true });
    expect(byName(records, 'eicar.com')).toMatchObject({ status: 'completed', safe: false });
  });

  it('"scan again" on a skipped file scans it anyway', async () => {
    const core = await open();
    const root = await folder('drop');
    expect((await core.settings.update({ exclusions: { paths: [], globs: [], extensions: ['exe'] } })).ok).toBe(true);
    const eicar = await writeEicar(join(root, 'tool.exe'));
    expect(await core.scans.submit([eicar])).toMatchObject({ ok: true, value: { queued: 0, skipped: 1 } });
    await core.idle();
    const [skipped] = await all(core);
    expect(skipped).toMatchObject({ status: 'skipped', error: { code: 'excluded_extension' } });
    expect(await core.scans.rescan(skipped!.id)).toMatchObject({ ok: true, value: { queued: 1 } });
    await core.idle();
    const records = await all(core);
    expect(records[1]).toMatchObject({ origin: 'rescan', status: 'completed', safe: false });
  });

  it('a folder rule applies to its watched folder only, not to a manual scan of the same file', async () => {
    const core = await open();
    const watched = await folder('watched');
    const added = await core.watch.add({ path: watched, exclusions: { paths: [], globs: [], extensions: ['log'] } });
    expect(added.ok).toBe(true);
    const file = await write(join(watched, 'app.log'));
    await core.submit([file], { origin: 'watch' });
    await core.submit([file], { origin: 'drop' });
    await core.idle();
    const [automatic, manual] = await all(core);
    expect(automatic).toMatchObject({ origin: 'watch', status: 'skipped', error: { code: 'excluded_extension', message: "Not scanned: files ending in .log are excluded in this watched folder's exclusions." } });
    expect(manual).toMatchObject({ origin: 'drop', status: 'completed', safe: true });
  });
});

describe('exclusions in watched folders', () => {
  it('skips, with the reason, files the watcher finds that the global or folder rules exclude or that are over the size limit', async () => {
    const core = await open({ ...FAST, watch: true, watchSettleMs: 100 });
    const watched = await folder('Downloads');
    expect((await core.settings.update({ exclusions: { paths: [], globs: ['*.bak'], extensions: [] }, maxAutoScanSize: 1000 })).ok).toBe(true);
    const added = await core.watch.add({ path: watched, exclusions: { paths: ['cache'], globs: [], extensions: ['iso'] }, maxAutoScanSize: null });
    if (!added.ok) throw new Error(added.error.message);
    await until(async () => {
      const list = await core.watch.list();
      return list.ok && list.value[0]?.state === 'watching';
    }, 'the folder to be watched');

    await write(join(watched, 'movie.bak'));
    await write(join(watched, 'cache', 'thumb.png'));
    await write(join(watched, 'ubuntu.iso'));
    await write(join(watched, 'big.bin'), Buffer.alloc(2000, 1));
    await write(join(watched, 'invoice.pdf'), '%PDF-1.4 small');
    await writeEicar(join(watched, 'dropper.exe'));

    await until(async () => {
      const records = await all(core);
      return records.length >= 6 && records.every((record) => ['completed', 'skipped', 'failed'].includes(record.status));
    }, 'six finished records');
    const records = await all(core);
    expect(records.every((record) => record.origin === 'watch')).toBe(true);
    expect(byName(records, 'movie.bak')).toMatchObject({ status: 'skipped', error: { code: 'excluded_glob' } });
    // The excluded folder is not watched: it is listed once as it appears, not the files in it.
    expect(byName(records, 'cache')).toMatchObject({ status: 'skipped', error: { code: 'excluded_path', params: { scope: 'folder', target: 'folder', rule: 'cache' } } });
    expect(byName(records, 'ubuntu.iso')).toMatchObject({ status: 'skipped', error: { code: 'excluded_extension', params: { scope: 'folder', target: 'file', rule: 'iso' } } });
    expect(byName(records, 'big.bin')).toMatchObject({
      status: 'skipped',
      size: 2000,
      error: { code: 'over_auto_scan_size', message: expect.stringContaining('limit for automatic scans in the settings'), params: { scope: 'global', target: 'file', limit: 1000, size: 2000 } },
    });
    expect(byName(records, 'invoice.pdf')).toMatchObject({ status: 'completed', safe: true });
    expect(byName(records, 'dropper.exe')).toMatchObject({ status: 'completed', safe: false });

    // The folder's own limit overrides the global one.
    const id = added.value[0]!.folder.id;
    expect((await core.watch.update(id, { maxAutoScanSize: 5000 })).ok).toBe(true);
    await write(join(watched, 'big2.bin'), Buffer.alloc(2000, 2));
    await until(async () => byName(await all(core), 'big2.bin')?.status === 'completed', 'big2.bin to be scanned under the folder limit');
  });
});
