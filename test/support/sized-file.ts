// A file of exactly `size` bytes written as real blocks (not sparse), for the
// size-limit tests: `await writeSizedFile(path, 10 * MiB + 1, randomBytes(MiB))`.
import { open } from 'node:fs/promises';

export async function writeSizedFile(path: string, size: number, block: Buffer): Promise<string> {
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; ) {
      const { bytesWritten } = await handle.write(block, 0, Math.min(block.length, size - written));
      written += bytesWritten;
    }
  } finally {
    await handle.close();
  }
  return path;
}
