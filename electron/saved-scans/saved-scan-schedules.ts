// Saved scans on a schedule (issue 29 §3): each scheduled saved scan gets a scheduler of
// its own (electron/jobs/schedule/, the one quick and full scans use, so its rules hold:
// a missed time caught up once at the next start, skipped on battery when the settings
// say so, never a second run while one of its jobs is unfinished). Its served times are
// kept in `saved-scan-schedules/<key>/schedules.json`, the key derived from the name.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sameSchedule, type Schedule, type ScanSchedules } from '../../shared/settings/schedules.ts';
import type { SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import type { JobState } from '../jobs/job-state.ts';
import type { JobRequest } from '../jobs/jobs.ts';
import type { SchedulerClock } from '../jobs/schedule/clock.ts';
import type { PowerPort } from '../jobs/schedule/power.ts';
import { fileRecordStore } from '../jobs/schedule/schedule-records.ts';
import { createScheduler, type Scheduler } from '../jobs/schedule/scheduler.ts';
import type { SchedulerLog } from '../jobs/schedule/scheduler-state.ts';
import type { SavedScans } from './saved-scans.ts';

export const SAVED_SCHEDULES_FOLDER = 'saved-scan-schedules';

export interface SavedScanSchedulesInput {
  dataDir: string;
  saved: SavedScans;
  clock: SchedulerClock;
  power: PowerPort;
  log: SchedulerLog;
  skipOnBattery(): boolean;
  uploadWaitsForConsent(): string | null;
  startJob(request: JobRequest): Promise<JobState>;
  finished(id: number): Promise<JobState | null>;
  /** Every custom job not yet ended, whoever started it. */
  unfinishedCustom(): JobState[];
}

/** The soonest run of a scheduled saved scan (the tray's and the settings' "Next scan"). */
export interface SavedScanNext {
  name: string;
  /** ISO. */
  at: string;
}

export interface SavedScanSchedules {
  /** The soonest run of any scheduled saved scan; null when none is scheduled. */
  next(): SavedScanNext | null;
  /** Told the soonest run whenever it may have changed (a run served, a schedule changed). */
  onNext(listener: (next: SavedScanNext | null) => void): () => void;
  /** The settings' "skip on battery" changed: every saved scan's scheduler follows it at once. */
  skipOnBatteryChanged(): void;
  /** Resolves when no saved scan is being served (tests, close). */
  settled(): Promise<void>;
  close(): void;
}

/** The state: one scheduler per scheduled saved scan, by its name's key (and its subscription's end). */
type Running = Map<string, { scan: SavedScan; scheduler: Scheduler; unsubscribe(): void }>;

const keyOf = (name: string): string => createHash('sha256').update(name.trim().toLocaleLowerCase('en')).digest('hex').slice(0, 16);
const sameRoots = (job: JobState, scan: SavedScan): boolean => {
  const wanted = new Set(scan.folders.map((folder) => resolve(folder)));
  return job.roots.length === wanted.size && job.roots.every((root) => wanted.has(root));
};

export async function scheduleSavedScans(input: SavedScanSchedulesInput): Promise<SavedScanSchedules> {
  const running: Running = new Map();
  let closed = false;
  let applying: Promise<void> = Promise.resolve();
  const nextListeners = new Set<(next: SavedScanNext | null) => void>();
  let told: string | null = null;
  const next = (): SavedScanNext | null => {
    let best: SavedScanNext | null = null;
    for (const { scan, scheduler } of running.values()) {
      const at = scheduler.view().next?.at;
      if (at !== undefined && (best === null || Date.parse(at) < Date.parse(best.at))) best = { name: scan.name, at };
    }
    return best;
  };
  /** Tells the listeners when the soonest run is no longer what they last heard. */
  const tell = () => {
    const current = next();
    const key = JSON.stringify(current);
    if (key === told) return;
    told = key;
    for (const listener of [...nextListeners]) listener(current);
  };
  const schedulesOf = (scan: SavedScan): ScanSchedules => ({ quick: scan.schedule, full: { repeat: 'off' }, skipOnBattery: input.skipOnBattery() });

  const startFor = async (scan: SavedScan, schedule: Schedule): Promise<Scheduler> => {
    const dir = join(input.dataDir, SAVED_SCHEDULES_FOLDER, keyOf(scan.name));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const scheduler = createScheduler({
      clock: input.clock,
      power: input.power,
      log: input.log,
      uploadWaitsForConsent: input.uploadWaitsForConsent,
      store: fileRecordStore(dir, (error) => input.log.warn({ err: error, scan: scan.name }, 'a saved scan schedule state is damaged; it starts afresh')),
      // The scheduler serves one kind: this saved scan, in the quick slot.
      schedules: schedulesOf({ ...scan, schedule }),
      jobs: {
        start: () => input.startJob(input.saved.requestFor(scan, 'schedule')),
        finished: (id) => input.finished(id),
        active: () => input.unfinishedCustom().filter((job) => sameRoots(job, scan)),
      },
    });
    await scheduler.start();
    return scheduler;
  };

  /** Brings the schedulers in line with the saved scans: new or changed ones (re)started, removed ones stopped. */
  const apply = async (scans: SavedScan[]): Promise<void> => {
    const wanted = new Map(scans.filter((scan) => scan.schedule.repeat !== 'off').map((scan) => [keyOf(scan.name), scan]));
    for (const [key, entry] of running) {
      const next = wanted.get(key);
      if (next && sameSchedule(next.schedule, entry.scan.schedule) && JSON.stringify(next) === JSON.stringify(entry.scan)) continue;
      entry.unsubscribe();
      entry.scheduler.close();
      running.delete(key);
    }
    for (const [key, scan] of wanted) {
      if (closed || running.has(key)) continue;
      const scheduler = await startFor(scan, scan.schedule);
      running.set(key, { scan, scheduler, unsubscribe: scheduler.onChange(tell) });
    }
    tell();
  };
  const queue = (scans: SavedScan[]) => {
    applying = applying.then(() => apply(scans)).catch((error: unknown) => input.log.error({ err: error }, 'could not arm the saved scans’ schedules'));
  };

  const stop = input.saved.onChange(queue);
  queue(input.saved.list());
  await applying;
  return {
    next,
    onNext(listener) {
      nextListeners.add(listener);
      return () => nextListeners.delete(listener);
    },
    skipOnBatteryChanged() {
      for (const { scan, scheduler } of running.values()) scheduler.update(schedulesOf(scan));
    },
    async settled() {
      await applying;
      await Promise.all([...running.values()].map((entry) => entry.scheduler.settled()));
    },
    close() {
      closed = true;
      stop();
      nextListeners.clear();
      for (const entry of running.values()) {
        entry.unsubscribe();
        entry.scheduler.close();
      }
      running.clear();
    },
  };
}
