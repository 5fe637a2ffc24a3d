// A tree of distinct small files for the cases that scan many files (nothing in it is reused).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const PER_FOLDER = 1_000;

/** `count` files of 64–1,087 distinct bytes, a thousand to a folder. */
export async function writeSmallTree(root: string, count: number): Promise<void> {
  for (let folder = 0; folder * PER_FOLDER < count; folder += 1) {
    const dir = path.join(root, `d${folder}`);
    await mkdir(dir, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = folder * PER_FOLDER; i < Math.min(count, (folder + 1) * PER_FOLDER); i += 1) {
      writes.push(writeFile(path.join(dir, `f${i}.txt`), Buffer.alloc(64 + (i % 1024), `verdict-tree-${i}-`)));
    }
    await Promise.all(writes);
  }
}
