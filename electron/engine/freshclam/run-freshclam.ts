// "Update signatures now": runs freshclam with the config Verdict writes, into
// Verdict's own database folder and nowhere else, passes its lines on as progress,
// reads its outcome, and has Verdict's own clamd reload what changed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findClamd, findFreshclam, ownDatabaseDir } from '../own-clamd/find-clamav.ts';
import { FRESHCLAM_EXTRA_FILE, freshclamConfigText, parseFreshclamExtra, type FreshclamExtra } from './freshclam-config.ts';
import { freshclamOutcome, type FreshclamOutcome } from './freshclam-outcome.ts';

export interface UpdateSignaturesInput {
  dataDir: string;
  /** Default: on PATH, else next to clamd. */
  freshclamPath?: string | null;
  mirror?: string;
  /** Tries per mirror (default 2). */
  maxAttempts?: number;
  /** Each line freshclam prints (download progress, one line per database). */
  onProgress?: (line: string) => void;
  /** Default 15 min: the first download of the official database is about 300 MB. */
  timeoutMs?: number;
  /** Verdict's own clamd, reloaded after an update (its database folder must be Verdict's). */
  reload?: () => Promise<void>;
}

export type UpdateSignaturesResult =
  | { ok: true; outcome: FreshclamOutcome; reloaded: boolean; reloadError?: string }
  | { ok: false; problem: 'freshclam_missing' | 'system_database' | 'data_dir_unwritable' | 'timeout' | 'spawn_failed'; detail: string };

/** Folders that belong to the system's updater (clamav-freshclam, Homebrew's): Verdict never writes there. */
const SYSTEM_DATABASE_DIRS = ['/var/lib/clamav', '/opt/homebrew/var/lib/clamav', '/usr/local/var/lib/clamav', '/home/linuxbrew/.linuxbrew/var/lib/clamav'];

export async function updateSignatures(input: UpdateSignaturesInput): Promise<UpdateSignaturesResult> {
  const freshclam = input.freshclamPath === undefined ? findFreshclam(findClamd()) : input.freshclamPath;
  if (freshclam === null) return { ok: false, problem: 'freshclam_missing', detail: 'no freshclam on PATH or next to clamd' };
  const databaseDir = ownDatabaseDir(input.dataDir);
  const configPath = join(input.dataDir, 'freshclam.conf');
  try {
    mkdirSync(databaseDir, { recursive: true, mode: 0o755 });
    // A link from Verdict's folder into the system's would still be the system's database.
    const real = realpathSync(databaseDir);
    if (SYSTEM_DATABASE_DIRS.some((dir) => real === dir || real.startsWith(`${dir}/`))) {
      return { ok: false, problem: 'system_database', detail: `${databaseDir} is ${real}, which the system's updater keeps` };
    }
    const extra = readExtra(input.dataDir);
    for (const key of extra.ignored) input.onProgress?.(`Verdict ignores ${key} in ${FRESHCLAM_EXTRA_FILE}: Verdict sets it, or freshclam does not know it.`);
    writeFileSync(configPath, freshclamConfigText({ databaseDir: real, mirror: input.mirror, maxAttempts: input.maxAttempts, extra: extra.lines }), { mode: 0o600 });
  } catch (error) {
    return { ok: false, problem: 'data_dir_unwritable', detail: `${databaseDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }

  const run = await runFreshclam(freshclam, configPath, input.timeoutMs ?? 900_000, input.onProgress);
  if (!run.ok) return run;
  const outcome = freshclamOutcome(run.output, run.exitCode);
  if (outcome.kind !== 'updated' || !input.reload) return { ok: true, outcome, reloaded: false };
  try {
    await input.reload();
    return { ok: true, outcome, reloaded: true };
  } catch (error) {
    return { ok: true, outcome, reloaded: false, reloadError: (error as Error).message };
  }
}

/** The user's additions (mirrors, proxy, extra databases) from the data directory, none when there is no such file. */
function readExtra(dataDir: string): FreshclamExtra {
  let text: string;
  try {
    text = readFileSync(join(dataDir, FRESHCLAM_EXTRA_FILE), 'utf8');
  } catch {
    return { lines: [], ignored: [] };
  }
  return parseFreshclamExtra(text);
}

type Run = { ok: true; output: string; exitCode: number | null } | { ok: false; problem: 'timeout' | 'spawn_failed'; detail: string };

function runFreshclam(freshclam: string, configPath: string, timeoutMs: number, onProgress?: (line: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(freshclam, [`--config-file=${configPath}`, '--stdout'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    const take = (data: Buffer) => {
      const text = data.toString('utf8');
      output = (output + text).slice(-64_000);
      pending += text;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') onProgress?.(line.trim());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, problem: 'spawn_failed', detail: `${freshclam}: ${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, problem: 'timeout', detail: `freshclam did not finish within ${timeoutMs} ms` });
      else resolve({ ok: true, output, exitCode: code });
    });
  });
}
