// Removable drives (electron/drives/): the app's core watches the OS's list of mounts for
// this platform's source; the CLIs do not (CoreOptions.watchDrives). Tests give their own
// mount root and check by hand (pollMs 0).
import { userInfo } from 'node:os';
import { createDrives, type Drives } from '../drives/drives.ts';
import type { DriveSource } from '../drives/drive.ts';
import { linuxDriveSource } from '../drives/linux-drive-source.ts';
import { linuxMountRoots } from '../drives/linux-mounts.ts';
import { macDriveSource } from '../drives/mac-volumes.ts';
import { windowsDriveSource } from '../drives/windows-drives.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { CoreContext } from './core-context.ts';

export interface DrivesTuning {
  /** Folders drives are mounted in, besides the usual ones (tests: their own). */
  mountRoots?: string[];
  /** Only these folders (tests: never the machine's real drives). */
  onlyMountRoots?: boolean;
  /** How often the list of mounts is read (default 2 s; 0: only by check()). */
  pollMs?: number;
  /** Mounts that are not on a device count too (tests that mount tmpfs where loop devices are missing). */
  anyFilesystem?: boolean;
}

function sourceFor(tuning: DrivesTuning): DriveSource {
  if (process.platform === 'darwin') return macDriveSource();
  if (process.platform === 'win32') return windowsDriveSource();
  const user = (() => {
    try {
      return userInfo().username;
    } catch {
      return process.env.USER;
    }
  })();
  return linuxDriveSource(tuning.onlyMountRoots ? (tuning.mountRoots ?? []) : linuxMountRoots(user, tuning.mountRoots), { anyFilesystem: tuning.anyFilesystem === true });
}

export function setupDrives(ctx: CoreContext, jobs: Jobs, watch: boolean): Drives | null {
  if (!watch) return null;
  const tuning = ctx.tuning.drives ?? {};
  const drives = createDrives({
    source: sourceFor(tuning),
    jobs,
    settings: {
      read: async () => ctx.settings.get().drives,
      async alwaysFor(uuid, label) {
        const current = ctx.settings.get().drives;
        if (current.alwaysScan.some((entry) => entry.uuid === uuid)) return;
        const updated = await ctx.settings.update({ drives: { ...current, alwaysScan: [...current.alwaysScan, { uuid, label }] } });
        if (!updated.ok) ctx.log.warn({ code: updated.error.code }, 'could not keep "always for this drive"');
      },
    },
    pollMs: tuning.pollMs ?? 2000,
    onError: (error) => ctx.log.warn({ err: error }, 'looking for removable drives failed'),
  });
  ctx.onClose(() => drives.close());
  return drives;
}
