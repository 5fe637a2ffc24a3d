// A drive gone from the list of mounts (unmounted, pulled out): its offer is withdrawn and its
// running scan cancelled with `drive_removed`. Files not reached stay without a row (never
// "clean"); files in flight whose reads fail end as "could not scan" with the system's reason.
import type { DriveMount, DrivesState } from './drive.ts';
import type { DriveJobs } from './drive-scan.ts';

export function driveDeparted(state: DrivesState, jobs: DriveJobs, mount: DriveMount): void {
  const drive = state.drives.get(mount.mountPoint) ?? { ...mount, label: mount.mountPoint, uuid: null, sizeBytes: null };
  state.drives.delete(mount.mountPoint);
  state.offers.delete(mount.mountPoint);
  const jobId = state.jobs.get(mount.mountPoint) ?? null;
  if (jobId !== null) {
    state.jobs.delete(mount.mountPoint);
    jobs.cancel(jobId, 'drive_removed');
  }
  for (const listener of state.listeners) listener({ type: 'removed', drive, jobId });
}
