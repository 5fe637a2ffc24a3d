// A scheduler clock the test moves by hand: advance() lets time pass with the
// computer awake (each timer fires at its time), sleep() jumps over a stretch with
// the computer asleep (no timer fires), and fireLate() then fires what came due,
// late, as a timer does after a wake-up. And a power supply the test switches.
import type { SchedulerClock } from '../../../../electron/jobs/schedule/clock.ts';
import type { PowerPort } from '../../../../electron/jobs/schedule/power.ts';

export interface FakeClock extends SchedulerClock {
  advance(ms: number): void;
  sleep(ms: number): void;
  fireLate(): void;
  /** Timers set and not yet fired or cleared. */
  pending(): number;
}

export function fakeClock(start: number): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const earliest = (until: number) => {
    let best: [number, { at: number; fire: () => void }] | null = null;
    for (const entry of timers) if (entry[1].at <= until && (best === null || entry[1].at < best[1].at)) best = entry;
    return best;
  };
  const fireUntil = (until: number, late: boolean) => {
    for (let next = earliest(until); next !== null; next = earliest(until)) {
      timers.delete(next[0]);
      if (!late) now = Math.max(now, next[1].at);
      next[1].fire();
    }
  };
  return {
    now: () => now,
    setTimer(fire, delayMs) {
      seq += 1;
      timers.set(seq, { at: now + delayMs, fire });
      return seq;
    },
    clearTimer: (handle) => void timers.delete(handle as number),
    advance(ms) {
      const end = now + ms;
      fireUntil(end, false);
      now = end;
    },
    sleep(ms) {
      now += ms;
    },
    fireLate: () => fireUntil(now, true),
    pending: () => timers.size,
  };
}

export interface FakePower extends PowerPort {
  battery: boolean;
  /** The computer woke up: tells the listeners. */
  resume(): void;
}

export function fakePower(): FakePower {
  const listeners = new Set<() => void>();
  const power: FakePower = {
    battery: false,
    onBattery: () => power.battery,
    onResume(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    resume: () => listeners.forEach((listener) => listener()),
  };
  return power;
}
