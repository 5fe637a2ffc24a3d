// The core's scan jobs (electron/jobs/): quick, full and custom scans through the
// same pipeline, resumed after a restart once the pipeline's recovery has started.
import { homedir } from 'node:os';
import type { History } from '../history/history.ts';
import { expandPaths } from '../intake/expand-paths.ts';
import { createJobs, type Jobs, type JobsInput } from '../jobs/jobs.ts';
import type { ScanEvents } from '../scans/events.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import type { CoreContext } from './core-context.ts';

export function setupJobs(
  ctx: CoreContext,
  input: { history: History; scans: ScanPipeline; events: ScanEvents; allowBasicOnly?: (serviceScanIds: readonly string[]) => void; walks?: JobsInput['walks']; beforeCompact?: JobsInput['beforeCompact'] },
): Jobs {
  const jobs = createJobs({
    history: input.history,
    pipeline: input.scans,
    intake: (paths, options) => expandPaths(paths, options),
    events: input.events,
    places: ctx.tuning.jobPlaces ?? { platform: process.platform, home: homedir(), env: process.env },
    dataDir: ctx.dataDir,
    ...(input.allowBasicOnly ? { allowBasicOnly: input.allowBasicOnly } : {}),
    ...(input.walks ? { walks: input.walks } : {}),
    ...(input.beforeCompact ? { beforeCompact: input.beforeCompact } : {}),
    onError: (error, job) => ctx.log.error({ err: error, jobId: job.id, kind: job.kind }, 'scan job stopped; it resumes at the next start'),
    onCompactError: (error, jobId) => ctx.log.warn({ err: error, jobId }, "compacting a finished job's clean files failed; tried again at the next start"),
  });
  // Registered after the pipeline: closes first, so a walk stops before the pipeline does.
  ctx.onClose(() => jobs.close());
  return jobs;
}
