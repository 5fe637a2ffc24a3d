// Which running job a scan run again continues: the CLI given the same folders after an
// interruption goes on with the job the start resumed instead of walking the tree a second
// time beside it, so its earlier verdicts count and each file is reported once.
import type { JobRun } from './job-run.ts';
import type { JobKind, JobRunOptions, JobState } from './job-state.ts';

const sameRoots = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((root, i) => root === b[i]);

const sameOptions = (a: JobRunOptions, b: JobRunOptions) =>
  a.mode === b.mode && (a.force ?? false) === (b.force ?? false) && (a.basicOnly ?? false) === (b.basicOnly ?? false);

/** The newest running job of this kind, folders and scan options that nobody cancelled, or null. */
export function sameUnfinished(
  runs: Iterable<JobRun>,
  kind: JobKind,
  roots: JobState['roots'],
  options: JobRunOptions,
  optionsOf: (id: number) => JobRunOptions,
): JobRun | null {
  let newest: JobRun | null = null;
  for (const run of runs) {
    const { state } = run;
    if (run.cancelled || run.stopping || state.status !== 'running' || state.kind !== kind || !sameRoots(state.roots, roots)) continue;
    if (!sameOptions(optionsOf(state.id), options)) continue;
    if (!newest || state.id > newest.state.id) newest = run;
  }
  return newest;
}
