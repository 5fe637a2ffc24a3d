// What the scheduler asks of the power supply: whether the computer runs on battery
// now, and a call when it wakes from sleep. The shell implements it with Electron's
// powerMonitor (electron/shell/power.ts); elsewhere (CLI, tests) there is no battery.
export interface PowerPort {
  onBattery(): boolean;
  /** Calls `listener` after the computer woke from sleep; returns an unsubscribe function. */
  onResume(listener: () => void): () => void;
}

/** Outside Electron: never on battery, never resumed. */
export const mainsPower: PowerPort = {
  onBattery: () => false,
  onResume: () => () => {},
};
