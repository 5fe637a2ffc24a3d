// The queue's sense of time, injected so tests decide when a minute has passed
// (tests never depend on timings).
export interface VirusTotalClock {
  now(): number;
  /** Calls `fire` once after `ms`; the returned function cancels it. */
  setTimer(fire: () => void, ms: number): () => void;
}

export const systemClock: VirusTotalClock = {
  now: () => Date.now(),
  setTimer(fire, ms) {
    const timer = setTimeout(fire, ms);
    // A lookup waiting for its turn never keeps a CLI process alive.
    timer.unref();
    return () => clearTimeout(timer);
  },
};
