// A drive newly in the list of mounts: identified, then scanned, offered or left alone
// (drive-policy.ts). A scan started by itself has the origin `schedule`: no one is there to
// answer a question (an upload waiting for consent is skipped, as for a scheduled scan).
import { decideDrive } from './drive-policy.ts';
import type { DriveMount, DrivesState } from './drive.ts';
import { startDriveScan, type DriveJobs } from './drive-scan.ts';

export async function driveArrived(state: DrivesState, jobs: DriveJobs, mount: DriveMount): Promise<void> {
  const drive = await state.source.identify(mount);
  if (!drive || state.closed) return;
  state.drives.set(mount.mountPoint, drive);
  const { decision, why } = decideDrive(drive, await state.readSettings());
  if (decision === 'scan') await startDriveScan(state, jobs, drive, 'schedule');
  else if (decision === 'offer') {
    const offer = { drive, why: why ?? 'ask' };
    state.offers.set(mount.mountPoint, offer);
    for (const listener of state.listeners) listener({ type: 'offer', offer });
  }
}
