// Who the clamd behind an engine is (clamd's VERSION answer), for each verdict to
// carry. Asked once and kept for a while; asked again after that, and after any
// error or lost connection, so a RELOAD with new signatures shows in later verdicts.
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { clamdIdentityWithDatabases, type DatabaseFolder } from './database-digest.ts';

/** How long a VERSION answer stands for the verdicts that follow it (default). */
export const IDENTITY_MAX_AGE_MS = 60_000;

/** A clamd whose VERSION could not be read is still ClamAV: its verdicts say so, without a version. */
const UNKNOWN_CLAMAV: EngineIdentity = { name: 'clamav', version: null, signatures: null };

export class ClamdIdentity {
  readonly #ask: () => Promise<string>;
  readonly #maxAgeMs: number;
  readonly #databaseFolder: () => DatabaseFolder | null;
  #known: { identity: EngineIdentity; at: number } | null = null;
  #asking: Promise<EngineIdentity> | null = null;

  /**
   * `ask`: clamd's VERSION line (rejects when clamd does not answer). `databaseFolder`: the folder
   * this clamd loads and when it loaded it, when Verdict knows: its databases are digested into the identity.
   */
  constructor(ask: () => Promise<string>, maxAgeMs = IDENTITY_MAX_AGE_MS, databaseFolder: () => DatabaseFolder | null = () => null) {
    this.#ask = ask;
    this.#maxAgeMs = maxAgeMs;
    this.#databaseFolder = databaseFolder;
  }

  /** The identity to stamp on a verdict. Never rejects: an unanswered VERSION keeps the last one known. */
  current(): Promise<EngineIdentity> {
    const known = this.#known;
    // Verdict's own clamd restarted under other detection settings: its verdicts say so from the first one.
    const sameSettings = known?.identity.detection === this.#databaseFolder()?.detection;
    if (known && sameSettings && performance.now() - known.at < this.#maxAgeMs) return Promise.resolve(known.identity);
    if (!sameSettings) this.#asking = null;
    this.#asking ??= this.#ask().then(
      async (line) => {
        const identity = (await clamdIdentityWithDatabases(line, this.#databaseFolder())) ?? UNKNOWN_CLAMAV;
        this.#asking = null;
        this.#known = { identity, at: performance.now() };
        return identity;
      },
      () => {
        // Kept like an answer, so a clamd that does not answer VERSION delays one verdict per period, not each.
        this.#asking = null;
        const identity = this.#known?.identity ?? UNKNOWN_CLAMAV;
        this.#known = { identity, at: performance.now() };
        return identity;
      },
    );
    return this.#asking;
  }

  /** Asks again before the next verdict (clamd failed, reconnected, or may have reloaded). */
  forget(): void {
    this.#known = null;
  }
}
