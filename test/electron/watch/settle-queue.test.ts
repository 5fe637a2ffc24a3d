// The settle queue on real files: released once unchanged for the threshold, in order, bounded.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createSettleQueue, type FileVersion } from '../../../electron/watch/settle-queue.ts';
import { makeTempDir, waitFor } from './support/collector.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function queue(settleMs: number) {
  const settled: Array<{ path: string; folderId: string; version: FileVersion }> = [];
  const q = createSettleQueue({ settleMs, concurrency: 4, onSettled: (file, folderId, version) => void settled.push({ path: file, folderId, version }) });
  cleanups.push(async () => q.close());
  return { q, settled };
}

it('releases a file once, with the version it settled at, and forgets it', async () => {
  const dir = await makeTempDir();
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  const { q, settled } = queue(100);
  const file = path.join(dir, 'a.txt');
  await fs.writeFile(file, 'abc');
  q.touch(file, 'f', await fs.lstat(file));
  expect(q.size).toBe(1);
  await waitFor('the release', () => settled.length === 1);
  expect(settled[0]).toMatchObject({ path: file, folderId: 'f', version: { size: 3 } });
  expect(q.size).toBe(0);
});

it('holds a file that changed since the last event until it stops changing', async () => {
  const dir = await makeTempDir();
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  const { q, settled } = queue(400);
  const file = path.join(dir, 'growing.bin');
  await fs.writeFile(file, 'x');
  // One event saw the first byte; the file keeps growing for 3x the threshold without
  // another event (as on a network share), in steps 20x shorter than the threshold.
  q.touch(file, 'f', await fs.lstat(file));
  for (let step = 1; step < 60; step += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fs.appendFile(file, 'y');
    expect(settled).toEqual([]);
  }
  await waitFor('the release', () => settled.length === 1);
  expect(settled[0]?.version.size).toBe(60);
});

it('drops files that vanished or are no regular file, and whole folders on request', async () => {
  const dir = await makeTempDir();
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  const { q, settled } = queue(50);
  q.touch(path.join(dir, 'never-existed'), 'f');
  q.touch(dir, 'f');
  await fs.writeFile(path.join(dir, 'dropped.txt'), 'x');
  q.touch(path.join(dir, 'dropped.txt'), 'g', undefined, true);
  expect(q.dropFolder('g')).toEqual({ dropped: 1, droppedInitial: 1 });
  await fs.writeFile(path.join(dir, 'last.txt'), 'x');
  q.touch(path.join(dir, 'last.txt'), 'f', await fs.lstat(path.join(dir, 'last.txt')));
  await waitFor('the last file', () => settled.some((entry) => entry.path.endsWith('last.txt')));
  expect(settled.map((entry) => path.basename(entry.path))).toEqual(['last.txt']);
  await waitFor('an empty queue', () => q.size === 0);
});
