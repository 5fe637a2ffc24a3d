// A file nobody may read, not even root (tests often run as root, who may read
// any file whatever its mode): the kernel's write-only /proc/sys/vm/drop_caches.
import { stat } from 'node:fs/promises';

export const WRITE_ONLY_FILE = '/proc/sys/vm/drop_caches';

/** The write-only file, or null where it does not exist or can be read (then the case cannot be tested here). */
export async function unreadableFile(): Promise<string | null> {
  const mode = (await stat(WRITE_ONLY_FILE).catch(() => null))?.mode;
  return mode !== undefined && (mode & 0o444) === 0 ? WRITE_ONLY_FILE : null;
}
