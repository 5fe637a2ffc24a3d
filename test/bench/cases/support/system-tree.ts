// A real tree for the home-folder case (issue 26): regular files copied from this machine's
// own /usr/share and /usr/lib in the order a sorted walk meets them, duplicates as they come,
// with their folders. ClamAV's test files are left out (they are meant to be detected), and so
// are files over a size cap (a few libraries of hundreds of MB would make the case about them).
import { copyFile, lstat, mkdir, opendir } from 'node:fs/promises';
import path from 'node:path';

const SOURCES = ['/usr/share', '/usr/lib'];
const LEFT_OUT = ['/usr/share/clamav-testfiles', '/usr/share/doc/clamav-testfiles'];
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface CopiedTree {
  files: number;
  bytes: number;
}

async function* regularFiles(dir: string): AsyncGenerator<{ path: string; size: number }> {
  if (LEFT_OUT.includes(dir)) return;
  let entries: string[];
  try {
    const handle = await opendir(dir);
    entries = [];
    for await (const entry of handle) entries.push(entry.name);
  } catch {
    return; // unreadable: not part of the tree
  }
  for (const name of entries.sort()) {
    const full = path.join(dir, name);
    const stats = await lstat(full).catch(() => null);
    if (stats?.isDirectory()) yield* regularFiles(full);
    else if (stats?.isFile() && stats.size <= MAX_FILE_BYTES) yield { path: full, size: stats.size };
  }
}

/** Copies up to `count` files into `target` (source folders kept below it); returns what it copied. */
export async function copySystemTree(target: string, count: number): Promise<CopiedTree> {
  let files = 0;
  let bytes = 0;
  for (const source of SOURCES) {
    for await (const file of regularFiles(source)) {
      if (files >= count) return { files, bytes };
      const to = path.join(target, file.path);
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(file.path, to).then(
        () => {
          files += 1;
          bytes += file.size;
        },
        () => {}, // unreadable: left out
      );
    }
  }
  return { files, bytes };
}
