// Where ClamAV's programs and a signature database are on this machine, in the
// order the issue sets: the executable on PATH or at the packages' usual places;
// the database folder configured, else Verdict's own, else the system's.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

export interface Platform {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

const HOST: Platform = { env: process.env, platform: process.platform };

/** Where packages put clamd, after PATH. */
const CLAMD_PLACES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/usr/sbin/clamd', '/usr/local/sbin/clamd', '/home/linuxbrew/.linuxbrew/sbin/clamd'],
  darwin: ['/opt/homebrew/sbin/clamd', '/usr/local/sbin/clamd'],
  win32: ['C:\\Program Files\\ClamAV\\clamd.exe'],
};

/** The system's signature folders, after Verdict's own; Windows' is next to clamd.exe. */
const SYSTEM_DATABASE_DIRS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/var/lib/clamav', '/home/linuxbrew/.linuxbrew/var/lib/clamav'],
  darwin: ['/opt/homebrew/var/lib/clamav', '/usr/local/var/lib/clamav'],
};

/** Files clamd loads from its DatabaseDirectory (official containers and the custom formats). */
export const DATABASE_FILE = /\.(cvd|cld|cud|hdb|hsb|hdu|hsu|mdb|msb|mdu|msu|ndb|ndu|ldb|ldu|idb|cdb|cbc|pdb|gdb|wdb|ftm|fp|sfp|ign|ign2|crb|cat|info|yar|yara|pwdb|imp|sign)$/i;

/** Executable named `name` (plus `.exe` on Windows) on PATH, then at `places`; null when none. */
export function findExecutable(name: string, places: readonly string[], host: Platform = HOST): string | null {
  const file = host.platform === 'win32' ? `${name}.exe` : name;
  const onPath = (host.env.PATH ?? host.env.Path ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, file));
  for (const candidate of [...onPath, ...places]) if (isExecutable(candidate)) return candidate;
  return null;
}

export function findClamd(host: Platform = HOST): string | null {
  return findExecutable('clamd', CLAMD_PLACES[host.platform] ?? [], host);
}

/** freshclam on PATH, else next to clamd (the same folder, or `bin` beside clamd's `sbin`). */
export function findFreshclam(clamdPath: string | null, host: Platform = HOST): string | null {
  const file = host.platform === 'win32' ? 'freshclam.exe' : 'freshclam';
  const beside = clamdPath === null ? [] : [join(dirname(clamdPath), file), join(dirname(clamdPath), '..', 'bin', file)];
  return findExecutable('freshclam', beside, host);
}

export function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type DatabaseOrigin = 'configured' | 'own' | 'system';

export type DatabaseChoice =
  | { found: true; dir: string; origin: DatabaseOrigin }
  | { found: false; tried: string[] };

/** Verdict's own database folder, which freshclam fills. */
export function ownDatabaseDir(dataDir: string): string {
  return join(dataDir, 'clamav-db');
}

/**
 * The database folder to use. A configured folder is taken as it is (a bad one is
 * reported by `checkDatabaseDir`, not silently replaced); the others only when they
 * hold a database.
 */
export function findDatabaseDir(input: { configured?: string; dataDir: string; clamdPath: string | null }, host: Platform = HOST): DatabaseChoice {
  if (input.configured !== undefined) return { found: true, dir: resolve(input.configured), origin: 'configured' };
  const own = ownDatabaseDir(input.dataDir);
  if (checkDatabaseDir(own).ok) return { found: true, dir: own, origin: 'own' };
  const system = [...(SYSTEM_DATABASE_DIRS[host.platform] ?? [])];
  if (host.platform === 'win32' && input.clamdPath !== null) system.push(join(dirname(input.clamdPath), 'database'));
  for (const dir of system) if (checkDatabaseDir(dir).ok) return { found: true, dir, origin: 'system' };
  return { found: false, tried: [own, ...system] };
}

export type DatabaseCheck = { ok: true; files: string[] } | { ok: false; problem: 'database_missing' | 'database_unreadable' | 'database_empty'; detail: string };

/** Whether clamd would find anything to load in `dir` (it refuses to start on an empty folder). */
export function checkDatabaseDir(dir: string): DatabaseCheck {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, problem: code === 'ENOENT' ? 'database_missing' : 'database_unreadable', detail: code };
  }
  const files = names.filter((name) => DATABASE_FILE.test(name)).sort();
  if (files.length === 0) return { ok: false, problem: 'database_empty', detail: `${names.length} files, none a signature database` };
  return { ok: true, files };
}
