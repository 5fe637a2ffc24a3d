// Keeps the engine choice current while Verdict runs: while on the built-in engine,
// or when the clamd in use stops answering, it looks again (every 60 s, and when
// asked), in the order; while a clamd answers it re-reads its VERSION, so a
// reload after an update shows the new signatures. Reports each change of state.
import { protectionStatus, type ProtectionStatus } from '../../shared/engine/protection-state.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import type { OwnClamd, OwnClamdState } from './own-clamd/own-clamd.ts';
import type { DatabaseFolder } from './databases/database-digest.ts';
import { engineStatus, type EngineStatusInput } from './engine-status.ts';
import { ownRunningFolder } from './databases/database-folder.ts';
import type { DetectionSettings } from '../../shared/settings/detection.ts';

export const RECHECK_INTERVAL_MS = 60_000;

export interface EngineWatch {
  readonly status: ProtectionStatus | null;
  /** Verdict's own clamd, when it is the engine (the watch owns it and stops it on close). */
  readonly own: OwnClamd | null;
  /** The signature folder of the clamd in use, when known (Verdict's own, or the system's config). */
  readonly databaseDir: string | null;
  /** That folder and when the clamd last loaded it, when Verdict can tell (the signature identity's digest). */
  readonly databaseFolder: DatabaseFolder | null;
  /** Looks again now, as the user asked ("Check again", "Start ClamAV"): starts Verdict's own clamd even when `startOwnAtStart` is false. */
  check(): Promise<ProtectionStatus>;
  /** Looks again now on the engine's own account (at start, after a clamd stopped answering). */
  recheck(): Promise<ProtectionStatus>;
  /**
   * The signature folder for Verdict's own clamd changed (the setting): a running own clamd is
   * stopped and the next look starts it on the new folder. A system or configured clamd is not touched.
   */
  setDatabaseDir(databaseDir: string | undefined): Promise<ProtectionStatus>;
  /**
   * The detection settings for Verdict's own clamd changed (issue 28 §2): clamd reads them only at
   * start, so a running own clamd is stopped and started again with them, like a new folder.
   */
  setDetection(detection: DetectionSettings | undefined): Promise<ProtectionStatus>;
  close(): Promise<void>;
}

export interface EngineWatchInput extends EngineStatusInput {
  intervalMs?: number;
  onChange?: (status: ProtectionStatus) => void;
  /** Each state of Verdict's own clamd (loading, running, restarting, given up), as it happens. */
  onOwnState?: (state: OwnClamdState) => void;
  /** false (the setting): Verdict's own clamd starts only once the user asks (`check`), then for the rest of this run. */
  startOwnAtStart?: boolean;
}

export function watchEngine(input: EngineWatchInput): EngineWatch {
  let status: ProtectionStatus | null = null;
  let databaseDir: string | null = null;
  let databaseFolder: DatabaseFolder | null = null;
  let own: OwnClamd | null = null;
  /** The own clamd a look is starting (loading): close() stops it rather than wait for the load. */
  let loading: OwnClamd | null = null;
  let checking: Promise<ProtectionStatus> | null = null;
  let checkingAsked = false;
  let closed = false;
  let clamavDb = input.clamavDb;
  let detection = input.ownClamd?.detection;
  let ownWanted = input.startOwnAtStart !== false;
  // Every tick looks again: a clamd that appeared is taken, one that stopped answering is replaced.
  const timer = setInterval(() => void check(false).catch(() => undefined), input.intervalMs ?? RECHECK_INTERVAL_MS);
  timer.unref?.();

  async function look(asked: boolean): Promise<ProtectionStatus> {
    const now = input.now ?? new Date();
    if (own?.state.status === 'starting') return protectionStatus({ kind: 'starting', where: status?.engine.where ?? 'own clamd' }, now, MAX_ASYNC_FILE_SIZE);
    if (own?.state.status === 'not_running') {
      const { problem, detail } = own.state;
      await own.close();
      own = null;
      status = protectionStatus({ kind: 'not_running', source: 'own', where: 'own clamd', why: 'clamd_failed', params: { problem, detail } }, now, MAX_ASYNC_FILE_SIZE);
    }
    // After our own clamd failed, only the user's "check again" starts it again (a broken database must not
    // become a restart loop once a minute); the timer still takes a clamd that appears elsewhere.
    const retryOwn = ownWanted && (asked || status?.reason.code !== 'clamd_failed');
    const ownOptions = { ...input.ownClamd, detection, onState: (state: OwnClamdState) => {
      input.ownClamd?.onState?.(state);
      input.onOwnState?.(state);
    } };
    const { clamavDb: _first, startOwnAtStart: _setting, ...rest } = input;
    const found = await engineStatus({ ...rest, ...(clamavDb !== undefined ? { clamavDb } : {}), ownClamd: ownOptions, startOwn: retryOwn, onOwnCreated: (created) => (loading = created) }).finally(() => {
      loading = null;
    });
    if (!retryOwn && found.status.engine.version === null && status) return status;
    if (found.started) {
      await own?.close();
      own = found.started;
    } else if (own && found.status.engine.source !== 'own') {
      await own.close();
      own = null;
    }
    databaseDir = own?.state.status === 'running' ? own.state.databaseDir : found.databaseDir;
    databaseFolder = own ? null : found.databaseFolder;
    return found.status;
  }

  function check(asked = true): Promise<ProtectionStatus> {
    if (closed) return Promise.reject(new Error('the engine watch is closed'));
    // The user's "check again" during a timer's look gets a look of its own after it (the timer's does not retry our clamd).
    if (checking && asked && !checkingAsked) return checking.catch(() => undefined).then(() => check(true));
    if (!checking) checkingAsked = asked;
    checking ??= look(asked).then(
      (next) => {
        checking = null;
        if (closed) return next;
        const changed = JSON.stringify(next) !== JSON.stringify(status);
        status = next;
        if (changed) input.onChange?.(next);
        return next;
      },
      (error: unknown) => {
        checking = null;
        throw error;
      },
    );
    return checking;
  }

  /** Our clamd, when it is the engine, stops; the next look starts it on the current folder and settings. */
  async function restartOwn(): Promise<ProtectionStatus> {
    // A look under way finishes first (it may be starting our clamd on the old folder or settings).
    await checking?.catch(() => undefined);
    if (own) {
      await own.close();
      own = null;
      status = null;
    }
    return check(true);
  }

  return {
    get status() {
      return status;
    },
    get own() {
      return own;
    },
    get databaseDir() {
      return databaseDir;
    },
    get databaseFolder() {
      // Verdict's own clamd, run here: when it last loaded is known exactly (its start, each RELOAD).
      if (own) return own.state.status === 'running' && own.loadedAtMs !== null ? ownRunningFolder(own, own.state.databaseDir, own.loadedAtMs) : null;
      return databaseFolder;
    },
    check: () => {
      ownWanted = true;
      return check(true);
    },
    recheck: () => check(true),
    async setDatabaseDir(databaseDir) {
      if (closed) throw new Error('the engine watch is closed');
      clamavDb = databaseDir;
      return restartOwn();
    },
    async setDetection(next) {
      if (closed) throw new Error('the engine watch is closed');
      detection = next;
      return restartOwn();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await loading?.close();
      await checking?.catch(() => undefined);
      await own?.close();
      own = null;
    },
  };
}
