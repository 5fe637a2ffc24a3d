// Watching files whose names are not UTF-8, on real files: chokidar alone never reports them
// (its lossy path names no file); the watcher finds them through the folder's listing as bytes,
// live and among the files already there, each reported once by its exact name and never
// confused with a file really named with U+FFFD.
import { appendFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesOf, byteNamePath, mkdirByteName, rawPath, writeByteName } from '../../support/byte-names.ts';
import { collect, folder, type Collector } from './support/collector.ts';
import { useTempFolders } from './support/temp-folders.ts';

const { tempDir, onCleanup } = useTempFolders();

async function watching(options: Parameters<typeof collect>[0]): Promise<Collector> {
  const collector = collect(options);
  onCleanup(() => collector.close());
  await collector.watcher.started();
  for (const status of collector.watcher.statuses()) expect(status.state, status.error ?? '').toBe('watching');
  return collector;
}

describe('watching names that are not UTF-8', () => {
  it('reports a file that lands as live\\xfe.txt once, by its exact name, and a changed version again', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const file = writeByteName(dir, bytesOf('live\xfe.txt'), 'first');
    const report = await c.waitForReport(file);
    expect(report).toMatchObject({ path: file, size: 5, folderId: 'a' });
    appendFileSync(rawPath(file), ' and second');
    await c.waitForReport(file, 'the second version');
    await c.barrier(dir);
    expect(c.reportsOf(file).map((found) => found.size)).toEqual([5, 16]);
  });

  it('tells col\\xff.com from col\\xef\\xbf\\xbd.com landing together, in a subfolder', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const sub = path.join(dir, 'sub');
    await fs.mkdir(sub);
    const invalid = writeByteName(sub, bytesOf('col\xff.com'), 'invalid one');
    const replacement = writeByteName(sub, bytesOf('col\xef\xbf\xbd.com'), 'the U+FFFD one');
    await c.waitForReport(invalid);
    await c.waitForReport(replacement);
    await c.barrier(dir);
    expect(c.reportsOf(invalid).map((found) => found.size)).toEqual(['invalid one'.length]);
    expect(c.reportsOf(replacement).map((found) => found.size)).toEqual(['the U+FFFD one'.length]);
  });

  it('reports such files already there with scanExisting, also in a folder moved in later', async () => {
    const dir = await tempDir();
    const there = writeByteName(dir, bytesOf('old\xe9.doc'), 'was there');
    const c = await watching({ folders: [folder('a', dir, { scanExisting: true })] });
    await c.waitForReport(there);
    const outside = await tempDir();
    const moved = mkdirByteName(outside, bytesOf('plain-folder'));
    writeByteName(moved, bytesOf('in\xfa'), 'moved in');
    await fs.rename(moved, path.join(dir, 'plain-folder'));
    await c.waitForReport(byteNamePath(path.join(dir, 'plain-folder'), bytesOf('in\xfa')));
    await c.barrier(dir);
    expect(c.reportsOf(there)).toHaveLength(1);
  });
});
