// A clock the test moves: timers fire in order as it advances, and no real time passes.
import type { VirusTotalClock } from '../../../electron/virustotal/clock.ts';

export function fakeClock(): VirusTotalClock & { advance(ms: number): void; timers(): number } {
  let now = 0;
  let timers: Array<{ at: number; fire: () => void; live: boolean }> = [];
  return {
    now: () => now,
    /** Timers set and not yet fired or cancelled. */
    timers: () => timers.filter((t) => t.live).length,
    setTimer(fire, ms) {
      const timer = { at: now + ms, fire, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.live = false;
        due.fire();
      }
      timers = timers.filter((t) => t.live);
      now = until;
    },
  };
}
