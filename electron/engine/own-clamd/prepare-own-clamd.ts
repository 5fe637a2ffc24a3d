// Everything checked and written before Verdict's own clamd is spawned. Each
// problem becomes a code and clamd's or the system's words, never an exception,
// so a bad setup is reported once instead of looping restarts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { checkDatabaseDir, findClamd, findDatabaseDir, isExecutable, type DatabaseOrigin } from './find-clamav.ts';
import { clamdConfigText, ownClamdFiles, type OwnClamdFiles, type OwnClamdLimits } from './clamd-config.ts';
import { acquireClamdLock } from './clamd-lock.ts';
import { endLeftoverClamd } from './leftover-clamd.ts';
import { chooseSocketPlace } from './socket-place.ts';
import { detectionKey, type DetectionSettings } from '../../../shared/settings/detection.ts';
import { detectionFromConf } from '../conf/detection-conf.ts';

export const OWN_CLAMD_PROBLEMS = [
  'unsupported_platform',
  'clamd_missing',
  'clamd_not_executable',
  'database_not_found',
  'database_missing',
  'database_unreadable',
  'database_empty',
  'socket_path_too_long',
  'sockets_unsupported',
  'data_dir_unwritable',
  'invalid_path',
  'in_use',
  'leftover_not_ended',
  'clamd_failed',
  'start_timeout',
] as const;
export type OwnClamdProblem = (typeof OWN_CLAMD_PROBLEMS)[number];

export interface OwnClamdSetup {
  clamdPath?: string;
  /** The configured signature folder (setting or --clamav-db); else Verdict's own, else the system's. */
  databaseDir?: string;
  dataDir: string;
  /** For the socket fallback (default the OS temp dir). */
  tempDir?: string;
  /** Scan limits other than the defaults (tests set small ones to reach them). */
  limits?: OwnClamdLimits;
  /** The user's detection settings (issue 28 §2); absent: the desktop defaults. Plain data: it crosses the service's thread. */
  detection?: DetectionSettings;
}

export interface PreparedClamd {
  clamdPath: string;
  databaseDir: string;
  databaseOrigin: DatabaseOrigin;
  socketPath: string;
  files: OwnClamdFiles;
  /** The detection settings' key of the config written (engine identity `detection`). */
  detection: string | undefined;
  releaseLock(): void;
}

export type Prepared = { ok: true; value: PreparedClamd } | { ok: false; problem: OwnClamdProblem; detail: string };

export async function prepareOwnClamd(setup: OwnClamdSetup): Promise<Prepared> {
  // ClamAV for Windows has no LocalSocket; its own clamd would need TCP (left for later).
  if (process.platform === 'win32') return fail('unsupported_platform', 'Verdict runs its own clamd on Linux and macOS only');
  const clamdPath = setup.clamdPath ?? findClamd();
  if (clamdPath === null) return fail('clamd_missing', 'no clamd on PATH or in the usual places');
  if (!isExecutable(clamdPath)) return fail('clamd_not_executable', clamdPath);
  const database = findDatabaseDir({ configured: setup.databaseDir, dataDir: setup.dataDir, clamdPath });
  if (!database.found) return fail('database_not_found', database.tried.join(', '));
  // One line per setting in clamd.conf: a line break in a path would add settings of its own.
  if (/[\r\n]/.test(`${database.dir}${setup.dataDir}${setup.tempDir ?? ''}`)) return fail('invalid_path', 'a path contains a line break');
  const contents = checkDatabaseDir(database.dir);
  if (!contents.ok) return fail(contents.problem, `${database.dir}: ${contents.detail}`);

  const files = ownClamdFiles(setup.dataDir);
  try {
    mkdirSync(setup.dataDir, { recursive: true, mode: 0o700 });
    mkdirSync(files.tempDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return fail('data_dir_unwritable', `${setup.dataDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const lock = acquireClamdLock(files.lockPath);
  if (!lock.ok) return fail('in_use', `Verdict process ${lock.ownerPid} runs the clamd of ${setup.dataDir}`);
  const ready = await afterLock(setup, files);
  if (!ready.ok) {
    lock.release();
    return ready;
  }
  return { ok: true, value: { clamdPath, databaseDir: database.dir, databaseOrigin: database.origin, socketPath: ready.socketPath, files, detection: ready.detection, releaseLock: () => lock.release() } };

  async function afterLock(s: OwnClamdSetup, f: OwnClamdFiles): Promise<{ ok: true; socketPath: string; detection: string | undefined } | { ok: false; problem: OwnClamdProblem; detail: string }> {
    const leftover = await endLeftoverClamd(f.pidPath, f.configPath);
    if (leftover.outcome === 'could_not_end') return fail('leftover_not_ended', `clamd ${leftover.pid} from an earlier run would not stop`);
    const place = await chooseSocketPlace(s.dataDir, { tempDir: s.tempDir });
    if (!place.ok) return fail(place.problem, place.detail);
    const text = clamdConfigText({ files: f, socketPath: place.socketPath, databaseDir: database.found ? database.dir : '', ...(s.limits ? { limits: s.limits } : {}), ...(s.detection ? { detection: s.detection } : {}) });
    try {
      writeFileSync(f.configPath, text, { mode: 0o600 });
    } catch (error) {
      return fail('data_dir_unwritable', `${f.configPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    // Read back from the text, so the key says what clamd runs with (test limits included).
    return { ok: true, socketPath: place.socketPath, detection: detectionKey(detectionFromConf(text)) };
  }
}

function fail(problem: OwnClamdProblem, detail: string): { ok: false; problem: OwnClamdProblem; detail: string } {
  return { ok: false, problem, detail };
}
