// Excluded folders through the real core (real files, real SQLite, the embedded
// engine): a folder the exclusions cover is one skipped record, not one per file,
// and is never walked or watched; "scan anyway" walks it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from '../core/core-fixture.ts';

const { dir, open } = useCoreFixture('verdict-excluded-folders-');

async function write(path: string, content = `content of ${path}\n`): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  return path;
}

/** `count` files spread over folders of 100 (a package tree). */
async function writeTree(root: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await write(join(root, `pkg-${Math.floor(i / 100)}`, 'lib', `file-${i}.js`), `module ${i}\n`);
}

async function all(core: CoreInternals): Promise<ScanRecord[]> {
  const page = await core.scans.list({ limit: 1000, order: 'oldest' });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.items;
}

const setRules = async (core: CoreInternals, rules: { paths?: string[]; globs?: string[] }) => {
  const saved = await core.settings.update({ exclusions: { paths: [], globs: [], extensions: [], ...rules } });
  expect(saved.ok).toBe(true);
};

describe('excluded folders in manual scans', () => {
  it('a node_modules of 2,000 files is one skipped record; the other files are queued and scanned', async () => {
    const core = await open();
    await setRules(core, { globs: ['node_modules'] });
    const project = join(dir.path, 'project');
    const kept = [await write(join(project, 'src', 'index.js')), await write(join(project, 'README.md')), await write(join(project, 'src', 'lib', 'util.js'))];
    await writeTree(join(project, 'node_modules'), 2000);

    const submitted = await core.scans.submit([project]);
    expect(submitted).toMatchObject({ ok: true, value: { queued: 3, skipped: 1 } });
    await core.idle();
    const records = await all(core);
    expect(records).toHaveLength(4);
    expect(records.filter((record) => record.status === 'skipped')).toEqual([
      expect.objectContaining({
        path: join(project, 'node_modules'),
        fileName: 'node_modules',
        size: null,
        serviceScanId: null,
        error: {
          code: 'excluded_glob',
          message: 'Not scanned: the folder matches the pattern "node_modules" in the global exclusions; nothing in it was looked at.',
          params: { scope: 'global', target: 'folder', rule: 'node_modules' },
        },
      }),
    ]);
    expect(records.filter((record) => record.status === 'completed').map((record) => record.path).sort()).toEqual(kept.sort());
  });

  it('a path rule naming a folder, and an excluded folder named directly, are one skipped record each', async () => {
    const core = await open();
    const privateDir = join(dir.path, 'home', 'Private');
    await setRules(core, { paths: [privateDir], globs: ['build/**'] });
    await writeTree(privateDir, 30);
    await write(join(dir.path, 'home', 'notes.txt'));
    const build = join(dir.path, 'app', 'build');
    await writeTree(build, 30);

    expect(await core.scans.submit([join(dir.path, 'home')])).toMatchObject({ ok: true, value: { queued: 1, skipped: 1 } });
    expect(await core.scans.submit([build])).toMatchObject({ ok: true, value: { queued: 0, skipped: 1 } });
    // A file named directly keeps the per-file rule: skipped, as itself.
    const inside = join(privateDir, 'pkg-0', 'lib', 'file-0.js');
    expect(await core.scans.submit([inside])).toMatchObject({ ok: true, value: { queued: 0, skipped: 1 } });
    await core.idle();
    const skipped = (await all(core)).filter((record) => record.status === 'skipped');
    expect(skipped.map((record) => [record.path, record.error?.code])).toEqual([
      [privateDir, 'excluded_path'],
      [build, 'excluded_glob'],
      [inside, 'excluded_path'],
    ]);
    expect(skipped[0]?.error?.message).toBe(`Not scanned: ${privateDir} is excluded in the global exclusions; nothing in this folder was looked at.`);
  });

  it('"scan anyway" on an excluded folder walks it and scans every file', async () => {
    const core = await open();
    await setRules(core, { globs: ['node_modules'] });
    const modules = join(dir.path, 'app', 'node_modules');
    await writeTree(modules, 25);
    await core.scans.submit([join(dir.path, 'app')]);
    await core.idle();
    const [folder] = await all(core);
    expect(folder).toMatchObject({ path: modules, status: 'skipped' });

    expect(await core.scans.rescan(folder!.id)).toMatchObject({ ok: true, value: { queued: 25 } });
    expect(await core.submit([modules], { origin: 'drop', force: true })).toMatchObject({ ok: true, value: { queued: 25, skipped: 0 } });
    await core.idle();
    const records = await all(core);
    expect(records).toHaveLength(51);
    expect(records.slice(1).every((record) => record.status === 'completed' && record.path.startsWith(modules + '/'))).toBe(true);
  });
});

describe('excluded folders in watched folders', () => {
  it('a nested excluded folder is not watched (nothing written there is scanned), its siblings are; a new one is listed once', async () => {
    const core = await open({ ...FAST, watch: true, watchSettleMs: 100 });
    const watched = join(dir.path, 'Downloads');
    await writeTree(join(watched, 'project', 'node_modules'), 50);
    await mkdir(join(watched, 'project', 'src'), { recursive: true });
    await setRules(core, { globs: ['node_modules'] });
    const added = await core.watch.add({ path: watched });
    if (!added.ok) throw new Error(added.error.message);
    await until(async () => {
      const list = await core.watch.list();
      return list.ok && list.value[0]?.state === 'watching';
    }, 'the folder to be watched');

    await write(join(watched, 'project', 'node_modules', 'pkg-0', 'lib', 'dropped.js'));
    await write(join(watched, 'project', 'node_modules', 'new-package', 'index.js'));
    const sibling = await write(join(watched, 'project', 'src', 'app.js'));
    // Created while watching: one skipped record for the folder, none for the file in it.
    await write(join(watched, 'other', 'node_modules', 'x', 'index.js'));
    const last = await write(join(watched, 'last.txt'));
    await until(async () => {
      const records = await all(core);
      return [sibling, last].every((path) => records.some((record) => record.path === path && record.status === 'completed'));
    }, 'the sibling files to be scanned');
    await until(async () => (await all(core)).some((record) => record.status === 'skipped'), 'the new excluded folder to be listed');
    await core.idle();

    const records = await all(core);
    expect(records.map((record) => [record.path, record.status]).sort()).toEqual(
      [
        [sibling, 'completed'],
        [last, 'completed'],
        [join(watched, 'other', 'node_modules'), 'skipped'],
      ].sort(),
    );
    expect(records.every((record) => record.origin === 'watch')).toBe(true);
  });
});
