// The signature identity of a database folder (issue 26 §6): real files in a temp folder.
// Any change clamd would load changes the digest; what clamd ignores does not; a change made
// after clamd loaded the folder gives no digest (clamd may not hold it yet).
import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { clamdIdentityWithDatabases, digestDatabases } from '../../../electron/engine/databases/database-digest.ts';
import { systemFolder } from '../../../electron/engine/databases/database-folder.ts';
import { tempDir } from '../scans/harness.ts';

const VERSION = 'ClamAV 1.4.6';
let dir: Awaited<ReturnType<typeof tempDir>>;
let db: string;
beforeEach(async () => {
  dir = await tempDir('verdict-db-digest-');
  db = join(dir.path, 'db');
  await mkdir(db);
  await writeFile(join(db, 'local.ndb'), 'Test-Sig:0:*:414243\n');
});
afterEach(async () => {
  await dir.remove();
});

/** A signed container's first bytes: the 512-byte `ClamAV-VDB:` header, padded with spaces, then content. */
function container(version: number, sigs: number): Buffer {
  const header = Buffer.alloc(512, ' ');
  header.write(`ClamAV-VDB:27 Nov 2026 10-00 +0000:${version}:${sigs}:90:0123456789abcdef0123456789abcdef:sig:builder:1790000000`, 'latin1');
  return Buffer.concat([header, Buffer.from('compressed content')]);
}

describe('digestDatabases', () => {
  test('the same folder gives the same digest; the VERSION line is part of it', async () => {
    const first = await digestDatabases(db, VERSION);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await digestDatabases(db, VERSION)).toBe(first);
    expect(await digestDatabases(db, 'ClamAV 1.4.7')).not.toBe(first);
  });

  test('a database added, removed, renamed or rewritten changes it; a file clamd does not load, or a subfolder, does not', async () => {
    const start = await digestDatabases(db, VERSION);
    await writeFile(join(db, 'freshclam.dat'), 'state');
    await mkdir(join(db, 'tmp.1234'));
    await writeFile(join(db, 'tmp.1234', 'daily.cld'), 'partial');
    expect(await digestDatabases(db, VERSION)).toBe(start);

    await writeFile(join(db, 'extra.hdb'), '44d88612fea8a8f36de82e1278abb02f:68:Extra\n');
    const added = await digestDatabases(db, VERSION);
    expect(added).not.toBe(start);
    await rename(join(db, 'extra.hdb'), join(db, 'extra2.hdb'));
    expect(await digestDatabases(db, VERSION)).not.toBe(added);
    await rm(join(db, 'extra2.hdb'));
    // Back to the same names and files: the same digest.
    expect(await digestDatabases(db, VERSION)).toBe(start);

    // Rewritten with the same size and its mtime set back (`touch -r`): the ctime still tells.
    const file = join(db, 'local.ndb');
    const old = new Date(Date.now() - 3_600_000);
    await utimes(file, old, old);
    const before = await digestDatabases(db, VERSION);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(file, 'Test-Sig:0:*:414244\n');
    await utimes(file, old, old);
    expect(await digestDatabases(db, VERSION)).not.toBe(before);
  });

  test('a container is known by its header: a new version changes the digest, a touch does not', async () => {
    const daily = join(db, 'daily.cvd');
    await writeFile(daily, container(27467, 2_000_000));
    const first = await digestDatabases(db, VERSION);
    await utimes(daily, new Date(), new Date(Date.now() - 60_000));
    expect(await digestDatabases(db, VERSION)).toBe(first);
    await writeFile(daily, container(27468, 2_000_000));
    expect(await digestDatabases(db, VERSION)).not.toBe(first);
  });

  test('no folder, or no database in it: null', async () => {
    expect(await digestDatabases(join(dir.path, 'missing'), VERSION)).toBeNull();
    await rm(join(db, 'local.ndb'));
    expect(await digestDatabases(db, VERSION)).toBeNull();
  });
});

describe('a change clamd may not hold yet', () => {
  test('a database changed at or after clamd loaded the folder: no digest until it loads again', async () => {
    const loaded = Date.now() + 1_000;
    expect(await digestDatabases(db, VERSION, loaded)).toBe(await digestDatabases(db, VERSION));
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(db, 'local.ndb'), 'Test-Sig:0:*:414299\n');
    expect(await digestDatabases(db, VERSION, before)).toBeNull();
    // A database added (the folder changes) is the same.
    const later = Date.now() + 1_000;
    expect(await digestDatabases(db, VERSION, later)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beforeAdd = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(db, 'more.hdb'), '44d88612fea8a8f36de82e1278abb02f:68:More\n');
    expect(await digestDatabases(db, VERSION, beforeAdd)).toBeNull();
    expect(await clamdIdentityWithDatabases(VERSION, { dir: db, loadedAtMs: beforeAdd })).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
  });

  test('a system clamd: a change counts as loaded once a SelfCheck period and a reload have passed; SelfCheck 0 never', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(systemFolder({ databaseDir: '/var/lib/clamav', selfCheckSeconds: 3600 }, now)).toEqual({ dir: '/var/lib/clamav', loadedAtMs: now - 3_660_000 });
    expect(systemFolder({ databaseDir: '/var/lib/clamav', selfCheckSeconds: 0 }, now)).toBeNull();
    expect(systemFolder({ databaseDir: null, selfCheckSeconds: 600 }, now)).toBeNull();
  });
});

describe('clamdIdentityWithDatabases', () => {
  test('a readable folder: basis databases and the digest; none: VERSION alone, as before', async () => {
    const identity = await clamdIdentityWithDatabases(VERSION, { dir: db, loadedAtMs: Date.now() + 1_000 });
    expect(identity).toEqual({ name: 'clamav', version: '1.4.6', signatures: null, signatureBasis: 'databases', databases: await digestDatabases(db, VERSION) });
    expect(await clamdIdentityWithDatabases(VERSION, null)).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
    expect(await clamdIdentityWithDatabases(VERSION, { dir: join(dir.path, 'missing'), loadedAtMs: Date.now() })).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
    expect(await clamdIdentityWithDatabases('not clamd', { dir: db, loadedAtMs: Date.now() })).toBeNull();
  });
});
