// The quarantine on real files: permissions, names that cannot collide,
// restore with and without a matching sha256, restore onto a taken path and to
// another location, delete, allow-list, bulk actions, moves across file
// systems, and what recover() finds in the folder.
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openQuarantine,
  QUARANTINE_DB_NAME,
  QUARANTINE_DIR_NAME,
  QUARANTINE_FILES_DIR_NAME,
  type Quarantine,
} from '../../../electron/quarantine/quarantine.ts';
import { copiesOf, modeOf, otherDeviceDir, sha256, tempDir, writeThreat, type TempDir } from './support.ts';

let dir: TempDir;
let data: string;
let files: string;
let quarantine: Quarantine;

beforeEach(async () => {
  dir = await tempDir('verdict-quarantine-');
  data = join(dir.path, 'data');
  files = join(dir.path, 'files');
  await mkdir(files);
  quarantine = await openQuarantine(data);
});
afterEach(async () => {
  quarantine.close();
  await dir.remove();
});

const storedFiles = () => readdir(join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME));

async function quarantined(name: string, content: string, options: { mode?: number; recordId?: string; folder?: string } = {}) {
  const path = join(options.folder ?? files, name);
  const hash = await writeThreat(path, content, options.mode);
  const result = await quarantine.quarantine({ path, sha256: hash, recordId: options.recordId ?? null });
  if (!result.ok) throw new Error(`quarantine failed: ${result.error.code} ${result.error.message}`);
  return { path, hash, entry: result.value };
}

describe('quarantine', () => {
  it('moves the file into a 0700 folder as a 0400 file and records where it came from', async () => {
    const { path, hash, entry } = await quarantined('invoice.pdf.exe', 'EVIL-1', { mode: 0o755, recordId: 'rec-1' });
    expect(await stat(path).catch(() => null)).toBeNull();
    expect(entry).toMatchObject({ originalPath: path, fileName: 'invoice.pdf.exe', size: 6, mode: 0o755, sha256: hash, recordId: 'rec-1', state: 'quarantined' });
    expect(Date.parse(entry.quarantinedAt)).not.toBeNaN();

    expect(await modeOf(join(data, QUARANTINE_DIR_NAME))).toBe(0o700);
    expect(await modeOf(join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME))).toBe(0o700);
    expect(await modeOf(join(data, QUARANTINE_DIR_NAME, QUARANTINE_DB_NAME))).toBe(0o600);
    const [stored] = await storedFiles();
    expect(stored).toMatch(/^[0-9a-f-]{36}$/);
    const storedPath = join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, stored!);
    // Only the user can read it; nobody can write or execute it.
    expect(await modeOf(storedPath)).toBe(0o400);
    expect(await readFile(storedPath, 'utf8')).toBe('EVIL-1');

    expect(quarantine.list()).toEqual([entry]);
    expect(quarantine.get(entry.id)).toEqual(entry);
    expect(quarantine.byRecord('rec-1')).toEqual(entry);
  });

  it('fixes a quarantine folder that was made with wider permissions', async () => {
    quarantine.close();
    await chmod(join(data, QUARANTINE_DIR_NAME), 0o755);
    quarantine = await openQuarantine(data);
    expect(await modeOf(join(data, QUARANTINE_DIR_NAME))).toBe(0o700);
  });

  it('keeps two threats with the same name, and gives each back to its own folder', async () => {
    await mkdir(join(files, 'a'));
    await mkdir(join(files, 'b'));
    const first = await quarantined('setup.exe', 'EVIL-A', { folder: join(files, 'a') });
    const second = await quarantined('setup.exe', 'EVIL-B', { folder: join(files, 'b') });
    expect(first.entry.id).not.toBe(second.entry.id);
    expect(await storedFiles()).toHaveLength(2);
    expect(await copiesOf('EVIL-A', [data])).toHaveLength(1);
    expect(await copiesOf('EVIL-B', [data])).toHaveLength(1);

    expect((await quarantine.restore(second.entry.id)).ok).toBe(true);
    expect((await quarantine.restore(first.entry.id)).ok).toBe(true);
    expect(await readFile(first.path, 'utf8')).toBe('EVIL-A');
    expect(await readFile(second.path, 'utf8')).toBe('EVIL-B');
    expect(await storedFiles()).toEqual([]);
  });

  it('does not move a file whose content changed since it was scanned', async () => {
    const path = join(files, 'changed.bin');
    await writeThreat(path, 'NEW CONTENT');
    const result = await quarantine.quarantine({ path, sha256: sha256('WHAT WAS SCANNED'), recordId: 'r' });
    expect(result).toMatchObject({ ok: false, error: { code: 'hash_mismatch' } });
    expect(await readFile(path, 'utf8')).toBe('NEW CONTENT');
    expect(quarantine.list({ include: 'all' })).toEqual([]);
    expect(await storedFiles()).toEqual([]);
  });

  it('answers a missing file, a folder and a malformed request with codes', async () => {
    expect(await quarantine.quarantine({ path: join(files, 'nope'), sha256: sha256('x') })).toMatchObject({ ok: false, error: { code: 'source_missing' } });
    expect(await quarantine.quarantine({ path: files, sha256: sha256('x') })).toMatchObject({ ok: false, error: { code: 'not_regular_file' } });
    expect(await quarantine.quarantine({ path: join(files, 'x'), sha256: 'abc' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('quarantines the target of a symbolic link and returns it there', async () => {
    const target = join(files, 'real.exe');
    const hash = await writeThreat(target, 'EVIL-LINKED');
    const link = join(files, 'shortcut.exe');
    await symlink(target, link);
    const result = await quarantine.quarantine({ path: link, sha256: hash });
    expect(result).toMatchObject({ ok: true, value: { originalPath: target, fileName: 'real.exe' } });
    expect(await stat(target).catch(() => null)).toBeNull();
    const restored = await quarantine.restore(result.ok ? result.value.id : '');
    expect(restored.ok).toBe(true);
    expect(await readFile(link, 'utf8')).toBe('EVIL-LINKED');
  });

  it('asked again for the same scan, returns the entry it made', async () => {
    const { path, hash, entry } = await quarantined('again.exe', 'EVIL-AGAIN', { recordId: 'rec-again' });
    expect(await quarantine.quarantine({ path, sha256: hash, recordId: 'rec-again' })).toEqual({ ok: true, value: entry });
    expect(await storedFiles()).toHaveLength(1);
  });
});

describe('restore', () => {
  it('puts the file back with its content and mode when the sha256 matches', async () => {
    const { path, entry } = await quarantined('tool.sh', '#!/bin/sh\necho hi\n', { mode: 0o750 });
    const result = await quarantine.restore(entry.id);
    expect(result).toMatchObject({ ok: true, value: { state: 'restored', restoredTo: path } });
    expect(await readFile(path, 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(await modeOf(path)).toBe(0o750);
    expect(await storedFiles()).toEqual([]);
    expect(quarantine.list()).toEqual([]);
    expect(quarantine.list({ include: 'all' })).toMatchObject([{ id: entry.id, state: 'restored' }]);
    expect(quarantine.wasRestoredTo(entry.sha256, path)).toBe(true);
    expect(quarantine.wasRestoredTo(entry.sha256, `${path}.elsewhere`)).toBe(false);
    // Restored is final: a second restore is refused.
    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: false, error: { code: 'invalid_state' } });
  });

  it('restores the recorded permission bits but never setuid, setgid or sticky', async () => {
    const path = join(files, 'suid');
    const hash = await writeThreat(path, 'EVIL-SUID');
    await chmod(path, 0o4755);
    const result = await quarantine.quarantine({ path, sha256: hash });
    expect(result).toMatchObject({ ok: true, value: { mode: 0o4755 } });
    expect((await quarantine.restore(result.ok ? result.value.id : '')).ok).toBe(true);
    expect(await modeOf(path)).toBe(0o755);
  });

  it('refuses when the quarantined content no longer matches its sha256', async () => {
    const { path, entry } = await quarantined('tampered.exe', 'EVIL-ORIGINAL');
    const [stored] = await storedFiles();
    const storedPath = join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, stored!);
    await chmod(storedPath, 0o600);
    await writeFile(storedPath, 'SOMETHING ELSE');
    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: false, error: { code: 'hash_mismatch' } });
    expect(await stat(path).catch(() => null)).toBeNull();
    expect(quarantine.get(entry.id)?.state).toBe('quarantined');
  });

  it('never replaces a file at the original path, and restores to another location on request', async () => {
    const { path, entry } = await quarantined('report.docm', 'EVIL-MACRO');
    await writeFile(path, 'the user made a new report meanwhile');
    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: false, error: { code: 'restore_conflict' } });
    expect(await readFile(path, 'utf8')).toBe('the user made a new report meanwhile');
    expect(quarantine.get(entry.id)?.state).toBe('quarantined');

    const elsewhere = join(files, 'report (restored).docm');
    expect(await quarantine.restore(entry.id, { to: elsewhere })).toMatchObject({ ok: true, value: { state: 'restored', restoredTo: elsewhere } });
    expect(await readFile(elsewhere, 'utf8')).toBe('EVIL-MACRO');
    expect(await readFile(path, 'utf8')).toBe('the user made a new report meanwhile');
  });

  it('says when the folder to restore into is gone, or the target is the quarantine itself', async () => {
    const { entry } = await quarantined('gone.exe', 'EVIL-GONE');
    await rm(files, { recursive: true });
    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: false, error: { code: 'target_folder_missing' } });
    const inside = join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, 'x');
    expect(await quarantine.restore(entry.id, { to: inside })).toMatchObject({ ok: false, error: { code: 'invalid_target' } });
    expect(await quarantine.restore('no-such-id')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('runs one action per entry at a time', async () => {
    const { entry } = await quarantined('twice.exe', 'EVIL-TWICE');
    const [first, second] = await Promise.all([quarantine.restore(entry.id), quarantine.deletePermanently(entry.id)]);
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, error: { code: 'busy' } });
  });
});

describe('delete and allow', () => {
  it('deletes permanently only when asked, and only the quarantined copy', async () => {
    const { path, entry } = await quarantined('bad.exe', 'EVIL-DELETE');
    expect(await quarantine.deletePermanently(entry.id)).toMatchObject({ ok: true, value: { state: 'deleted' } });
    expect(await storedFiles()).toEqual([]);
    expect(await stat(path).catch(() => null)).toBeNull();
    expect(await copiesOf('EVIL-DELETE', [dir.path])).toEqual([]);
    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: false, error: { code: 'invalid_state' } });
    expect(await quarantine.deletePermanently(entry.id)).toMatchObject({ ok: false, error: { code: 'invalid_state' } });
  });

  it('allow restores the file and remembers its sha256', async () => {
    const { path, hash, entry } = await quarantined('false-positive.exe', 'JUST A TOOL', { recordId: 'rec-fp' });
    expect(quarantine.isAllowed(hash)).toBe(false);
    expect(await quarantine.allow(entry.id)).toMatchObject({ ok: true, value: { state: 'allowed', restoredTo: path } });
    expect(await readFile(path, 'utf8')).toBe('JUST A TOOL');
    expect(quarantine.isAllowed(hash)).toBe(true);
    expect(quarantine.isAllowed(hash.toUpperCase())).toBe(true);
    expect(quarantine.allowedContent()).toMatchObject([{ sha256: hash, fileName: 'false-positive.exe', entryId: entry.id, recordId: 'rec-fp' }]);
    expect(quarantine.isAllowed(sha256('other content'))).toBe(false);

    // Survives a restart, and can be taken back.
    quarantine.close();
    quarantine = await openQuarantine(data);
    expect(quarantine.isAllowed(hash)).toBe(true);
    expect(quarantine.revokeAllowed(hash)).toBe(true);
    expect(quarantine.isAllowed(hash)).toBe(false);
  });

  it('allows content that was never quarantined (notify mode)', () => {
    const hash = sha256('kept by the user');
    expect(quarantine.allowContent({ sha256: hash, fileName: 'kept.exe', recordId: 'rec-n' })).toMatchObject({ ok: true, value: { sha256: hash, entryId: null } });
    expect(quarantine.isAllowed(hash)).toBe(true);
    expect(quarantine.allowContent({ sha256: 'nope', fileName: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('a failed allow (conflict) remembers nothing', async () => {
    const { path, hash, entry } = await quarantined('taken.exe', 'EVIL-TAKEN');
    await writeFile(path, 'occupied');
    expect(await quarantine.allow(entry.id)).toMatchObject({ ok: false, error: { code: 'restore_conflict' } });
    expect(quarantine.isAllowed(hash)).toBe(false);
  });
});

describe('bulk actions', () => {
  it('reports an outcome per id', async () => {
    const paths = await Promise.all(['one', 'two', 'three'].map(async (name) => ({ name, path: join(files, `${name}.exe`) })));
    const requests = await Promise.all(
      paths.map(async ({ name, path }) => ({ path, sha256: await writeThreat(path, `EVIL-${name}`), recordId: `rec-${name}` })),
    );
    requests[2]!.sha256 = sha256('not what is there');
    const quarantinedOutcomes = await quarantine.quarantineMany(requests);
    expect(quarantinedOutcomes.map((outcome) => [outcome.id, outcome.ok])).toEqual([
      ['rec-one', true],
      ['rec-two', true],
      ['rec-three', false],
    ]);
    expect(quarantinedOutcomes[2]).toMatchObject({ ok: false, error: { code: 'hash_mismatch' } });
    const ids = quarantinedOutcomes.flatMap((outcome) => (outcome.ok ? [outcome.value.id] : []));

    // One original path is taken again: that one conflicts, the other comes back.
    await writeFile(requests[0]!.path, 'new file');
    const restored = await quarantine.restoreMany([...ids, 'unknown']);
    expect(restored.map((outcome) => (outcome.ok ? 'ok' : outcome.error.code))).toEqual(['restore_conflict', 'ok', 'not_found']);
    expect(await readFile(requests[1]!.path, 'utf8')).toBe('EVIL-two');

    // The conflicting one goes into a folder the user picks.
    const picked = join(dir.path, 'picked');
    await mkdir(picked);
    const intoFolder = await quarantine.restoreMany([ids[0]!], { toFolder: picked });
    expect(intoFolder).toMatchObject([{ id: ids[0], ok: true, value: { restoredTo: join(picked, 'one.exe') } }]);
    expect(await readFile(join(picked, 'one.exe'), 'utf8')).toBe('EVIL-one');
  });

  it('deletes and allows in bulk', async () => {
    const a = await quarantined('a.exe', 'EVIL-BULK-A');
    const b = await quarantined('b.exe', 'EVIL-BULK-B');
    const c = await quarantined('c.exe', 'FINE-BULK-C');
    const deleted = await quarantine.deleteMany([a.entry.id, b.entry.id, a.entry.id]);
    expect(deleted.map((outcome) => (outcome.ok ? outcome.value.state : outcome.error.code))).toEqual(['deleted', 'deleted', 'invalid_state']);
    const allowed = await quarantine.allowMany([c.entry.id]);
    expect(allowed).toMatchObject([{ id: c.entry.id, ok: true, value: { state: 'allowed' } }]);
    expect(quarantine.isAllowed(c.hash)).toBe(true);
    expect(await storedFiles()).toEqual([]);
  });
});

describe('across file systems', () => {
  let other: TempDir | null = null;
  beforeEach(async () => {
    other = await otherDeviceDir('verdict-quarantine-other-');
  });
  afterEach(async () => {
    await other?.remove();
  });

  it('copies, verifies and then removes a file on another device (EXDEV), and restores it there', async (context) => {
    if (!other) return context.skip('no second file system here (/dev/shm on the same device as the temp folder)');
    expect((await stat(other.path)).dev).not.toBe((await stat(data)).dev);
    const { path, entry } = await quarantined('far.exe', 'EVIL-FAR', { folder: other.path, mode: 0o700 });
    expect(await stat(path).catch(() => null)).toBeNull();
    expect(await copiesOf('EVIL-FAR', [data, other.path])).toHaveLength(1);
    expect((await storedFiles()).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const [stored] = await storedFiles();
    expect(await modeOf(join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, stored!))).toBe(0o400);

    expect(await quarantine.restore(entry.id)).toMatchObject({ ok: true, value: { state: 'restored' } });
    expect(await readFile(path, 'utf8')).toBe('EVIL-FAR');
    expect(await modeOf(path)).toBe(0o700);
    expect(await copiesOf('EVIL-FAR', [data, other.path])).toEqual([path]);
    expect((await readdir(other.path)).sort()).toEqual(['far.exe']);
  });
});

describe('recover', () => {
  it('lists a file found in the quarantine folder without an entry, and marks a vanished one lost', async () => {
    const { entry } = await quarantined('vanishes.exe', 'EVIL-VANISH');
    const filesDir = join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME);
    await rm(join(filesDir, (await storedFiles())[0]!), { force: true });
    const orphan = '0b5e3f5c-9a51-4c38-8b0f-6f1d0c1e2a3b';
    await writeFile(join(filesDir, orphan), 'EVIL-ORPHAN');

    const report = await quarantine.recover();
    expect(report.lost).toEqual([entry.id]);
    expect(report.adopted).toEqual([orphan]);
    expect(quarantine.get(entry.id)?.state).toBe('lost');
    const adopted = quarantine.list().find((item) => item.originalPath === null)!;
    expect(adopted).toMatchObject({ sha256: sha256('EVIL-ORPHAN'), state: 'quarantined' });
    expect(await modeOf(join(filesDir, orphan))).toBe(0o400);
    // Its origin is unknown: it can only go where the user says.
    expect(await quarantine.restore(adopted.id)).toMatchObject({ ok: false, error: { code: 'original_path_unknown' } });
    expect((await quarantine.restore(adopted.id, { to: join(files, 'found.exe') })).ok).toBe(true);
    expect(await readFile(join(files, 'found.exe'), 'utf8')).toBe('EVIL-ORPHAN');
  });

  it('sets a damaged index aside and re-indexes the quarantined files', async () => {
    await quarantined('kept.exe', 'EVIL-KEPT');
    quarantine.close();
    const db = join(data, QUARANTINE_DIR_NAME, QUARANTINE_DB_NAME);
    await writeFile(db, 'this is not a database'.repeat(200));
    await rm(`${db}-wal`, { force: true });
    await rm(`${db}-shm`, { force: true });
    quarantine = await openQuarantine(data);
    expect(quarantine.warning).toMatch(/set aside/);
    const report = await quarantine.recover();
    expect(report.adopted).toHaveLength(1);
    expect(quarantine.list()).toMatchObject([{ sha256: sha256('EVIL-KEPT'), state: 'quarantined' }]);
  });
});
