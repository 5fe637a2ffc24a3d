// What a fuzz target is: generators of inputs for one parser of outside input
// (fast-check arbitraries) and a check that runs the real code on one input and
// throws when an invariant breaks. The invariants are the same everywhere: no
// uncaught exception, no unhandled rejection, and the result is either a value
// or the parser's documented error.
import type fc from 'fast-check';

/** An invariant broke for this input: the message says which. */
export class FuzzFinding extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FuzzFinding';
  }
}

export interface FuzzSession<T> {
  /** Inputs, shaped like the parser's real input (JSON-serialisable, so a finding can be kept in the corpus). */
  arbitrary: fc.Arbitrary<T>;
  /** Runs the real code on one input; throws (a FuzzFinding, or whatever escaped the parser) when an invariant breaks. */
  check(input: T): void | Promise<void>;
  close(): Promise<void>;
}

export interface FuzzTarget<T = unknown> {
  name: string;
  /** One line: the parser and what is checked. */
  about: string;
  /** Runs in the smoke test (npm test): a few seconds each at a fixed seed. */
  smoke: { runs: number };
  /** Whether check() returns a promise (an async property is slower per run). */
  async: boolean;
  /** false: a failing input is kept as it was, not shrunk (an input that costs seconds and whose outcome varies). */
  shrink?: boolean;
  open(): Promise<FuzzSession<T>>;
}

/** Narrows a registry of targets of different input types to one list. */
export const asTarget = <T>(target: FuzzTarget<T>): FuzzTarget<unknown> => target as FuzzTarget<unknown>;

/** Throws a FuzzFinding unless `condition` holds. */
export function expectThat(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new FuzzFinding(typeof message === 'string' ? message : message());
}
