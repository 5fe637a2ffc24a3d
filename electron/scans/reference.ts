// External reference ids for submissions: `verdict/<install id>/<local id>`.
// The install id is random and persisted in the data dir, so references from
// two installs sharing one integration never collide, and contain nothing
// derived from a path, a file name or a key (spec 2.3: an identifier, never a secret).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { externalReferenceIdSchema } from '../../shared/service-contract/scan.ts';

const INSTALL_ID_FILE = 'install-id';
const INSTALL_ID_PATTERN = /^[a-z0-9]{16,64}$/;
const LOCAL_ID_PATTERN = /^[A-Za-z0-9-]{1,128}$/;
export const REFERENCE_PREFIX = 'verdict';

/** Reads the install id from the data dir, creating it (atomically) the first time. */
export async function loadInstallId(dataDir: string): Promise<string> {
  const file = join(dataDir, INSTALL_ID_FILE);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (INSTALL_ID_PATTERN.test(existing)) return existing;
    // A damaged file: replace it. Old references stay resolvable by the rows that hold them.
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = randomBytes(12).toString('hex');
  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${id}\n`, { mode: 0o600 });
  await rename(temp, file);
  return id;
}

/** The reference of one submission; `localId` is the history row's id. */
export function makeReference(installId: string, localId: string): string {
  if (!INSTALL_ID_PATTERN.test(installId)) throw new Error('install id has an unexpected form');
  if (!LOCAL_ID_PATTERN.test(localId)) throw new Error('local id has an unexpected form');
  return externalReferenceIdSchema.parse(`${REFERENCE_PREFIX}/${installId}/${localId}`);
}

/** A reference nobody will ever have used: for "test connection" (expects 404). */
export function makeProbeReference(installId: string): string {
  return makeReference(installId, `probe-${randomBytes(8).toString('hex')}`);
}
