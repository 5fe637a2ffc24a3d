// Where Verdict looks for ClamAV's programs and a signature database, with real
// folders and files the test lays out.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkDatabaseDir, findDatabaseDir, findExecutable, findFreshclam, ownDatabaseDir } from '../../../electron/engine/own-clamd/find-clamav.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-find-clamav-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function program(path: string, mode = 0o755): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, mode);
  return path;
}

describe('programs', () => {
  test('PATH first, then the usual places; only executable files count', async () => {
    const onPath = await program(join(root, 'bin', 'clamd'));
    const place = await program(join(root, 'sbin', 'clamd'));
    await program(join(root, 'noexec', 'clamd'), 0o644);
    await mkdir(join(root, 'dir', 'clamd'), { recursive: true });
    const host = (PATH: string) => ({ env: { PATH }, platform: 'linux' as const });
    expect(findExecutable('clamd', [place], host([join(root, 'noexec'), join(root, 'dir'), join(root, 'bin')].join(delimiter)))).toBe(onPath);
    expect(findExecutable('clamd', [place], host(join(root, 'noexec')))).toBe(place);
    expect(findExecutable('clamd', [], host(''))).toBeNull();
  });

  test('freshclam next to clamd: the same folder, or bin beside sbin', async () => {
    const clamd = await program(join(root, 'prefix', 'sbin', 'clamd'));
    const freshclam = await program(join(root, 'prefix', 'bin', 'freshclam'));
    expect(resolve(findFreshclam(clamd, { env: { PATH: '' }, platform: 'linux' }) ?? '')).toBe(freshclam);
    expect(findFreshclam(null, { env: { PATH: '' }, platform: 'linux' })).toBeNull();
  });
});

describe('the signature database folder', () => {
  test('a configured folder is taken as given, even when empty (so its problem is reported, not hidden)', () => {
    expect(findDatabaseDir({ configured: join(root, 'mine'), dataDir: root, clamdPath: null })).toEqual({ found: true, dir: join(root, 'mine'), origin: 'configured' });
  });

  test("Verdict's own folder when it holds a database, else it is passed over", async () => {
    const own = ownDatabaseDir(root);
    await mkdir(own);
    await writeFile(join(own, 'freshclam.dat'), 'x');
    const empty = findDatabaseDir({ dataDir: root, clamdPath: null });
    expect(empty.found && empty.origin).not.toBe('own');
    await writeFile(join(own, 'daily.cld'), 'x');
    expect(findDatabaseDir({ dataDir: root, clamdPath: null })).toEqual({ found: true, dir: own, origin: 'own' });
  });

  test('Windows: the database folder next to clamd.exe', async () => {
    const db = join(root, 'ClamAV', 'database');
    await mkdir(db, { recursive: true });
    await writeFile(join(db, 'main.cvd'), 'x');
    expect(findDatabaseDir({ dataDir: join(root, 'data'), clamdPath: join(root, 'ClamAV', 'clamd.exe') }, { env: {}, platform: 'win32' })).toEqual({ found: true, dir: db, origin: 'system' });
  });

  test('checkDatabaseDir tells missing, unreadable and empty apart', async () => {
    expect(checkDatabaseDir(join(root, 'none'))).toMatchObject({ ok: false, problem: 'database_missing' });
    await writeFile(join(root, 'file'), 'x');
    expect(checkDatabaseDir(join(root, 'file'))).toMatchObject({ ok: false, problem: 'database_unreadable', detail: 'ENOTDIR' });
    await mkdir(join(root, 'db'));
    await writeFile(join(root, 'db', 'README'), 'x');
    expect(checkDatabaseDir(join(root, 'db'))).toMatchObject({ ok: false, problem: 'database_empty' });
    await writeFile(join(root, 'db', 'x.hdb'), 'x');
    expect(checkDatabaseDir(join(root, 'db'))).toEqual({ ok: true, files: ['x.hdb'] });
  });
});
