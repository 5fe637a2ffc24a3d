// A job's walk: the intake's lazy, depth-first expansion of its roots (links out of a
// root are skipped as for a drop), with the job's default exclusions (and a saved scan's
// own, worded as its settings') added to the user's, each entry counted (found, bytes,
// current folder), and, after a restart, the files already recorded for the job left out. Stops at the next entry once cancelled
// or once the core closes.
import path from 'node:path';
import type { Intake, IntakeEntry, IntakeOptions } from '../scans/ports.ts';
import { jobExclusionError, savedScanExclusionError } from './default-exclusions.ts';
import type { JobRun } from './job-run.ts';

/** How a job finds its files: its roots walked (walkJob), or a kind's own selection. */
export type JobWalk = (run: JobRun, intake: Intake, options: IntakeOptions) => AsyncGenerator<IntakeEntry>;

export async function* walkJob(run: JobRun, intake: Intake, options: IntakeOptions): AsyncGenerator<IntakeEntry> {
  const { state } = run;
  const excluded = new Set(state.excluded);
  const userExcluded = options.excludedFolder;
  const saved = state.savedScan;
  const ownFolders = new Set(saved?.excluded);
  const excludedFolder = (folder: string) =>
    saved && ownFolders.has(folder) ? savedScanExclusionError(folder, saved.name) : excluded.has(folder) ? jobExclusionError(folder) : (userExcluded?.(folder) ?? null);
  for await (const entry of intake(state.roots, { ...options, excludedFolder })) {
    if (run.cancelled || run.stopping) return;
    state.counts.found++;
    if (entry.ok) state.counts.bytes += entry.size;
    state.currentFolder = path.dirname(entry.path);
    // Recorded before a restart: counted as found, not scanned twice.
    if (run.recorded?.has(entry.path)) continue;
    yield entry;
  }
  run.recorded = null;
}
