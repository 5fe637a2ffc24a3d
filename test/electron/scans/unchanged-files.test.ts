// The unchanged-file skip (issue 26 §6) through the real core: real files, the real history
// (SQLite), the embedded service with the built-in engine. A row with reuseKind `unchanged`
// was neither fingerprinted nor sent (no service scan id, no time taken); every other row's
// file was read. What rescans: a touch, a rewrite with its mtime set back (`touch -r`: the
// ctime changes), a rename and a new hard link (both change the inode's ctime: read once
// more; the entry is the inode's, so afterwards every name of it is skipped), and --force. A file changed within the racy window
// gets no entry, so it is read again until it has stood still for RACY_WINDOW_MS.
import { execFileSync } from 'node:child_process';
import { link, mkdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { RACY_WINDOW_MS } from '../../../electron/scans/pipeline/unchanged.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { useCoreFixture } from '../core/core-fixture.ts';

const fixture = useCoreFixture('verdict-unchanged-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Scans the paths; their records by path. */
async function scan(core: CoreInternals, paths: readonly string[], force = false): Promise<Map<string, ScanRecord>> {
  const submitted = value(await core.submit([...paths], { origin: 'drop', force }));
  await core.idle();
  const records = await Promise.all(submitted.ids.map(async (id) => value(await core.scans.get(id))));
  for (const record of records) expect(record, record.path).toMatchObject({ status: 'completed', safe: true });
  return new Map(records.map((record) => [record.path, record]));
}

const notRead = (record: ScanRecord | undefined) => record?.reuseKind === 'unchanged';
const readPaths = (records: Map<string, ScanRecord>) => [...records.values()].filter((record) => !notRead(record)).map((record) => record.path).sort();
const standStill = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 200));

describe('the unchanged-file skip', () => {
  test('a second scan reads nothing; each kind of change is read again as §6 says; --force reads everything', async () => {
    const files = join(fixture.dir.path, 'files');
    await mkdir(files);
    const names = ['a.txt', 'b.txt', 'touched.txt', 'rewritten.txt', 'renamed.txt', 'linked.txt', 'dup-1.txt', 'dup-2.txt'];
    const paths = names.map((name) => join(files, name));
    await Promise.all(paths.map((path, i) => writeFile(path, path.includes('dup-') ? 'identical content\n' : `content of file ${i}\n`)));
    await standStill();
    const core = await fixture.open();

    const first = await scan(core, paths);
    // Every file read: scanned, or (the second duplicate) its content's verdict reused after fingerprinting.
    expect(readPaths(first)).toEqual([...paths].sort());
    const second = await scan(core, paths);
    expect(readPaths(second)).toEqual([]);
    for (const path of paths) {
      const record = second.get(path);
      // Not read: never sent, no time taken; it names the scan that read the file (a duplicate: the scan of its content).
      expect(record).toMatchObject({ serviceScanId: null, durationMs: 0, sha256: first.get(path)?.sha256, size: first.get(path)?.size });
      expect(record?.reusedFromId).toBe(first.get(path)?.reusedFromId ?? first.get(path)?.id);
    }

    // The changes, each as a user makes it.
    const touched = join(files, 'touched.txt');
    const now = new Date();
    await utimes(touched, now, now);
    const rewritten = join(files, 'rewritten.txt');
    const reference = join(fixture.dir.path, 'reference');
    execFileSync('touch', ['-r', rewritten, reference]);
    const before = await stat(rewritten, { bigint: true });
    await writeFile(rewritten, 'CONTENT OF FILE 3\n'); // the same size
    execFileSync('touch', ['-r', reference, rewritten]); // size and mtime as they were, to the nanosecond
    const after = await stat(rewritten, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const renamed = join(files, 'renamed-now.txt');
    await rename(join(files, 'renamed.txt'), renamed);
    const linked = join(files, 'linked.txt');
    const secondName = join(files, 'linked-2.txt');
    await link(linked, secondName);
    // The intake lists a file of several links once per submission (under its first name): the second name is scanned on its own below.
    const now2 = paths.map((path) => (path.endsWith('renamed.txt') ? renamed : path));
    const changed = [touched, rewritten, renamed, linked].sort();

    const third = await scan(core, now2);
    expect(readPaths(third)).toEqual(changed);
    expect(third.get(rewritten)?.sha256).not.toBe(first.get(rewritten)?.sha256);
    // Changed within the racy window: read, but given no entry, so read again at once.
    const fourth = await scan(core, now2);
    expect(readPaths(fourth)).toEqual(changed);
    // Once they have stood still, one more read gives them entries; then nothing is read.
    await standStill();
    expect(readPaths(await scan(core, now2))).toEqual(changed);
    const settled = await scan(core, now2);
    expect(readPaths(settled)).toEqual([]);
    // The two names of one inode (the same bytes) are one entry: the second name is not read either.
    const other = (await scan(core, [secondName])).get(secondName);
    expect(notRead(other)).toBe(true);
    expect(other?.reusedFromId).toBe(settled.get(linked)?.reusedFromId);

    // Scan again (--force): every file is read.
    expect(readPaths(await scan(core, now2, true))).toEqual([...now2].sort());
  }, 60_000);

  test('a verdict is reused only within reuseVerdictDays; 0 turns the skip off too', async () => {
    const files = join(fixture.dir.path, 'files');
    await mkdir(files);
    const path = join(files, 'one.txt');
    await writeFile(path, 'one\n');
    await standStill();
    const core = await fixture.open();
    await scan(core, [path]);
    expect(notRead((await scan(core, [path])).get(path))).toBe(true);
    value(await core.settings.update({ reuseVerdictDays: 0 }));
    expect(notRead((await scan(core, [path])).get(path))).toBe(false);
  }, 30_000);
});
