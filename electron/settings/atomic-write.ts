// Replaces a file so that a crash or power cut at any moment leaves either the
// old or the new content, never a mix: write a temp file in the same folder,
// fsync it, rename it over the target, fsync the folder.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

const TEMP_MARKER = '.tmp-';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0o600: settings and exports are the user's alone). */
  mode?: number;
}

/**
 * Writes `data` (a string, bytes, or chunks produced one at a time) to `target` atomically.
 * On failure the temp file is removed and the old target is untouched.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temp = `${target}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(temp, 'wx', options.mode ?? 0o600);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) {
      await handle.writeFile(data);
    } else {
      // Each chunk is written (fully: writeFile loops over short writes, from the current
      // position) before the next is produced, so memory stays at one chunk.
      for await (const chunk of data) await handle.writeFile(chunk);
    }
    await handle.sync();
    await handle.close();
    await rename(temp, target);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await syncDirectory(path.dirname(target));
}

/** Makes the rename itself durable. Not every platform can fsync a folder (Windows): that is fine. */
export async function syncDirectory(dir: string | Buffer): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR/EPERM/EINVAL on platforms without directory fsync.
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Removes temp files a killed process left beside `target`. Only ones older than
 * `minAgeMs`, so a write in progress in another process (app and CLI) is left alone.
 */
export async function removeStaleTempFiles(target: string, minAgeMs = 60_000): Promise<string[]> {
  const dir = path.dirname(target);
  const prefix = `${path.basename(target)}${TEMP_MARKER}`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const full = path.join(dir, name);
    try {
      const info = await stat(full);
      if (Date.now() - info.mtimeMs < minAgeMs) continue;
      await unlink(full);
      removed.push(full);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}
