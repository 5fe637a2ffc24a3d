// Verdict's own clamd, supervised: prepared once (prepare-own-clamd.ts), then
// started, watched and restarted with backoff when it dies. After `maxQuickFailures`
// runs that ended soon after starting it stays down as `not_running`, with clamd's
// own words, instead of looping. close() stops it and frees the data directory.
import { startClamdRun, type ClamdRun } from './clamd-run.ts';
import { clamdVersion } from './clamd-commands.ts';
import { reloadAndMark } from './reload-and-mark.ts';
import { prepareOwnClamd, type OwnClamdProblem, type OwnClamdSetup, type PreparedClamd } from './prepare-own-clamd.ts';
import { removeFile } from './clamd-lock.ts';
import { databasesLoadedAt, markDatabasesLoading } from './databases-loaded.ts';

export type OwnClamdState =
  | { status: 'stopped' }
  /** Loading its signatures (tens of seconds with the official database); `attempt` counts restarts from 1. */
  | { status: 'starting'; attempt: number; socketPath: string | null }
  | { status: 'running'; pid: number; socketPath: string; versionLine: string; databaseDir: string; databaseOrigin: PreparedClamd['databaseOrigin'] }
  | { status: 'not_running'; problem: OwnClamdProblem; detail: string };

export interface OwnClamdOptions extends OwnClamdSetup {
  /** Longest wait for the first PONG of a run (default 5 min: the official database loads slowly on small machines). */
  startTimeoutMs?: number;
  /** Waits before each restart (default 1 s, 5 s, 30 s; the last repeats). */
  backoffMs?: readonly number[];
  /** Runs that end within `quickFailureMs` of their start that make Verdict give up (default 3). */
  maxQuickFailures?: number;
  quickFailureMs?: number;
  /** End clamd when this process dies, even by SIGKILL (default true; off only to test the leftover path). */
  watchdog?: boolean;
  onState?: (state: OwnClamdState) => void;
}

const DEFAULTS = { startTimeoutMs: 300_000, backoffMs: [1_000, 5_000, 30_000], maxQuickFailures: 3, quickFailureMs: 60_000 };

export class OwnClamd {
  #state: OwnClamdState = { status: 'stopped' };
  #prepared: PreparedClamd | null = null;
  #run: ClamdRun | null = null;
  #closing = false;
  #quickFailures = 0;
  #attempt = 0;
  #restartTimer: NodeJS.Timeout | null = null;
  #waiters: ((state: OwnClamdState) => void)[] = [];
  readonly #options: OwnClamdOptions;

  constructor(options: OwnClamdOptions) {
    this.#options = options;
  }

  get state(): OwnClamdState {
    return this.#state;
  }

  /**
   * When the running clamd last read its database folder (ms since the epoch): marked before it
   * starts and before each RELOAD (databases-loaded.ts), so a database changed after it is known not to be loaded.
   */
  get loadedAtMs(): number | null {
    return this.#state.status === 'running' ? databasesLoadedAt(this.#options.dataDir) : null;
  }

  /** The detection settings' key of the running clamd (engine identity `detection`; undefined: the defaults, or not running). */
  get detection(): string | undefined {
    return this.#state.status === 'running' ? this.#prepared?.detection : undefined;
  }

  /** The pid of the running clamd, for tests and memory figures. */
  get pid(): number | null {
    return this.#run?.pid ?? null;
  }

  /** Prepares and starts clamd; resolves when it answers, or with the reason it does not. */
  async start(): Promise<OwnClamdState> {
    if (this.#state.status !== 'stopped' && this.#state.status !== 'not_running') return this.whenSettled();
    this.#closing = false;
    this.#quickFailures = 0;
    this.#attempt = 0;
    this.#set({ status: 'starting', attempt: 1, socketPath: null });
    const prepared = await prepareOwnClamd(this.#options);
    if (!prepared.ok) {
      this.#set({ status: 'not_running', problem: prepared.problem, detail: prepared.detail });
      return this.#state;
    }
    if (this.#closing) {
      // close() came while the files were being prepared: nothing was started.
      prepared.value.releaseLock();
      return this.#state;
    }
    this.#prepared = prepared.value;
    this.#launch();
    return this.whenSettled();
  }

  /** Asks the running clamd to load its database folder again (after freshclam, or a changed folder). */
  async reload(): Promise<void> {
    if (this.#state.status !== 'running') throw new Error(`clamd is not running (${this.#state.status})`);
    // Marked once clamd uses the new databases, not before (reload-and-mark.ts).
    await reloadAndMark(this.#options.dataDir, { socketPath: this.#state.socketPath });
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.#restartTimer) clearTimeout(this.#restartTimer);
    this.#restartTimer = null;
    const run = this.#run;
    this.#run = null;
    if (run) await run.stop();
    if (this.#prepared) {
      removeFile(this.#prepared.files.pidPath);
      this.#prepared.releaseLock();
      this.#prepared = null;
    }
    this.#set({ status: 'stopped' });
  }

  #launch(): void {
    const prepared = this.#prepared;
    if (!prepared || this.#closing) return;
    this.#attempt++;
    this.#set({ status: 'starting', attempt: this.#attempt, socketPath: prepared.socketPath });
    markDatabasesLoading(this.#options.dataDir);
    const run = startClamdRun({
      clamdPath: prepared.clamdPath,
      configPath: prepared.files.configPath,
      pidPath: prepared.files.pidPath,
      logPath: prepared.files.logPath,
      socketPath: prepared.socketPath,
      watchdog: this.#options.watchdog ?? true,
    });
    this.#run = run;
    void run.exited.then((how) => this.#onExit(run, how));
    void run.waitUntilAnswering(this.#options.startTimeoutMs ?? DEFAULTS.startTimeoutMs).then(async (outcome) => {
      if (this.#run !== run || this.#closing) return;
      if (outcome === 'answering') {
        const versionLine = await clamdVersion({ socketPath: prepared.socketPath }).catch(() => 'ClamAV');
        if (this.#run !== run || this.#closing) return;
        this.#set({ status: 'running', pid: run.pid, socketPath: prepared.socketPath, versionLine, databaseDir: prepared.databaseDir, databaseOrigin: prepared.databaseOrigin });
      } else if (outcome === 'timeout') {
        // Detached first, so its exit is not taken for a crash to restart from.
        this.#run = null;
        const words = run.lastWords();
        await run.stop();
        this.#giveUp('start_timeout', `no answer on ${prepared.socketPath} after ${this.#options.startTimeoutMs ?? DEFAULTS.startTimeoutMs} ms${words ? `; ${words}` : ''}`);
      }
      // 'exited': #onExit decides.
    });
  }

  #onExit(run: ClamdRun, how: string): void {
    if (this.#run !== run || this.#closing) return;
    this.#run = null;
    const quick = Date.now() - run.startedAt < (this.#options.quickFailureMs ?? DEFAULTS.quickFailureMs);
    this.#quickFailures = quick ? this.#quickFailures + 1 : 1;
    const words = run.lastWords() || `clamd ended (${how})`;
    if (this.#quickFailures >= (this.#options.maxQuickFailures ?? DEFAULTS.maxQuickFailures)) {
      this.#giveUp('clamd_failed', words);
      return;
    }
    const backoff = this.#options.backoffMs ?? DEFAULTS.backoffMs;
    const wait = backoff[Math.min(this.#quickFailures - 1, backoff.length - 1)] ?? 1_000;
    this.#set({ status: 'starting', attempt: this.#attempt + 1, socketPath: this.#prepared?.socketPath ?? null });
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = null;
      this.#launch();
    }, wait);
  }

  #giveUp(problem: OwnClamdProblem, detail: string): void {
    if (this.#prepared) {
      removeFile(this.#prepared.files.pidPath);
      this.#prepared.releaseLock();
      this.#prepared = null;
    }
    this.#set({ status: 'not_running', problem, detail });
  }

  /** Resolves once the state is running, not_running or stopped (now, or after the current start or restart). */
  whenSettled(): Promise<OwnClamdState> {
    if (this.#state.status !== 'starting') return Promise.resolve(this.#state);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #set(state: OwnClamdState): void {
    this.#state = state;
    this.#options.onState?.(state);
    if (state.status === 'starting') return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(state);
  }
}
