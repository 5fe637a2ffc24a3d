// A drive's scan: a job of its own kind (`drive`) over the drive's mount point, named after
// its label; tracked by mount point while it runs, so the drive's removal can end it.
import { isFinalStatus, type JobState } from '../../shared/jobs/job.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { Drive, DrivesState } from './drive.ts';

export type DriveJobs = Pick<Jobs, 'start' | 'cancel' | 'finished' | 'get'>;

/** Starts the drive's scan, or gives the one already running (a second *Scan* never scans it twice at once). */
export async function startDriveScan(state: DrivesState, jobs: DriveJobs, drive: Drive, origin: JobState['origin']): Promise<JobState> {
  state.offers.delete(drive.mountPoint);
  const runningId = state.jobs.get(drive.mountPoint);
  const running = runningId === undefined ? null : jobs.get(runningId);
  if (running && !isFinalStatus(running.status)) return running;
  const job = await jobs.start({ kind: 'drive', roots: [drive.mountPoint], origin, drive: { label: drive.label, uuid: drive.uuid } });
  state.jobs.set(drive.mountPoint, job.id);
  void jobs.finished(job.id).then(() => {
    if (state.jobs.get(drive.mountPoint) === job.id) state.jobs.delete(drive.mountPoint);
  });
  for (const listener of state.listeners) listener({ type: 'scanning', drive, jobId: job.id });
  return job;
}
