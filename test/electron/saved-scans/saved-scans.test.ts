// Saved scans through the real core (issue 29 §3): a custom scan saved under a name runs
// as a custom job with its folders, the folders it leaves out and its options; it survives
// a restart (saved-scans.json); export writes the file an import reads back into another
// data directory; an import with problems names each one and changes nothing.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCoreFixture } from '../core/core-fixture.ts';
import { jobRows } from '../jobs/job-kit.ts';
import { FAST, writeEicar } from '../scans/harness.ts';

const { dir, open, dataDir } = useCoreFixture('verdict-saved-scans-');

async function tree(root: string): Promise<void> {
  await mkdir(join(root, 'keep'), { recursive: true });
  await mkdir(join(root, 'cache'), { recursive: true });
  await writeFile(join(root, 'keep', 'a.txt'), 'a\n');
  await writeFile(join(root, 'keep', 'b.txt'), 'b\n');
  await writeEicar(join(root, 'keep', 'eicar.com'));
  await writeEicar(join(root, 'cache', 'left-out.com'));
}

describe('saved scans', () => {
  it('runs a saved scan as a custom job with its folders, exclusions and options, and keeps it across a restart', async () => {
    const root = join(dir.path, 'photos');
    await tree(root);
    const core = await open(FAST);
    const saved = await core.savedScanStore.save({ name: '  Photos ', folders: [root], excluded: [join(root, 'cache')], force: true });
    expect(saved).toMatchObject({ ok: true, value: [{ name: 'Photos', folders: [root], excluded: [join(root, 'cache')], force: true, basicOnly: false, mode: 'auto' }] });

    const started = await core.savedScanStore.run('photos');
    if (!started.ok) throw new Error(started.error.message);
    const job = await core.jobs.finished(started.value.id);
    expect(job).toMatchObject({ kind: 'custom', status: 'completed', roots: [root] });
    expect(job?.excluded).toContain(join(root, 'cache'));
    expect(job?.counts).toMatchObject({ scanned: 3, threats: 1, skipped: 1 });
    // Named after the saved scan, and its left-out folder's row says whose settings left it out.
    expect(job?.savedScan).toEqual({ name: 'Photos', excluded: [join(root, 'cache')] });
    expect(core.jobs.get(started.value.id)?.savedScan?.name).toBe('Photos');
    const skippedRow = [...core.jobs.finishedRecords(started.value.id)].find((record) => record.status === 'skipped');
    expect(skippedRow?.error).toMatchObject({ code: 'excluded_path', params: { scope: 'saved', name: 'Photos', rule: join(root, 'cache') } });
    expect(skippedRow?.error?.message).toContain('the settings of the saved scan “Photos”');
    expect(skippedRow?.error?.message).not.toContain('default');
    const rows = jobRows(dataDir(), started.value.id);
    expect(rows.find((row) => row.path.endsWith('left-out.com'))).toBeUndefined();
    expect(rows.find((row) => row.path.endsWith('eicar.com'))).toMatchObject({ verdict: 'unsafe' });
    expect(await core.savedScanStore.run('nope')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await core.close();

    const again = await open(FAST);
    expect(again.savedScanStore.list().map((scan) => scan.name)).toEqual(['Photos']);
    // The job keeps its name in the history.
    expect(again.jobs.get(started.value.id)?.savedScan).toEqual({ name: 'Photos', excluded: [join(root, 'cache')] });
    expect(await again.savedScanStore.remove('PHOTOS')).toEqual({ ok: true, value: [] });
    expect(JSON.parse(await readFile(join(dataDir(), 'saved-scans.json'), 'utf8'))).toEqual({ verdict: 'saved-scans', version: 1, scans: [] });
  });

  it('refuses a scan it could not run, saying what is wrong', async () => {
    const core = await open(FAST);
    const refused = await core.savedScanStore.save({ name: '\u202eevil', folders: ['relative/path'] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_saved_scan' } });
    if (!refused.ok) {
      expect(refused.error.message).toContain('name: no control or direction characters');
      expect(refused.error.message).toContain('folders.0: an absolute path');
    }
    expect(core.savedScanStore.list()).toEqual([]);
  });

  it('exports to a file another data directory imports; a bad import names each problem and changes nothing', async () => {
    const core = await open(FAST);
    await core.savedScanStore.save({ name: 'Downloads', folders: ['/home/u/Downloads'], mode: 'async', basicOnly: true });
    await core.savedScanStore.save({ name: 'USB', folders: ['/media/u/STICK'], excluded: ['/media/u/STICK/.Trash-1000'] });
    const file = join(dir.path, 'export.json');
    expect(await core.savedScanStore.exportTo(file)).toEqual({ ok: true, value: { count: 2 } });
    await core.close();

    const other = await open(FAST, { dataDir: join(dir.path, 'other') });
    await other.savedScanStore.save({ name: 'usb', folders: ['/old'] });
    expect(await other.savedScanStore.importFrom(file)).toEqual({ ok: true, value: { added: 1, replaced: 1 } });
    expect(other.savedScanStore.list()).toEqual([
      { name: 'Downloads', folders: ['/home/u/Downloads'], excluded: [], basicOnly: true, force: false, mode: 'async', schedule: { repeat: 'off' } },
      { name: 'USB', folders: ['/media/u/STICK'], excluded: ['/media/u/STICK/.Trash-1000'], basicOnly: false, force: false, mode: 'auto', schedule: { repeat: 'off' } },
    ]);

    const bad = join(dir.path, 'bad.json');
    await writeFile(bad, JSON.stringify({ verdict: 'saved-scans', version: 1, scans: [{ name: 'A', folders: [] }, { name: 'B', folders: ['/b'], mode: 'turbo' }, { name: 'b', folders: ['/c'] }, { name: 'C', folders: ['/c'], extra: 1 }] }));
    const refused = await other.savedScanStore.importFrom(bad);
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_import' } });
    if (!refused.ok) {
      expect(refused.error.message.split('\n')).toEqual([
        'scans[0].folders: at least one folder or file',
        expect.stringMatching(/^scans\[1\]\.mode: /),
        'scans[2].name: the same name as scans[1]',
        expect.stringMatching(/^scans\[3\]: .*extra/),
      ]);
    }
    expect(other.savedScanStore.list()).toHaveLength(2);
    expect(await other.savedScanStore.importFrom(join(dir.path, 'missing.json'))).toMatchObject({ ok: false, error: { code: 'import_unreadable' } });
  });
});
