import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTERNAL_REFERENCE_MAX_LENGTH, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { externalReferenceIdSchema } from '../../../shared/service-contract/scan.ts';
import type { ModeChoice, ScanOrigin } from '../../../shared/scans/record.ts';
import { decideMode, modeForUpload } from '../../../electron/scans/mode.ts';
import { loadInstallId, makeProbeReference, makeReference } from '../../../electron/scans/reference.ts';
import { IdQueue } from '../../../electron/scans/id-queue.ts';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-ref-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('external reference', () => {
  it('persists one random install id per data dir', async () => {
    const dir = await tempDir();
    const first = await loadInstallId(dir);
    expect(first).toMatch(/^[a-z0-9]{24}$/);
    expect(await loadInstallId(dir)).toBe(first);
    expect((await readFile(join(dir, 'install-id'), 'utf8')).trim()).toBe(first);
    expect(await loadInstallId(await tempDir())).not.toBe(first);
  });

  it('replaces a damaged install id file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'install-id'), 'not/a valid id\n');
    expect(await loadInstallId(dir)).toMatch(/^[a-z0-9]{24}$/);
  });

  it('is namespaced, within the allowed characters and length, and carries no path or name', async () => {
    const installId = await loadInstallId(await tempDir());
    const localId = '0b6f3f43-4c7e-4a8e-9d51-1d8c2f3e9a10';
    const ref = makeReference(installId, localId);
    expect(ref).toBe(`verdict/${installId}/${localId}`);
    expect(externalReferenceIdSchema.safeParse(ref).success).toBe(true);
    expect(ref.length).toBeLessThanOrEqual(EXTERNAL_REFERENCE_MAX_LENGTH);
    expect(makeProbeReference(installId)).toMatch(new RegExp(`^verdict/${installId}/probe-[0-9a-f]{16}$`));
  });

  it('refuses local ids that could smuggle a path or a name in', () => {
    expect(() => makeReference('abcdefabcdefabcdefabcdef', '../etc/passwd')).toThrow();
    expect(() => makeReference('abcdefabcdefabcdefabcdef', 'report final.pdf')).toThrow();
    expect(() => makeReference('ABC/../x', 'id')).toThrow();
  });
});

describe('mode decision', () => {
  const table: Array<[ScanOrigin, number, ModeChoice, 'sync' | 'async']> = [
    ['drop', 1, 'auto', 'sync'],
    ['dialog', MAX_SYNC_FILE_SIZE, 'auto', 'sync'],
    ['cli', MAX_SYNC_FILE_SIZE + 1, 'auto', 'async'],
    ['second-instance', 0, 'auto', 'sync'],
    ['rescan', 10, 'auto', 'sync'],
    ['watch', 1, 'auto', 'async'],
    ['watch', 1, 'sync', 'sync'],
    ['watch', MAX_SYNC_FILE_SIZE + 1, 'sync', 'async'],
    ['drop', 1, 'async', 'async'],
    ['cli', MAX_SYNC_FILE_SIZE, 'sync', 'sync'],
  ];
  it.each(table)('%s, %d bytes, choice %s → %s', (origin, size, choice, expected) => {
    expect(decideMode({ origin, size, choice })).toBe(expected);
  });

  it('moves a file that grew past the sync limit to async at upload time', () => {
    expect(modeForUpload('sync', MAX_SYNC_FILE_SIZE + 1, 'sync')).toBe('async');
    expect(modeForUpload('sync', MAX_SYNC_FILE_SIZE, 'async')).toBe('sync');
    expect(modeForUpload(null, 5, 'async')).toBe('async');
  });
});

describe('id queue', () => {
  it('is FIFO, lets retries jump the line, and compacts', () => {
    const queue = new IdQueue();
    for (let i = 0; i < 3000; i++) queue.push(`id-${i}`);
    for (let i = 0; i < 2000; i++) expect(queue.shift()).toBe(`id-${i}`);
    queue.pushFront('retry');
    expect(queue.size).toBe(1001);
    expect([...queue][0]).toBe('retry');
    expect(queue.shift()).toBe('retry');
    expect(queue.shift()).toBe('id-2000');
    queue.clear();
    expect(queue.shift()).toBeUndefined();
  });
});
