// The scheduler's clock: the time and one kind of timer, injected so tests drive a
// fake clock (time jumps, timers that fire late) and never wait for real time.
export type TimerHandle = unknown;

export interface SchedulerClock {
  now(): number;
  setTimer(fire: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimer: (fire, delayMs) => {
    const timer = setTimeout(fire, delayMs);
    // A schedule never keeps a CLI or a test process alive on its own.
    timer.unref();
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
