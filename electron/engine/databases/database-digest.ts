// Which signatures a clamd holds, beyond its VERSION line: a digest of every database file
// in the folder it loads, so a custom database or a third-party feed that changes without
// changing the official daily version still changes the identity verdicts carry (verdict
// reuse and the unchanged-file skip compare it).
import { createHash } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseClamdVersion, type EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { DATABASE_FILE } from '../own-clamd/find-clamav.ts';

/** Signed containers: a 512-byte text header `ClamAV-VDB:build time:version:signatures:level:md5:dsig:builder:stime`. */
const CONTAINER = /\.(cvd|cld|cud)$/i;
const HEADER_BYTES = 512;
const HEADER_START = 'ClamAV-VDB:';

/**
 * The folder a clamd loads, and when it last loaded it (ms since the epoch): a database changed
 * since is not in clamd yet (clamd reads the folder at start, at RELOAD and at its SelfCheck), so
 * the folder then does not tell what clamd holds. Exact for Verdict's own clamd run by this process;
 * otherwise an estimate that errs early (database-folder.ts).
 */
export interface DatabaseFolder {
  dir: string;
  loadedAtMs: number;
  /** The detection settings' key of Verdict's own clamd (identity `detection`; absent: the defaults, or not ours). */
  detection?: string;
}

/**
 * The identity in clamd's VERSION answer, its signatures known by the database folder when
 * Verdict can read it and it has not changed since clamd loaded it (basis `databases` and the
 * digest), else by the VERSION line alone: then the identity is VERSION's, without a basis (as
 * every identity was before), so verdicts and states of such a clamd read exactly as they did.
 */
export async function clamdIdentityWithDatabases(versionLine: string, folder: DatabaseFolder | null): Promise<EngineIdentity | null> {
  const identity = parseClamdVersion(versionLine);
  if (!identity) return null;
  const databases = folder === null ? null : await digestDatabases(folder.dir, versionLine, folder.loadedAtMs);
  const detection = folder?.detection === undefined ? {} : { detection: folder.detection };
  return databases === null ? { ...identity, ...detection } : { ...identity, signatureBasis: 'databases', databases, ...detection };
}

/**
 * sha256 of the VERSION line and, per database file in name order, its name, size and either
 * its container header or its times. null when the folder cannot be read or holds no database,
 * or when the folder or a database in it changed at or after `loadedAtMs` (ctime, which no
 * writer can set back): clamd may not hold that change yet.
 *
 * A container's header stands for its content: it names the build time, the version, the number
 * of signatures and the MD5 of what it holds. A plain database (.ndb, .hdb, .yar…) has no header,
 * and hashing every database at every look (once a minute) would read up to hundreds of MB; its
 * size and times stand for it instead: a writer that replaces or edits it changes its mtime, and
 * its ctime changes even when the mtime is set back afterwards (`touch -r`, `rsync -t`). ctime also
 * changes on a chmod: that only costs one rescan, never a wrong reuse.
 */
export async function digestDatabases(dir: string, versionLine: string, loadedAtMs = Number.POSITIVE_INFINITY): Promise<string | null> {
  let names: string[];
  try {
    // A database added, removed or renamed changes the folder's own times.
    if ((await stat(dir)).ctimeMs >= loadedAtMs) return null;
    const entries = await readdir(dir, { withFileTypes: true });
    // clamd loads the folder's own files (a link to one too), not its subfolders (freshclam's temporary ones).
    names = entries.filter((entry) => !entry.isDirectory() && DATABASE_FILE.test(entry.name)).map((entry) => entry.name);
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  names.sort();
  const hash = createHash('sha256').update(`${versionLine.trim()}\n`);
  for (const name of names) {
    const described = await describeDatabase(join(dir, name), name);
    if (described === 'changed') return null;
    // A file that vanished meanwhile (an update replacing it) is left out: the next look sees the new one.
    if (described !== null) hash.update(`${described.line}\n`);
  }
  return hash.digest('hex');

  async function describeDatabase(file: string, name: string): Promise<{ line: string } | 'changed' | null> {
    try {
      const info = await stat(file, { bigint: true });
      if (!info.isFile()) return null;
      if (Number(info.ctimeNs / 1_000_000n) >= loadedAtMs) return 'changed';
      const header = CONTAINER.test(name) ? await containerHeader(file) : null;
      const rest = header ?? `${info.mtimeNs}/${info.ctimeNs}`;
      return { line: `${JSON.stringify(name)} ${info.size} ${rest}` };
    } catch {
      return null;
    }
  }
}

/** The header's text (NUL and space padding removed), or null when the file does not start with one. */
async function containerHeader(file: string): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('latin1').replace(/[\0 ]+$/, '');
    return text.startsWith(HEADER_START) ? text : null;
  } finally {
    await handle.close();
  }
}
