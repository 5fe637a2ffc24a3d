// The core's savedScans namespace (electron/saved-scans/): each call guarded, a run
// answered with the started job's progress, as scanJobs.start answers.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { err, ok } from '../../shared/result.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { SavedScans } from '../saved-scans/saved-scans.ts';
import type { Guard } from './core-context.ts';

export function savedScansApi(guard: Guard, saved: SavedScans, jobs: Jobs): CoreApi['savedScans'] {
  return {
    list: () => guard('Listing saved scans', () => ok(saved.list())),
    save: (scan) => guard('Saving a scan', () => saved.save(scan)),
    remove: (name) => guard('Removing a saved scan', () => saved.remove(name)),
    run: (name) =>
      guard('Starting a saved scan', async () => {
        const started = await saved.run(name, { origin: 'dialog' });
        if (!started.ok) return started;
        const progress = jobs.progress(started.value.id);
        return progress ? ok(progress) : err('not_found', 'The scan ended before it could be shown.');
      }),
    exportTo: (path) => guard('Exporting saved scans', () => saved.exportTo(path)),
    importFrom: (path) => guard('Importing saved scans', () => saved.importFrom(path)),
  };
}
