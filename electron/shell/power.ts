// The scan schedules' power port (electron/jobs/schedule/power.ts) from Electron's
// powerMonitor: whether the computer runs on battery, and its wake-ups from sleep.
// Reads powerMonitor only when asked, so it is safe to create before anything runs.
import { powerMonitor } from 'electron';
import type { PowerPort } from '../jobs/schedule/power.ts';

export function electronPower(): PowerPort {
  return {
    onBattery: () => powerMonitor.isOnBatteryPower(),
    onResume(listener) {
      powerMonitor.on('resume', listener);
      return () => powerMonitor.off('resume', listener);
    },
  };
}
