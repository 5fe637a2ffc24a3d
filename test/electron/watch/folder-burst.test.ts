// A burst of files landing at once: every one reported exactly once, none lost.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { collect, folder, waitFor } from './support/collector.ts';
import { useTempFolders } from './support/temp-folders.ts';

const { tempDir, onCleanup } = useTempFolders();

it('reports each of 2,000 files written at once exactly once', async () => {
  const dir = await tempDir();
  const c = collect({ folders: [folder('a', dir)] });
  onCleanup(() => c.close());
  await c.watcher.started();
  const count = 2000;
  const names = Array.from({ length: count }, (_, index) => path.join(dir, index % 2 ? `sub/file-${index}.bin` : `file-${index}.bin`));
  await fs.mkdir(path.join(dir, 'sub'));
  // 50 writers at a time, some files written in two steps.
  for (let start = 0; start < count; start += 50) {
    await Promise.all(
      names.slice(start, start + 50).map(async (name, offset) => {
        await fs.writeFile(name, `content ${start + offset}`);
        if (offset % 5 === 0) await fs.appendFile(name, ' and more');
      }),
    );
  }
  await waitFor('all 2,000 files reported', () => new Set(c.files.map((file) => file.path)).size >= count, 60_000);
  await c.barrier(dir);
  const perPath = new Map<string, number>();
  for (const file of c.files) perPath.set(file.path, (perPath.get(file.path) ?? 0) + 1);
  for (const name of names) expect(perPath.get(name), name).toBe(1);
  expect(c.files.filter((file) => !path.basename(file.path).startsWith('barrier'))).toHaveLength(count);
  for (const file of c.files) expect(file.size).toBe((await fs.stat(file.path)).size);
});
