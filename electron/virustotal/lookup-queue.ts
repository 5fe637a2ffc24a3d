// The lookups' queue in the main process: one request at a time, at most 4 a
// minute, the newest ask first (the file the user looks at now), a pause after
// each 429 with the lookup kept, and `quota` after three 429s in a row for it.
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';
import type { VirusTotalClock } from './clock.ts';
import { nextSendAt, recordSend, recordTooMany } from './rate-limit.ts';
import type { V3Outcome } from './v3-client.ts';
import type { VirusTotalState, WaitingLookup } from './virustotal-state.ts';

/** 429s in a row for one lookup before it answers `quota` (the day's or month's allowance is used up). */
export const MAX_TOO_MANY = 3;

export interface QueueDeps {
  clock: VirusTotalClock;
  send(sha256: string, key: string): Promise<V3Outcome>;
  /** Told of each answer (the log: the hash and the kind, never the key). */
  answered(sha256: string, answer: VirusTotalAnswer): void;
}

export function enqueue(state: VirusTotalState, deps: QueueDeps, lookup: Omit<WaitingLookup, 'tooMany'>): void {
  state.waiting.push({ ...lookup, tooMany: 0 });
  pump(state, deps);
}

/** Sends the next lookup if its turn has come, else sets one timer for when it comes. */
export function pump(state: VirusTotalState, deps: QueueDeps): void {
  if (state.closed || state.inFlight || state.cancelTimer || state.waiting.length === 0) return;
  const now = deps.clock.now();
  const at = nextSendAt(state, now);
  if (at > now) {
    state.cancelTimer = deps.clock.setTimer(() => {
      state.cancelTimer = null;
      pump(state, deps);
    }, at - now);
    return;
  }
  const lookup = state.waiting.pop() as WaitingLookup;
  state.inFlight = true;
  recordSend(state, now);
  void deps
    .send(lookup.sha256, lookup.key)
    .catch((): V3Outcome => ({ kind: 'unavailable', detail: 'The lookup failed.' }))
    .then((outcome) => {
      state.inFlight = false;
      settle(state, deps, lookup, outcome);
      pump(state, deps);
    });
}

function settle(state: VirusTotalState, deps: QueueDeps, lookup: WaitingLookup, outcome: V3Outcome): void {
  if (outcome.kind === 'too_many') {
    recordTooMany(state, deps.clock.now(), outcome.retryAfterMs);
    lookup.tooMany++;
    if (lookup.tooMany < MAX_TOO_MANY) {
      // Back at the front: it was the one being asked for.
      state.waiting.push(lookup);
      return;
    }
    finish(deps, lookup, { kind: 'quota' });
    return;
  }
  finish(deps, lookup, outcome);
  if (outcome.kind === 'key_refused') {
    // Every lookup with the same key would be refused too: answered now, not sent.
    const refused = state.waiting.filter((other) => other.key === lookup.key);
    state.waiting = state.waiting.filter((other) => other.key !== lookup.key);
    for (const other of refused) finish(deps, other, outcome);
  }
}

function finish(deps: QueueDeps, lookup: WaitingLookup, answer: VirusTotalAnswer): void {
  deps.answered(lookup.sha256, answer);
  lookup.resolve(answer);
}

/** Ends the queue: what still waits is answered `unavailable` (the app is closing). */
export function closeQueue(state: VirusTotalState): void {
  state.closed = true;
  state.cancelTimer?.();
  state.cancelTimer = null;
  for (const lookup of state.waiting.splice(0)) lookup.resolve({ kind: 'unavailable', detail: 'Verdict is closing.' });
}
