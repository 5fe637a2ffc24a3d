// What every setup step of the core shares: where its data lives, the caller's
// options and knobs, the logger, the settings store, and the teardown list that
// close() (or a failed start) runs in reverse order of registration.
import type { JobPlaces } from '../jobs/job-roots.ts';
import type { SchedulerClock } from '../jobs/schedule/clock.ts';
import { join } from 'node:path';
import { err, type Result } from '../../shared/result.ts';
import type { QuarantineOptions } from '../quarantine/quarantine.ts';
import { createLogger, createSecretList, type Logger, type SecretList } from '../logging/logger.ts';
import type { ServiceTimeouts } from '../service-client/service-client.ts';
import { openSettings, type SettingsStore } from '../settings/settings-store.ts';
import type { CoreOptions } from './core.ts';
import { DISK_FULL_CODE, isDiskFull } from './disk-full.ts';
import { diskFullTexts } from './disk-full-text.ts';
import type { VirusTotalTuning } from '../virustotal/virustotal.ts';
import type { DrivesTuning } from './setup-drives.ts';

/** Knobs for tests and CLIs; the app uses the defaults. */
export interface CoreTuning {
  /** Watch settings.watchedFolders (default true; the `scan` CLI turns it off). */
  watch?: boolean;
  /** The history's SQLite page cache in KiB (default: history.ts's; the CLI keeps a small one, electron/cli/memory-flags.ts). */
  historyCacheKib?: number;
  /** Checkpoint the history's WAL on a thread of its own (default true, for the window's sake; the CLI checkpoints in its commits: one V8 isolate less). */
  walCheckpointThread?: boolean;
  /** Without the thread: the WAL's pages before a commit checkpoints it (default SQLite's 1,000). */
  walAutocheckpointPages?: number;
  /** Longest a grouped history write waits for its commit (default history.ts's 50 ms). */
  historyCommitWindowMs?: number;
  /** A job's clean file moves to the compact store with its verdict (history.ts compactOnVerdict; default false, the CLI's true). */
  compactOnVerdict?: boolean;
  concurrency?: number;
  maxProcessing?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  budget?: { ratePerSecond: number; burst: number };
  poll?: { initialDelayMs?: number; maxDelayMs?: number };
  clientRetry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number; deadlineMs?: number };
  /** Client timeouts (tests shorten them to exercise the timeout path). */
  timeouts?: Partial<ServiceTimeouts>;
  /** Watch settle time (ms). */
  watchSettleMs?: number;
  /** How often history retention runs besides start and settings changes (default 6 h). */
  retentionIntervalMs?: number;
  /** Log to stderr instead of a file when no logFile is given (default: a file in the data dir). */
  logToStderr?: boolean;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Start scheduled scans (default true; the CLI turns it off: a `scan` run never starts another job). */
  schedules?: boolean;
  /** The schedules' clock (tests give a fake one; default: the system's). */
  scheduleClock?: SchedulerClock;
  /** Where scan jobs look (home, temp folder; default: this process's). Tests give fake ones. */
  jobPlaces?: JobPlaces;
  /** The protection state: how often it is looked at again, the system clamd.conf, freshclam's path and mirror (tests). */
  engine?: {
    /** The embedded service's live engine: how often it looks again, how long files wait for ClamAV. */
    live?: { recheckMs?: number; waitLimitMs?: number };
    /** The clamd Verdict's own clamd runs (default: found on PATH or at the usual places). */
    ownClamdPath?: string;
    /** false: no automatic signature updates whatever the setting says (tests that must not run freshclam). */
    autoUpdate?: boolean;
    systemConfigPath?: string;
    freshclam?: { freshclamPath?: string | null; mirror?: string; maxAttempts?: number };
  };
  /** The recheck after a signature update: automatic on signature changes (default true; `verdict recheck` starts it itself). */
  recheck?: { automatic?: boolean; settleMs?: number };
  /** VirusTotal lookups: a stand-in for its API and a clock (tests only; never a setting). */
  virusTotal?: VirusTotalTuning;
  /** Removable drives: the mount roots looked at and how often (tests); watched only with CoreOptions.watchDrives. */
  drives?: DrivesTuning;
  /** Called at each named step of a quarantine operation (crash tests kill the process there). */
  onQuarantineStep?: QuarantineOptions['onStep'];
}

/** The message-first logger shape the pipeline and the backend manager take. */
export interface StepLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface CoreContext {
  readonly dataDir: string;
  readonly options: CoreOptions;
  readonly tuning: CoreTuning;
  readonly secrets: SecretList;
  readonly log: Logger;
  readonly stepLog: StepLog;
  readonly settings: SettingsStore;
  /** Registers a teardown step; close() runs them in reverse order. */
  onClose(cleanup: () => unknown): void;
}

/** Teardown steps, run last-registered first, each best effort. */
export interface Teardown {
  add(cleanup: () => unknown): void;
  run(): Promise<void>;
}

export function createTeardown(): Teardown {
  const cleanups: Array<() => unknown> = [];
  return {
    add: (cleanup) => void cleanups.push(cleanup),
    async run() {
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch {
          // Best effort while tearing down.
        }
      }
    },
  };
}

/** The logger (secrets scrubbed) and the settings store: what every later step reads. */
export async function openCoreContext(dataDir: string, options: CoreOptions, tuning: CoreTuning, teardown: Teardown): Promise<CoreContext> {
  const secrets = options.secrets ?? createSecretList();
  const log: Logger = createLogger({
    file: options.logFile ?? (tuning.logToStderr ? undefined : join(dataDir, 'logs', 'core.log')),
    secrets,
    level: tuning.logLevel ?? 'info',
    base: { process: 'core' },
  });
  teardown.add(() => log.flush());
  if (options.serviceOverride) secrets.add(options.serviceOverride.apiKey);

  const settings = await openSettings(dataDir);
  if (settings.warning) log.warn({ warning: settings.warning }, 'settings');
  const stepLog: StepLog = {
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
  return { dataDir, options, tuning, secrets, log, stepLog, settings, onClose: teardown.add };
}

/**
 * Runs a facade call, turning anything it throws into an `internal_error` Result
 * (every public method returns a Result; nothing throws at a caller after start),
 * or `data_disk_full` naming the data directory (a settings save, a quarantine action).
 */
export type Guard = <T>(what: string, fn: () => Promise<Result<T>> | Result<T>) => Promise<Result<T>>;

export function createGuard(log: Logger, dataDir: string): Guard {
  return async (what, fn) => {
    try {
      return await fn();
    } catch (error) {
      log.error({ err: error }, `${what} failed`);
      if (isDiskFull(error, dataDir)) return err(DISK_FULL_CODE, `${what} failed: ${diskFullTexts('en').problem(dataDir)}`, { dataDir });
      return err('internal_error', `${what} failed: ${(error as Error).message}`);
    }
  };
}
