// Runs one target: first every kept regression input, then generated inputs at
// a seed until a count or a time limit. An exception or rejection that escapes
// to the process while an input runs is a finding of that input too.
import fc from 'fast-check';
import { loadCorpus } from './corpus.ts';
import type { FuzzTarget } from './target.ts';

export interface RunLimits {
  seed: number;
  /** Generated inputs at most (default: unbounded, then timeMs must be set). */
  runs?: number;
  /** Wall-clock budget for the generated inputs (shrinking a failure included). */
  timeMs?: number;
  /** Skip the corpus replay. */
  skipCorpus?: boolean;
  /** Stop at the first failure, kept inputs included (the smoke test: one is enough to fail it). */
  bail?: boolean;
  /** Shrink a failing input to a smaller one (default true; the smoke test skips it to stay quick). */
  shrink?: boolean;
  /** Record each finding (unshrunk; one per distinct message) and go on, instead of stopping at the first. */
  keepGoing?: boolean;
}

/** Distinct findings a keep-going run records at most. */
const MAX_KEPT_FINDINGS = 20;

export interface Failure {
  /** 'corpus' for a kept input, 'generated' for one found now (shrunk), 'process' for an escaped error. */
  source: 'corpus' | 'generated' | 'process';
  input: unknown;
  message: string;
}

export interface TargetReport {
  target: string;
  seed: number;
  corpusInputs: number;
  executions: number;
  seconds: number;
  failures: Failure[];
}

const describeError = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export async function runTarget(target: FuzzTarget, limits: RunLimits): Promise<TargetReport> {
  const session = await target.open();
  const failures: Failure[] = [];
  let current: unknown;
  // Errors that reach the process (a throw in a stream event, a forgotten promise) belong to the input being run.
  const escaped = (error: unknown) => failures.push({ source: 'process', input: current, message: describeError(error) });
  process.on('uncaughtException', escaped);
  process.on('unhandledRejection', escaped);
  const started = performance.now();
  let executions = 0;
  const corpus = limits.skipCorpus ? [] : loadCorpus(target.name);
  const report = (): TargetReport => ({ target: target.name, seed: limits.seed, corpusInputs: corpus.length, executions, seconds: (performance.now() - started) / 1000, failures });
  try {
    for (const entry of corpus) {
      if (limits.bail && failures.length > 0) break;
      current = entry.input;
      try {
        await session.check(entry.input);
      } catch (error) {
        failures.push({ source: 'corpus', input: entry.input, message: `${describeError(error)} (kept input: ${entry.note})` });
      }
    }
    if (limits.bail && failures.length > 0) return report();
    const seen = new Set<string>();
    const record = (input: unknown, error: unknown) => {
      // Messages differ in their details (sizes, ids): the first words tell findings apart.
      const kind = describeError(error).slice(0, 60);
      if (seen.has(kind) || seen.size >= MAX_KEPT_FINDINGS) return;
      seen.add(kind);
      failures.push({ source: 'generated', input, message: describeError(error) });
    };
    // fast-check stops waiting for the input it runs when time is up; close() must wait for it.
    let inFlight: Promise<unknown> = Promise.resolve();
    const checkOne = (input: unknown): void | Promise<void> => {
      if (!limits.keepGoing) return session.check(input);
      try {
        const pending = session.check(input);
        if (pending) return pending.catch((error: unknown) => record(input, error));
      } catch (error) {
        record(input, error);
      }
    };
    const run = (input: unknown): void | Promise<void> => {
      current = input;
      executions++;
      const outcome = checkOne(input);
      if (outcome) inFlight = outcome.catch(() => {});
      return outcome;
    };
    const property = target.async
      ? fc.asyncProperty(session.arbitrary, async (input) => void (await run(input)))
      : fc.property(session.arbitrary, (input) => void run(input));
    const details = await fc.check(property as fc.IAsyncProperty<[unknown]>, {
      seed: limits.seed,
      numRuns: limits.runs ?? Number.MAX_SAFE_INTEGER,
      endOnFailure: limits.shrink === false || target.shrink === false,
      ...(limits.timeMs === undefined ? {} : { interruptAfterTimeLimit: limits.timeMs, markInterruptAsFailure: false }),
    });
    await inFlight;
    if (details.failed && details.counterexample) {
      failures.push({ source: 'generated', input: details.counterexample[0], message: describeError(details.errorInstance) });
    }
  } finally {
    // Let a late escape of the last input land before the traps go.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('uncaughtException', escaped);
    process.off('unhandledRejection', escaped);
    await session.close();
  }
  return report();
}
