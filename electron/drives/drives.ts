// Removable drives: the coordinator. It looks at the OS's list of mounts every `pollMs`
// (and when asked: check()), and wires the steps: check-drives.ts (what came and went),
// drive-arrived.ts (identify, then scan, offer or leave alone), drive-departed.ts (cancel the
// drive's scan), drive-scan.ts (the `drive` job). The shell shows offers as notices (shell/drive-notice.ts).
import { isFinalStatus, type JobState } from '../../shared/jobs/job.ts';
import type { DriveSettings } from '../../shared/settings/drives.ts';
import { checkDrives } from './check-drives.ts';
import type { DriveEvent, DriveOffer, DrivesState, DriveSource } from './drive.ts';
import { startDriveScan, type DriveJobs } from './drive-scan.ts';

export interface DrivesInput {
  source: DriveSource;
  jobs: DriveJobs & { list(limit?: number): JobState[] };
  settings: { read(): Promise<DriveSettings>; alwaysFor(uuid: string, label: string): Promise<void> };
  /** How often the list of mounts is read (default 2 s; 0: only when check() is called). */
  pollMs?: number;
  onError: (error: unknown) => void;
}

export interface Drives {
  /** Reads the list of mounts now, and handles what came and went. */
  check(): Promise<void>;
  /** The offers not answered yet. */
  offers(): DriveOffer[];
  /** *Scan* on an offer: the drive's job (the running one if there is one), or null when the drive is gone. */
  scan(mountPoint: string): Promise<JobState | null>;
  /** *Not now*: the offer is withdrawn until the drive is mounted again. */
  notNow(mountPoint: string): void;
  /** *Always for this drive*: kept by filesystem UUID, and the drive is scanned now. False when it has no UUID. */
  alwaysFor(mountPoint: string): Promise<boolean>;
  onEvent(listener: (event: DriveEvent) => void): () => void;
  close(): void;
}

export function createDrives(input: DrivesInput): Drives {
  const state: DrivesState = {
    source: input.source,
    readSettings: () => input.settings.read(),
    known: null,
    drives: new Map(),
    jobs: new Map(),
    offers: new Map(),
    listeners: new Set(),
    checking: null,
    closed: false,
  };
  const { jobs } = input;
  const check = async (): Promise<void> => {
    while (state.checking) await state.checking;
    if (state.closed) return;
    const first = state.known === null;
    state.checking = checkDrives(state, jobs, input.onError).finally(() => (state.checking = null));
    await state.checking;
    if (first) adoptUnfinished(state, jobs);
  };
  const scan = async (mountPoint: string) => {
    const drive = state.drives.get(mountPoint);
    return drive ? startDriveScan(state, jobs, drive, 'dialog') : null;
  };
  const timer = input.pollMs === 0 ? null : setInterval(() => void check().catch(input.onError), input.pollMs ?? 2000);
  timer?.unref();
  void check().catch(input.onError);
  return {
    check,
    offers: () => [...state.offers.values()],
    scan,
    notNow(mountPoint) {
      const offer = state.offers.get(mountPoint);
      if (!offer) return;
      state.offers.delete(mountPoint);
      for (const listener of state.listeners) listener({ type: 'declined', drive: offer.drive });
    },
    async alwaysFor(mountPoint) {
      const drive = state.drives.get(mountPoint);
      if (!drive?.uuid) return false;
      await input.settings.alwaysFor(drive.uuid, drive.label);
      await scan(mountPoint);
      return true;
    },
    onEvent(listener) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    close() {
      state.closed = true;
      if (timer) clearInterval(timer);
      state.listeners.clear();
    },
  };
}

/**
 * After the first look: a drive job an earlier run left unfinished (the jobs resume it at start)
 * goes on while its drive is still mounted, and ends as `drive_removed` when it is not.
 */
function adoptUnfinished(state: DrivesState, jobs: DrivesInput['jobs']): void {
  for (const job of jobs.list(100)) {
    if (job.kind !== 'drive' || isFinalStatus(job.status)) continue;
    const root = job.roots[0];
    if (root !== undefined && state.known?.has(root)) state.jobs.set(root, job.id);
    else jobs.cancel(job.id, 'drive_removed');
  }
}
