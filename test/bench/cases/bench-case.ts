// What a benchmark case is: an id, the tools it needs, how many repetitions it
// runs by default, and a run() that measures and returns its table rows.
// Every figure is a median over repetitions; a peer (when there is one) is
// measured alternately with ours in the same run, so the ratio is what counts.

export type Requirement = 'clamd' | 'clamdscan' | 'chromium' | 'curl' | 'sha256sum';

export interface BenchContext {
  /** Smaller inputs, fewer repetitions, short windows (the smoke run). */
  quick: boolean;
  /** Repetitions for this case (its default for the mode, or --reps). */
  reps: number;
  /** A fresh temp folder for this case, removed when it ends. */
  tmp: string;
  /** Progress on stderr (the table goes to stdout). */
  log(message: string): void;
}

/** `on`: what the target constrains; `ours-peer` is ours minus the peer's figure. */
export interface Target {
  on: 'ours' | 'ratio' | 'ours-peer';
  op: '<' | '<=' | '>=';
  value: number;
  /** How the table says it, e.g. `ratio ≤ 1.15`. */
  text: string;
}

export interface Metric {
  /** e.g. `submit wall time`. */
  name: string;
  unit: string;
  /** Median over the repetitions. */
  ours: number;
  /** The peer's median, or null when the case has no peer. */
  peer: number | null;
  /** What the peer is, e.g. `curl -F`. */
  peerLabel?: string;
  /** ours / peer (null without a peer). */
  ratio: number | null;
  target: Target | null;
  /** Every repetition's figure, in run order. */
  samples: { ours: number[]; peer?: number[] };
  /** Anything a reader needs to interpret the figure. */
  note?: string;
}

export interface BenchCase {
  id: string;
  /** The wording, e.g. `upload 100 MB async to the local service`. */
  title: string;
  needs: Requirement[];
  reps: { full: number; quick: number };
  run(context: BenchContext): Promise<Metric[]>;
}
