// The building blocks on their own: a verified copy that refuses wrong content,
// and placing a file that never replaces another.
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyVerified, HashMismatchError, hashFile, placeWithoutReplacing, tryLink } from '../../../electron/quarantine/file-moves.ts';
import { sha256, tempDir, type TempDir } from './support.ts';

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir('verdict-file-moves-');
});
afterEach(async () => {
  await dir.remove();
});

describe('copyVerified', () => {
  it('copies, keeps the modification time, and creates the copy with the given mode', async () => {
    const source = join(dir.path, 'source');
    await writeFile(source, 'payload');
    await utimes(source, new Date('2020-01-02T03:04:05Z'), new Date('2020-01-02T03:04:05Z'));
    const target = join(dir.path, 'copy');
    await copyVerified(source, target, sha256('payload'), { mode: 0o600 });
    expect(await readFile(target, 'utf8')).toBe('payload');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect((await stat(target)).mtime.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(await hashFile(target)).toMatchObject({ sha256: sha256('payload'), identity: { size: 7 } });
  });

  it('throws and leaves no copy when the content is not the expected one', async () => {
    const source = join(dir.path, 'source');
    await writeFile(source, 'changed meanwhile');
    const target = join(dir.path, 'copy');
    await expect(copyVerified(source, target, sha256('what was scanned'))).rejects.toBeInstanceOf(HashMismatchError);
    expect(await readdir(dir.path)).toEqual(['source']);
  });

  it('never writes over an existing file', async () => {
    const source = join(dir.path, 'source');
    const target = join(dir.path, 'taken');
    await writeFile(source, 'a');
    await writeFile(target, 'keep me');
    await expect(copyVerified(source, target, sha256('a'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(target, 'utf8')).toBe('keep me');
  });
});

describe('placing without replacing', () => {
  it('moves a file to a free name, and refuses a taken one leaving both untouched', async () => {
    const source = join(dir.path, 'source');
    await writeFile(source, 'mine');
    await placeWithoutReplacing(source, join(dir.path, 'free'));
    expect(await readdir(dir.path)).toEqual(['free']);

    await writeFile(join(dir.path, 'taken'), 'theirs');
    await expect(placeWithoutReplacing(join(dir.path, 'free'), join(dir.path, 'taken'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(dir.path, 'free'), 'utf8')).toBe('mine');
    expect(await readFile(join(dir.path, 'taken'), 'utf8')).toBe('theirs');
  });

  it('tryLink reports a taken target as an error, not as "links unsupported"', async () => {
    await writeFile(join(dir.path, 'a'), 'a');
    await writeFile(join(dir.path, 'b'), 'b');
    await expect(tryLink(join(dir.path, 'a'), join(dir.path, 'b'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await tryLink(join(dir.path, 'a'), join(dir.path, 'c'))).toBe(true);
  });
});
