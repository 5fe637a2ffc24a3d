// When the live engine tests itself: once the first engine is chosen, whenever the
// engine or its signatures change (another clamd, a reload with new databases, a new
// signature version), when the user looks again after a failed test, and daily. One
// test at a time; a request during a test is served by one more test after it.
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { SELF_TEST_INTERVAL_MS, selfTestEngine, type SelfTestResult } from '../../../shared/engine/self-test.ts';
import type { ScanEngine } from '../engine.ts';
import { runSelfTest } from '../self-test/run-self-test.ts';

export interface SelfTestTarget {
  engine: ScanEngine;
  status: ProtectionStatus;
}

export interface LiveSelfTestOptions {
  /** The engine in use and its state, or null while there is none to test (choosing, starting, missing). */
  target: () => SelfTestTarget | null;
  onResult: (result: SelfTestResult) => void;
  intervalMs?: number;
  timeoutMs?: number;
}

export class LiveSelfTest {
  readonly #options: LiveSelfTestOptions;
  readonly #timer: NodeJS.Timeout;
  #last: SelfTestResult | null = null;
  #testedKey: string | null = null;
  /** The engine and signatures the test under way is for. */
  #testingKey: string | null = null;
  #running: Promise<SelfTestResult | null> | null = null;
  #again: Promise<SelfTestResult | null> | null = null;
  #closed = false;
  readonly #stop = new AbortController();

  constructor(options: LiveSelfTestOptions) {
    this.#options = options;
    this.#timer = setInterval(() => void this.run(), options.intervalMs ?? SELF_TEST_INTERVAL_MS);
    this.#timer.unref?.();
  }

  /** The last test's result, null before the first. */
  get last(): SelfTestResult | null {
    return this.#last;
  }

  /** The state changed: tests again when the engine or its signatures are not the ones last tested. */
  changed(status: ProtectionStatus): void {
    const key = keyOf(status);
    if (key !== this.#testedKey && key !== this.#testingKey) void this.run();
  }

  /** Resolves once the test under way for this engine and signatures (if one is) has ended, so a verdict can say its result. */
  async settled(status: ProtectionStatus): Promise<void> {
    if (this.#running && this.#testingKey === keyOf(status)) await this.#running.catch(() => null);
  }

  /** Resolves once no test is under way or waiting. */
  async idle(): Promise<void> {
    while (this.#running || this.#again) await (this.#again ?? this.#running)?.catch(() => null);
  }

  /** Tests now (or right after the test under way); null when there is no engine to test. */
  run(): Promise<SelfTestResult | null> {
    if (this.#closed) return Promise.resolve(null);
    if (this.#running) {
      this.#again ??= this.#running.then(() => {
        this.#again = null;
        return this.run();
      });
      return this.#again;
    }
    this.#running = this.#once().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#stop.abort();
  }

  async #once(): Promise<SelfTestResult | null> {
    const target = this.#options.target();
    if (target === null) return null;
    this.#testingKey = keyOf(target.status);
    const result = await runSelfTest({ ...target, signal: this.#stop.signal, ...(this.#options.timeoutMs !== undefined ? { timeoutMs: this.#options.timeoutMs } : {}) });
    this.#testingKey = null;
    if (this.#closed) return null;
    // A test that could not scan proves nothing either way (the engine's own state says why); it is
    // not repeated at every look, only at the next change, the daily test, or a test asked for.
    this.#testedKey = keyOf(target.status);
    this.#last = result;
    this.#options.onResult(result);
    return result;
  }
}

function keyOf(status: ProtectionStatus): string {
  return JSON.stringify(selfTestEngine(status.engine));
}
