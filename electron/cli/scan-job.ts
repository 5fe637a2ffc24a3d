// The `scan` CLI's scan jobs: `--job quick|full`, or a folder given to scan (a custom
// job). Parsed here, not in cli-options.ts, because `--job` needs no paths. The job runs
// in the core (electron/jobs/); this prints each file as it ends (stdout), its progress
// and the summary line (stderr), and maps the summary to the exit code.
import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { displayName } from '../../shared/display-name.ts';
import type { ModeChoice, ScanRecord } from '../../shared/scans/record.ts';
import type { CoreInternals } from '../core/create-core.ts';
import { isDefaultExclusionSkip } from '../jobs/default-exclusions.ts';
import { summaryLine } from '../jobs/job-progress.ts';
import type { JobKind } from '../jobs/job-state.ts';
import { checkEngineArgs, CliExit, COMMON_OPTIONS, type CliIo } from './cli-options.ts';
import { formatRecord } from './format.ts';

export const JOB_USAGE = `  --job KIND           quick (Downloads, Desktop, Documents, the temp folder) or full (the home folder,
                       leaving out caches and trash); a folder given to scan is a custom job`;

/** Like parseCliArgs, plus `--job`: with it no paths are needed (and none are taken). */
export function parseScanArgs<T extends ParseArgsOptionsConfig>(argv: string[], own: T, usage: string, nothingGiven: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...COMMON_OPTIONS, ...own, job: { type: 'string' } } });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${usage}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) throw new CliExit(usage, 0);
  const job = values.job as string | undefined;
  if (job !== undefined && job !== 'quick' && job !== 'full') throw new CliExit(`--job must be quick or full (got ${job}).`);
  if (job !== undefined && parsed.positionals.length > 0) throw new CliExit(`--job ${job} scans its own folders: give no paths with it.`);
  if (job === undefined && parsed.positionals.length === 0) throw new CliExit(`${nothingGiven}\n\n${usage}`);
  const engineArgs = checkEngineArgs({ engine: values.engine as string | undefined, 'clamav-db': values['clamav-db'] as string | undefined });
  return { values: parsed.values, positionals: parsed.positionals, ...engineArgs, job: job as 'quick' | 'full' | undefined };
}

/** The job to run: the one named by --job, a custom one when a folder is among the paths, else none. */
export async function jobKindFor(job: 'quick' | 'full' | undefined, paths: readonly string[]): Promise<JobKind | null> {
  if (job) return job;
  for (const path of paths) if (await stat(path).then((stats) => stats.isDirectory(), () => false)) return 'custom';
  return null;
}

export interface JobScanInput {
  kind: JobKind;
  roots: readonly string[];
  mode?: ModeChoice;
  force: boolean;
  /** --basic-only: the job's files too get basic checks when ClamAV, known here, is not available. */
  basicOnly?: boolean;
  json: boolean;
  /** A waiting row the run stops waiting for (no key, service down): counted as could not scan. */
  giveUp: (record: ScanRecord) => boolean;
}

export async function runJobScan(core: CoreInternals, io: CliIo, input: JobScanInput): Promise<number> {
  let jobId: number | null = null;
  let done = 0;
  let found = 0;
  let walked = false;
  let excluded: readonly string[] = [];
  /** Folders the job's defaults left out (caches, trash, Verdict's data): shown, but no reason for exit 2. */
  let leftOutByDefault = 0;
  const unsubscribe = core.jobs.onEvent((event) => {
    if (event.type === 'progress' && event.progress.job.id === jobId) {
      found = event.progress.job.counts.found;
      walked = event.progress.job.walkComplete;
    } else if (event.type === 'file' && event.jobId === jobId) {
      done++;
      if (isDefaultExclusionSkip(event.record, excluded)) leftOutByDefault++;
      io.stdout(formatRecord(event.record, input.json));
      io.stderr(`[${done}/${Math.max(found, done)}${walked ? '' : '+'}] ${event.record.status}: ${displayName(event.record.fileName)}`);
    }
  });
  let interrupted = false;
  let stop: (() => void) | null = null;
  const onSignal = () => {
    // scan.ts says so on stderr; the job stays unfinished and resumes at the next run on this data folder.
    interrupted = true;
    stop?.();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const started = await core.jobs.start({ kind: input.kind, roots: input.roots, origin: 'cli', mode: input.mode, force: input.force, basicOnly: input.basicOnly === true, settled: input.giveUp });
    jobId = started.id;
    excluded = started.excluded;
    io.stderr(`${started.kind === 'custom' ? 'Custom' : started.kind === 'quick' ? 'Quick' : 'Full'} scan of ${started.roots.join(', ') || '(no folders found)'}`);
    if (started.excluded.length > 0) io.stderr(`Left out by default: ${started.excluded.join(', ')}`);
    const job = await Promise.race([core.jobs.finished(started.id), new Promise<null>((resolve) => (stop = () => resolve(null)))]);
    if (!job || interrupted) return 2;
    io.stderr(job.counts.found === 0 ? 'No files found to scan.' : summaryLine(job, Date.now()));
    // Its clean rows move to the history's compact store before the CLI closes the core (else at the next start).
    await core.jobs.compacted(job.id);
    const { threats, couldNotScan, skipped } = job.counts;
    return threats > 0 ? 1 : couldNotScan + Math.max(0, skipped - leftOutByDefault) > 0 ? 2 : 0;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
