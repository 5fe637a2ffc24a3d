// Restoring many quarantined files into one chosen folder on real files: two
// files with the same name, and a name already taken in the folder, each end up
// under a numbered name ("setup (2).exe"); nothing is replaced or lost.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err } from '../../../shared/result.ts';
import { openQuarantine, type Quarantine } from '../../../electron/quarantine/quarantine.ts';
import { MAX_NUMBERED_NAMES, numberedName, restoreIntoFolder } from '../../../electron/quarantine/restore-into-folder.ts';
import { copiesOf, tempDir, writeThreat, type TempDir } from './support.ts';

describe('numberedName', () => {
  it('numbers before the last extension, keeps the name as it is for the first try', () => {
    expect(numberedName('setup.exe', 1)).toBe('setup.exe');
    expect(numberedName('setup.exe', 2)).toBe('setup (2).exe');
    expect(numberedName('archive.tar.gz', 3)).toBe('archive.tar (3).gz');
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.bashrc', 2)).toBe('.bashrc (2)');
    expect(numberedName('trailing.', 2)).toBe('trailing (2).');
  });
});

describe('restoreIntoFolder', () => {
  let dir: TempDir;
  let quarantine: Quarantine;
  let target: string;

  beforeEach(async () => {
    dir = await tempDir('verdict-restore-into-');
    quarantine = await openQuarantine(join(dir.path, 'data'));
    target = join(dir.path, 'chosen');
    await mkdir(target);
  });
  afterEach(async () => {
    quarantine.close();
    await dir.remove();
  });

  /** A file called `name` in a folder of its own, quarantined; returns its entry id. */
  async function quarantined(folder: string, name: string, content: string): Promise<string> {
    await mkdir(join(dir.path, folder), { recursive: true });
    const path = join(dir.path, folder, name);
    const hash = await writeThreat(path, content);
    const result = await quarantine.quarantine({ path, sha256: hash });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value.id;
  }

  it('two files with the same name and a name already taken in the folder: numbered names, nothing replaced', async () => {
    const a = await quarantined('a', 'setup.exe', 'threat A');
    const b = await quarantined('b', 'setup.exe', 'threat B');
    const other = await quarantined('c', 'notes.txt', 'threat C');
    await writeFile(join(target, 'setup.exe'), 'the user’s own setup.exe');

    const outcomes = await restoreIntoFolder(quarantine, [a, b, other], target, 'restore');
    expect(outcomes).toMatchObject([
      { id: a, ok: true, value: { state: 'restored', fileName: 'setup.exe', restoredTo: join(target, 'setup (2).exe') } },
      { id: b, ok: true, value: { state: 'restored', fileName: 'setup.exe', restoredTo: join(target, 'setup (3).exe') } },
      { id: other, ok: true, value: { state: 'restored', restoredTo: join(target, 'notes.txt') } },
    ]);
    expect((await readdir(target)).sort()).toEqual(['notes.txt', 'setup (2).exe', 'setup (3).exe', 'setup.exe']);
    expect(await readFile(join(target, 'setup.exe'), 'utf8')).toBe('the user’s own setup.exe');
    expect(await readFile(join(target, 'setup (2).exe'), 'utf8')).toBe('threat A');
    expect(await readFile(join(target, 'setup (3).exe'), 'utf8')).toBe('threat B');
    // Exactly one copy of each content, now in the chosen folder; none left in quarantine.
    for (const content of ['threat A', 'threat B', 'threat C']) expect(await copiesOf(content, [dir.path])).toHaveLength(1);
    expect(quarantine.list()).toEqual([]);
  });

  it('allows into the folder the same way (and remembers the content)', async () => {
    const a = await quarantined('a', 'tool.com', 'threat A');
    const b = await quarantined('b', 'tool.com', 'threat B');
    const outcomes = await restoreIntoFolder(quarantine, [a, b], target, 'allow');
    expect(outcomes.map((outcome) => outcome.ok && [outcome.value.state, outcome.value.restoredTo])).toEqual([
      ['allowed', join(target, 'tool.com')],
      ['allowed', join(target, 'tool (2).com')],
    ]);
    expect(quarantine.allowedContent()).toHaveLength(2);
  });

  it('reports what cannot be done per id, and gives up on a name after the last number', async () => {
    const a = await quarantined('a', 'x.bin', 'threat A');
    const gone = await restoreIntoFolder(quarantine, ['no-such-entry', a], join(dir.path, 'missing'), 'restore');
    expect(gone).toMatchObject([
      { id: 'no-such-entry', ok: false, error: { code: 'not_found' } },
      { id: a, ok: false, error: { code: 'target_folder_missing' } },
    ]);
    // Every name taken: a conflict, and the file stays in quarantine.
    let tries = 0;
    const everyNameTaken = {
      get: quarantine.get,
      allow: quarantine.allow,
      restore: async () => {
        tries++;
        return err('restore_conflict', 'taken');
      },
    };
    expect(await restoreIntoFolder(everyNameTaken, [a], target, 'restore')).toMatchObject([{ id: a, ok: false, error: { code: 'restore_conflict' } }]);
    expect(tries).toBe(MAX_NUMBERED_NAMES);
    expect(quarantine.get(a)).toMatchObject({ state: 'quarantined' });
  });
});
