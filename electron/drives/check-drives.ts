// One look at the list of mounts: what came is handled by driveArrived, what went by
// driveDeparted. The first look only learns what is there (a drive mounted before Verdict
// started is not offered at every start). A mount point whose device changed is a new drive.
import type { DriveMount, DrivesState } from './drive.ts';
import { driveArrived } from './drive-arrived.ts';
import { driveDeparted } from './drive-departed.ts';
import type { DriveJobs } from './drive-scan.ts';

const same = (a: DriveMount, b: DriveMount) => a.device === b.device && a.fsType === b.fsType;

export async function checkDrives(state: DrivesState, jobs: DriveJobs, onError: (error: unknown) => void): Promise<void> {
  const now = new Map((await state.source.list()).map((mount) => [mount.mountPoint, mount]));
  const before = state.known;
  state.known = now;
  if (before === null || state.closed) return;
  for (const [point, mount] of before) {
    const current = now.get(point);
    if (!current || !same(current, mount)) driveDeparted(state, jobs, mount);
  }
  const arrivals: Promise<void>[] = [];
  for (const [point, mount] of now) {
    const earlier = before.get(point);
    if (!earlier || !same(earlier, mount)) arrivals.push(driveArrived(state, jobs, mount).catch(onError));
  }
  await Promise.all(arrivals);
}
