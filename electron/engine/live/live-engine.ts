// The local service's one engine while it runs: it scans with whatever the engine
// watch (engine-watch.ts) has chosen in the order, and follows each new
// choice from the next file on. Files wait instead of being judged by the built-in
// engine while Verdict's own clamd loads ("Starting ClamAV…"), and while ClamAV,
// once known to this installation, is gone: up to a limit, then they fail with
// `clamav_unavailable`, unless the caller allows basic checks only for them.
import { protectionStatus, type ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { withSelfTest, type SelfTestResult } from '../../../shared/engine/self-test.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { attributeFeeds } from '../../feeds/attribute-findings.ts';
import { BuiltinEngine } from '../builtin-engine.ts';
import { ClamdEngine, type ClamdEngineOptions } from '../clamd-engine.ts';
import { EngineError, type EngineVerdict, type ScanEngine, type ScanOptions } from '../engine.ts';
import { watchEngine, type EngineWatch } from '../engine-watch.ts';
import type { OwnClamdState } from '../own-clamd/own-clamd.ts';
import type { SelectEngineOptions } from '../select-engine.ts';
import { readKnownClamav, writeKnownClamav, type KnownClamav } from './clamav-known.ts';
import { endpointOfLabel, stateFor, type LiveEngineState } from './live-state.ts';
import { LiveSelfTest, type SelfTestTarget } from './live-self-test.ts';
import type { DetectionSettings } from '../../../shared/settings/detection.ts';
import { attributeRules } from '../../rules/attribute-rules.ts';

export type { LiveEngineState } from './live-state.ts';

export interface LiveEngineOptions extends SelectEngineOptions {
  /** The service's data directory: where "ClamAV is known here" is kept. */
  dataDir: string;
  /** How often the choice is made again (default 60 s). */
  recheckMs?: number;
  /** How long a file waits for ClamAV that is known here but gone (default 10 min). */
  waitLimitMs?: number;
  /** The system clamd.conf, for its stream limit (tests). */
  systemConfigPath?: string;
  /** false: the first look does not start Verdict's own clamd; the user's "Start ClamAV" does (default true). */
  startOwnAtStart?: boolean;
  /** How often the engine scans the EICAR test file besides at changes (default daily; tests). */
  selfTestIntervalMs?: number;
}

export const DEFAULT_WAIT_LIMIT_MS = 10 * 60_000;

/** Errors after which the clamd in use is asked whether it still answers. */
const MAYBE_GONE = new Set(['engine_unavailable', 'engine_timeout', 'engine_error']);

export class LiveEngine implements ScanEngine {
  #state: LiveEngineState = { phase: 'choosing' };
  readonly #options: LiveEngineOptions;
  readonly #watch: EngineWatch;
  readonly #builtin: BuiltinEngine;
  readonly #clamds = new Map<string, ClamdEngine>();
  readonly #listeners = new Set<(status: ProtectionStatus) => void>();
  #wakers = new Set<() => void>();
  #known: KnownClamav | null;
  #lastStatus: string | null = null;
  readonly #selfTest: LiveSelfTest;

  constructor(options: LiveEngineOptions) {
    this.#options = options;
    this.#known = readKnownClamav(options.dataDir);
    this.#builtin = new BuiltinEngine({ reason: options.kind === 'builtin' ? 'the built-in engine was requested' : 'ClamAV was not available' });
    this.#selfTest = new LiveSelfTest({
      target: () => this.#selfTestTarget(),
      onResult: () => this.#set(this.#state),
      ...(options.selfTestIntervalMs !== undefined ? { intervalMs: options.selfTestIntervalMs } : {}),
    });
    const ownClamd = options.ownClamd;
    this.#watch = watchEngine({
      kind: options.kind,
      dataDir: ownClamd?.dataDir ?? options.dataDir,
      ...(ownClamd?.databaseDir !== undefined ? { clamavDb: ownClamd.databaseDir } : {}),
      ...(options.clamdSocket !== undefined ? { clamdSocket: options.clamdSocket } : {}),
      ...(options.clamdHost !== undefined ? { clamdHost: options.clamdHost } : {}),
      ...(options.clamdPort !== undefined ? { clamdPort: options.clamdPort } : {}),
      ...(options.socketCandidates !== undefined ? { socketCandidates: options.socketCandidates } : {}),
      ...(options.systemConfigPath !== undefined ? { systemConfigPath: options.systemConfigPath } : {}),
      ownAllowed: ownClamd !== undefined,
      ...(ownClamd ? { ownClamd } : {}),
      ...(options.startOwnAtStart === false ? { startOwnAtStart: false } : {}),
      intervalMs: options.recheckMs ?? 60_000,
      onChange: (status) => this.#apply(status),
      onOwnState: (state) => this.#onOwnState(state),
    });
  }

  /** `clamd` while ClamAV is (or is awaited as) the engine, `builtin` while the built-in engine decides. */
  get name(): string {
    return this.#state.phase === 'builtin' ? this.#builtin.name : 'clamd';
  }

  get state(): LiveEngineState {
    return this.#state;
  }

  /** The protection state of the engine in use, with its last self-test (`failing` when it missed EICAR); null before the first look. */
  get status(): ProtectionStatus | null {
    if (this.#state.phase === 'choosing' || this.#state.phase === 'closed') return null;
    return withSelfTest(this.#withTransport(this.#state), this.#selfTest.last);
  }

  /** With how files reach the clamd in use: as its session client found, else as expected (TCP, the addon). */
  #withTransport(state: Exclude<LiveEngineState, { phase: 'choosing' | 'closed' }>): ProtectionStatus {
    if (state.phase !== 'clamav') return state.status;
    const transport = this.#clamdFor(state.where).transfer;
    return { ...state.status, engine: { ...state.status.engine, transport } };
  }

  /** The last self-test, null before the first. */
  get selfTest(): SelfTestResult | null {
    return this.#selfTest.last;
  }

  /** Scans the EICAR test file now with the engine in use; null while there is none. */
  runSelfTest(): Promise<SelfTestResult | null> {
    return this.#selfTest.run();
  }

  /** Scans worth running at once with the clamd in use (its session's commands in flight); absent otherwise. */
  get concurrency(): number | undefined {
    return this.#state.phase === 'clamav' ? this.#clamdFor(this.#state.where).concurrency : undefined;
  }

  /** The signature folder of the clamd in use, when known. */
  get databaseDir(): string | null {
    return this.#watch.databaseDir;
  }

  /** The pid of Verdict's own clamd when this engine runs it (tests, memory figures). */
  get ownClamdPid(): number | null {
    return this.#watch.own?.pid ?? null;
  }

  /** Each change of the protection state. */
  onChange(listener: (status: ProtectionStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The first look; resolves once a choice is made or Verdict's own clamd is loading. */
  async start(): Promise<LiveEngineState> {
    const first = this.#check(false).catch(() => null);
    await Promise.race([first, this.#whenChanged()]);
    return this.#state;
  }

  /** Looks again now ("Check again", "Start ClamAV"); resolves with the state found. */
  check(): Promise<ProtectionStatus> {
    return this.#check(true);
  }

  /** `asked`: the user's look, which starts Verdict's own clamd even when the setting says not at start. */
  async #check(asked: boolean): Promise<ProtectionStatus> {
    // While Verdict's own clamd loads, the answer is "starting" (the look that started it is still waiting for it).
    if (this.#state.phase === 'starting') return this.#state.status;
    const status = await (asked ? this.#watch.check() : this.#watch.recheck());
    this.#apply(status);
    // The user's look waits for the test its changes started, and tests again after a failed
    // one ("Check again" after fixing the signatures); a look with nothing new tells no one.
    if (asked && this.#selfTest.last?.result === 'failed') await this.#selfTest.run();
    if (asked) await this.#selfTest.idle();
    return this.status ?? status;
  }

  /**
   * The setting's signature folder changed: Verdict's own clamd, when it is the engine, stops and
   * starts again on it (files wait with "Starting ClamAV…" meanwhile). Otherwise only the folder
   * it would use changes.
   */
  async setDatabaseDir(databaseDir: string | undefined): Promise<ProtectionStatus | null> {
    if (this.#state.phase === 'closed') return null;
    const where = this.#state.phase === 'choosing' ? null : this.#state.status.engine.where;
    if (where !== null && (this.#state.phase === 'starting' || this.status?.engine.source === 'own')) {
      this.#set({ phase: 'starting', status: protectionStatus({ kind: 'starting', where }, new Date(), MAX_ASYNC_FILE_SIZE) });
    }
    this.#apply(await this.#watch.setDatabaseDir(databaseDir));
    return this.status;
  }

  /**
   * The detection settings changed (issue 28 §2): Verdict's own clamd, when it is the engine, starts
   * again with them; files wait with "Starting ClamAV…" meanwhile, and one clamd dropped while
   * scanning is scanned again once it answers (see #run). A system clamd is not touched.
   */
  async setDetection(detection: DetectionSettings | undefined): Promise<ProtectionStatus | null> {
    if (this.#state.phase === 'closed') return null;
    const where = this.#state.phase === 'choosing' ? null : this.#state.status.engine.where;
    if (where !== null && (this.#state.phase === 'starting' || this.status?.engine.source === 'own')) {
      this.#set({ phase: 'starting', status: protectionStatus({ kind: 'starting', where }, new Date(), MAX_ASYNC_FILE_SIZE) });
    }
    this.#apply(await this.#watch.setDetection(detection));
    return this.status;
  }

  scan(filePath: string, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    // The file the caller hashed goes along: clamd's engine says whether its verdict is for that file, unchanged.
    return this.#run((engine) => engine.scan(filePath, signal, options?.hashed ? { hashed: options.hashed } : undefined), signal, options);
  }

  scanBytes(content: Buffer, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    const hashed = options?.hashed ? { hashed: options.hashed } : undefined;
    return this.#run((engine) => (engine.scanBytes ? engine.scanBytes(content, signal, hashed) : Promise.reject(new Error('no scanBytes'))), signal, options);
  }

  async close(): Promise<void> {
    this.#selfTest.close();
    this.#set({ phase: 'closed' });
    await this.#watch.close();
    for (const engine of this.#clamds.values()) await engine.close();
    this.#clamds.clear();
  }

  /** One file: the engine chosen now, or a wait for one; verdicts pass through unchanged. */
  async #run(scan: (engine: ScanEngine) => Promise<EngineVerdict>, signal: AbortSignal | undefined, options: ScanOptions | undefined): Promise<EngineVerdict> {
    let waitingSince: number | null = null;
    for (;;) {
      if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
      const state = this.#state;
      if (state.phase === 'closed') throw new EngineError('engine_aborted', 'the service is stopping');
      if (state.phase === 'clamav') {
        const engine = this.#clamdFor(state.where);
        try {
          return await this.#withSelfTest(this.#withFeeds(await scan(engine), state.status), state.status);
        } catch (error) {
          // Restarted under this file (new settings or folder: #set gave a new state): it is scanned again once clamd answers.
          const restarted = this.#state !== state;
          if (!(error instanceof EngineError) || !MAYBE_GONE.has(error.code) || (!restarted && (await answers(engine)))) throw error;
          // clamd went away under this file: look again and wait for ClamAV instead of failing the file.
          if (!restarted) this.#lost(state.where);
          continue;
        }
      }
      const basicOnly = options?.basicOnly === true || options?.basicOnlyAllowed?.aborted === true;
      if (state.phase === 'builtin') return this.#withSelfTest(await scan(this.#builtin), state.status);
      if (state.phase === 'missing' && basicOnly) return scan(this.#builtin);
      waitingSince ??= Date.now();
      if (state.phase === 'missing') {
        const left = (this.#options.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS) - (Date.now() - waitingSince);
        if (left <= 0) throw new EngineError('clamav_unavailable', `ClamAV did not answer within ${Math.round((Date.now() - waitingSince) / 1000)} s (${state.status.engine.where})`);
        await this.#whenChanged(signal, left, options?.basicOnlyAllowed);
      } else {
        await this.#whenChanged(signal, undefined, options?.basicOnlyAllowed);
      }
    }
  }

  /**
   * A verdict given while the self-test of this engine, with these signatures, failed says so (issue 27 §2:
   * scans go on, and their verdicts say the self-test failed). A test under way for them is waited for (one
   * EICAR scan), so the first files after a change carry its result too.
   */
  async #withSelfTest(verdict: EngineVerdict, status: ProtectionStatus): Promise<EngineVerdict> {
    await this.#selfTest.settled(status);
    if (this.status?.state !== 'failing' || !verdict.engine) return verdict;
    return { ...verdict, engine: { ...verdict.engine, selfTest: 'failed' } };
  }

  /** A finding of Verdict's own clamd on Verdict's own folder names its signature feed (electron/feeds/). */
  #withFeeds(verdict: EngineVerdict, status: ProtectionStatus): EngineVerdict {
    const own = this.#options.ownClamd;
    // And a finding of the user's own YARA rules names the rule's file (electron/rules/).
    return status.engine.source === 'own' && own && own.databaseDir === undefined ? attributeRules(attributeFeeds(verdict, own.dataDir), own.dataDir) : verdict;
  }

  #clamdFor(where: string): ClamdEngine {
    let engine = this.#clamds.get(where);
    if (!engine) {
      const clamd: Omit<ClamdEngineOptions, 'endpoint'> = this.#options.clamd ?? {};
      // The watch knows the folder of the clamd in use; a clamd no longer in use is not vouched for.
      const databaseFolder = () => (this.#state.phase === 'clamav' && this.#state.where === where ? this.#watch.databaseFolder : null);
      // A switch to streaming is told like any change of the protection state.
      const onTransportChange = () => void (this.#state.phase !== 'closed' && this.#set(this.#state));
      engine = new ClamdEngine({ ...clamd, endpoint: endpointOfLabel(where), databaseFolder, onTransportChange });
      this.#clamds.set(where, engine);
    }
    return engine;
  }

  #lost(where: string): void {
    if (this.#state.phase === 'clamav' && this.#state.where === where) {
      const status = protectionStatus({ kind: 'not_running', source: this.#state.status.engine.source as KnownClamav['source'], where, why: 'clamd_not_answering' }, new Date(), MAX_ASYNC_FILE_SIZE);
      this.#set({ phase: 'missing', status });
    }
    void this.#check(false).catch(() => undefined);
  }

  #onOwnState(state: OwnClamdState): void {
    if (this.#state.phase === 'closed') return;
    if (state.status === 'starting' && state.socketPath !== null) {
      const status = protectionStatus({ kind: 'starting', where: `unix:${state.socketPath}` }, new Date(), MAX_ASYNC_FILE_SIZE);
      this.#set({ phase: 'starting', status });
    } else if (state.status === 'running' || state.status === 'not_running') {
      // Settled: the watch names the engine now (its look may be the one that started this clamd).
      void this.#check(false).catch(() => undefined);
    }
  }

  #apply(status: ProtectionStatus): void {
    if (this.#state.phase === 'closed') return;
    const next = stateFor(status, { kind: this.#options.kind, known: this.#known });
    const source = next.phase === 'clamav' ? next.status.engine.source : 'builtin';
    // Written when ClamAV first answers here, or answers somewhere else: not at every look.
    if (next.phase === 'clamav' && source !== 'builtin' && (this.#known?.where !== next.where || this.#known.source !== source)) {
      this.#known = { source, where: next.where, at: new Date().toISOString() };
      writeKnownClamav(this.#options.dataDir, this.#known);
    }
    this.#set(next);
    if (next.phase === 'clamav' || next.phase === 'builtin') this.#selfTest.changed(next.status);
  }

  /** The engine a file would go to now, without waiting: none while ClamAV is chosen but not answering. */
  #selfTestTarget(): SelfTestTarget | null {
    const state = this.#state;
    if (state.phase === 'clamav') return { engine: this.#clamdFor(state.where), status: state.status };
    if (state.phase === 'builtin') return { engine: this.#builtin, status: state.status };
    return null;
  }

  #set(state: LiveEngineState): void {
    this.#state = state;
    const wakers = this.#wakers;
    this.#wakers = new Set();
    for (const wake of wakers) wake();
    const status = this.status;
    const key = status === null ? null : JSON.stringify(status);
    if (status === null || key === this.#lastStatus) return;
    this.#lastStatus = key;
    for (const listener of this.#listeners) listener(status);
  }

  /** Resolves at the next change of state, on abort of either signal, or after `timeoutMs`. */
  #whenChanged(signal?: AbortSignal, timeoutMs?: number, basicOnlyAllowed?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        basicOnlyAllowed?.removeEventListener('abort', done);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      basicOnlyAllowed?.addEventListener('abort', done, { once: true });
      this.#wakers.add(done);
    });
  }
}

async function answers(engine: ClamdEngine): Promise<boolean> {
  try {
    await engine.ping({ timeoutMs: 2_000 });
    return true;
  } catch {
    return false;
  }
}
