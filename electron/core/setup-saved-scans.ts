// The core's saved scans (electron/saved-scans/): the list in saved-scans.json, and the
// scheduled ones run by schedulers of their own (set up after the unfinished jobs resumed,
// like the quick and full schedules; not in the CLI, which starts no job by itself).
import type { History } from '../history/history.ts';
import type { Jobs } from '../jobs/jobs.ts';
import { systemClock } from '../jobs/schedule/clock.ts';
import { mainsPower } from '../jobs/schedule/power.ts';
import { scheduleSavedScans, type SavedScanSchedules } from '../saved-scans/saved-scan-schedules.ts';
import { openSavedScans, type SavedScans } from '../saved-scans/saved-scans.ts';
import type { CoreContext } from './core-context.ts';

export async function setupSavedScans(
  ctx: CoreContext,
  input: { jobs: Jobs; history: History; uploadWaitsForConsent: () => string | null },
): Promise<{ savedScans: SavedScans; schedules: SavedScanSchedules | null }> {
  const { jobs } = input;
  const savedScans = await openSavedScans({ dataDir: ctx.dataDir, startJob: (request) => jobs.start(request) });
  if (savedScans.setAside) ctx.log.warn({ file: savedScans.setAside }, 'saved-scans.json could not be read: set aside, no scan is saved now');
  if (ctx.tuning.schedules === false) return { savedScans, schedules: null };
  const schedules = await scheduleSavedScans({
    dataDir: ctx.dataDir,
    saved: savedScans,
    clock: ctx.tuning.scheduleClock ?? systemClock,
    power: ctx.options.power ?? mainsPower,
    log: ctx.log,
    skipOnBattery: () => ctx.settings.get().scanSchedules.skipOnBattery,
    uploadWaitsForConsent: input.uploadWaitsForConsent,
    startJob: (request) => jobs.start(request),
    finished: (id) => jobs.finished(id),
    unfinishedCustom: () => input.history.jobs.unfinished().filter((job) => job.kind === 'custom'),
  });
  // Registered after the jobs: closes first, so no scheduled job starts while they stop.
  ctx.onClose(() => schedules.close());
  // "Skip on battery" is the settings' one choice for every schedule: it reaches the saved scans' at once.
  ctx.settings.onChange((settings, previous) => {
    if (settings.scanSchedules.skipOnBattery !== previous.scanSchedules.skipOnBattery) schedules.skipOnBatteryChanged();
  });
  return { savedScans, schedules };
}
