// The VirusTotal capability's one state: the key as last read from the keychain,
// the lookups waiting for their turn, the times of the last requests (the free
// API's 4 a minute), a pause after a 429, and the answers kept for a while.
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';

/** One lookup waiting for its turn; `tooMany` counts the 429s it met. */
export interface WaitingLookup {
  sha256: string;
  key: string;
  tooMany: number;
  resolve(answer: VirusTotalAnswer): void;
}

export interface VirusTotalState {
  /** undefined: not read yet; null: none set. */
  key: string | null | undefined;
  /** Newest last: the file the user looks at now is asked about first. */
  waiting: WaitingLookup[];
  /** When the requests of the last minute were sent (oldest first). */
  sentAt: number[];
  /** No request before this time (after a 429). */
  pausedUntil: number;
  /** A request is on its way (one at a time). */
  inFlight: boolean;
  /** The timer that wakes the queue when its next turn comes; null when none is set. */
  cancelTimer: (() => void) | null;
  /** The answer promise of each hash being looked up, so a second ask waits for the same answer. */
  pending: Map<string, Promise<VirusTotalAnswer>>;
  /** Known and unknown answers, with when they came, kept for CACHE_MS. */
  cache: Map<string, { answer: VirusTotalAnswer; at: number }>;
  closed: boolean;
}

export function newVirusTotalState(): VirusTotalState {
  return { key: undefined, waiting: [], sentAt: [], pausedUntil: 0, inFlight: false, cancelTimer: null, pending: new Map(), cache: new Map(), closed: false };
}
