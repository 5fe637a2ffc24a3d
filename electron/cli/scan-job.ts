// The `scan` CLI's scan jobs: `--job quick|full`, or a folder given to scan (a custom
// job). Parsed here, not in cli-options.ts, because `--job` needs no paths. The job runs
// in the core (electron/jobs/); this prints each file as it ends (stdout), its progress
// and the summary line (stderr), and maps the summary to the exit code.
import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { displayName } from '../../shared/display-name.ts';
import { COVERAGE_REASON_COUNT, type CoverageReason } from '../../shared/scans/coverage.ts';
import type { ModeChoice, ScanRecord } from '../../shared/scans/record.ts';
import type { CoreInternals } from '../core/create-core.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { isFinalStatus } from '../../shared/jobs/job.ts';
import type { JobEvent } from '../jobs/jobs.ts';
import type { JobKind, JobState } from '../jobs/job-state.ts';
import { createJobPrinter } from './job-printer.ts';
import { jobTitle, summaryLine } from '../jobs/job-progress.ts';
import { checkEngineArgs, CliExit, COMMON_OPTIONS, type CliIo } from './cli-options.ts';

export const JOB_USAGE = `  --job KIND           quick (Downloads, Desktop, Documents, the temp folder) or full (the home folder,
                       leaving out caches and trash); a folder given to scan is a custom job
  --saved NAME         the scan saved under NAME in the app (its folders, exclusions and options;
                       --mode, --force and --basic-only given here add to its own)`;

/** Like parseCliArgs, plus `--job`: with it no paths are needed (and none are taken). */
export function parseScanArgs<T extends ParseArgsOptionsConfig>(argv: string[], own: T, usage: string, nothingGiven: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...COMMON_OPTIONS, ...own, job: { type: 'string' }, saved: { type: 'string' } } });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${usage}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) throw new CliExit(usage, 0);
  const job = values.job as string | undefined;
  if (job !== undefined && job !== 'quick' && job !== 'full') throw new CliExit(`--job must be quick or full (got ${job}).`);
  if (job !== undefined && parsed.positionals.length > 0) throw new CliExit(`--job ${job} scans its own folders: give no paths with it.`);
  const saved = values.saved as string | undefined;
  if (saved !== undefined && job !== undefined) throw new CliExit('--saved and --job name two different scans: give one.');
  if (saved !== undefined && parsed.positionals.length > 0) throw new CliExit('--saved scans the folders saved with it: give no paths with it.');
  if (job === undefined && saved === undefined && parsed.positionals.length === 0) throw new CliExit(`${nothingGiven}\n\n${usage}`);
  const engineArgs = checkEngineArgs({ engine: values.engine as string | undefined, 'clamav-db': values['clamav-db'] as string | undefined });
  return { values: parsed.values, positionals: parsed.positionals, ...engineArgs, job: job as 'quick' | 'full' | undefined, saved };
}

/** The job to run: the one named by --job, a custom one when a folder is among the paths, else none. */
export async function jobKindFor(job: 'quick' | 'full' | undefined, paths: readonly string[]): Promise<JobKind | null> {
  if (job) return job;
  for (const path of paths) if (await stat(fsPath(path)).then((stats) => stats.isDirectory(), () => false)) return 'custom';
  return null;
}

export interface JobScanInput {
  kind: JobKind;
  roots: readonly string[];
  mode?: ModeChoice;
  force: boolean;
  /** --basic-only: the job's files too get basic checks when ClamAV, known here, is not available. */
  basicOnly?: boolean;
  /** Folders left out besides the kind's defaults (a saved scan's). */
  excluded?: readonly string[];
  /** The saved scan run (`--saved NAME`): it names the job. */
  savedScan?: string;
  json: boolean;
  /** A waiting row the run stops waiting for (no key, service down): counted as could not scan. */
  giveUp: (record: ScanRecord) => boolean;
}

export async function runJobScan(core: CoreInternals, io: CliIo, input: JobScanInput): Promise<number> {
  const out = createJobPrinter(io, input.json);
  let jobId: number | null = null;
  /** Events that came while the job's id was not known yet (it is started or continued in an await). */
  let early: JobEvent[] | null = [];
  const onEvent = (event: JobEvent) => {
    if (event.type === 'progress' && event.progress.job.id === jobId) out.progress(event.progress.job);
    else if (event.type === 'file' && event.jobId === jobId) out.file(event.record);
  };
  const unsubscribe = core.jobs.onEvent((event) => (early ? early.push(event) : onEvent(event)));
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
    const request = { kind: input.kind, roots: input.roots, origin: 'cli' as const, mode: input.mode, force: input.force, basicOnly: input.basicOnly === true, settled: input.giveUp, ...(input.excluded ? { excluded: input.excluded } : {}), ...(input.savedScan ? { savedScan: input.savedScan } : {}) };
    const { job: started, continued } = await core.jobs.continueOrStart(request);
    jobId = started.id;
    out.excluded(started.excluded);
    out.progress(started);
    const buffered = early;
    early = null;
    for (const event of buffered) onEvent(event);
    io.stderr(`${jobTitle(started)} of ${started.roots.map(displayName).join(', ') || '(no folders found)'}`);
    if (continued) {
      // Its files judged before the interruption are part of this scan's results: listed again, not scanned again.
      io.stderr(`Going on with this scan, interrupted before its end on ${started.startedAt.slice(0, 10)}: the files it judged then are listed first.`);
      for (const record of core.jobs.finishedRecords(started.id)) out.file(record);
    }
    // Rows that end from now on are told once each, as events (the history read above was synchronous).
    out.settled();
    leftOutLines(started).forEach((line) => io.stderr(line));
    const job = await Promise.race([core.jobs.finished(started.id), new Promise<null>((resolve) => (stop = () => resolve(null)))]);
    if (!job && !interrupted) throw core.jobs.stoppedBy(started.id) ?? new Error('The scan job stopped before its end.');
    if (!job || interrupted) {
      io.stderr(`Interrupted after ${out.count()} files: run the same scan again to finish it (the files already judged are not scanned again).`);
      return out.threats() > 0 ? 1 : 2;
    }
    // What to do about files that had basic checks only, then the summary (which counts them).
    const basicOnly = out.basicOnly();
    if (basicOnly > 0) io.stderr(basicOnlyLine(basicOnly));
    const partial = [...out.partial().values()].reduce((sum, n) => sum + n, 0);
    if (partial > 0) io.stderr(partialLine(out.partial()));
    io.stderr(job.counts.found === 0 ? 'No files found to scan.' : summaryLine(job, Date.now(), basicOnly, partial));
    const unchanged = out.unchanged();
    if (unchanged > 0) io.stderr(`${unchanged} of them unchanged since an earlier scan with the same signatures: not read again (--force reads every file).`);
    tellOtherUnfinished(core, io, job.id);
    // Its clean rows move to the history's compact store before the CLI closes the core (else at the next start).
    await core.jobs.compacted(job.id);
    const { threats, couldNotScan, skipped } = job.counts;
    // 3: no threat and nothing left unscanned, but not all clean either (EXIT_CODES_USAGE in format.ts).
    // 2 for files scanned in part too: part of them was not inspected.
    return threats > 0 ? 1 : couldNotScan + partial + Math.max(0, skipped - out.leftOutByDefault()) > 0 ? 2 : basicOnly > 0 ? 3 : 0;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Files scanned in part, by reason: "12 files were scanned in part: 9 over the size limit, 3 encrypted archives." */
export function partialLine(byReason: ReadonlyMap<CoverageReason, number>): string {
  const total = [...byReason.values()].reduce((sum, n) => sum + n, 0);
  const parts = [...byReason].map(([reason, n]) => COVERAGE_REASON_COUNT[reason](n));
  return `${total === 1 ? '1 file was' : `${total} files were`} scanned in part: ${parts.join(', ')}. Not all of ${total === 1 ? 'it' : 'them'} could be inspected (PARTIAL lines).`;
}

/** Files the built-in engine judged clean: no threat found, but not a full scan. */
export function basicOnlyLine(basicOnly: number): string {
  return (
    `${basicOnly === 1 ? '1 file was' : `${basicOnly} files were`} checked with basic checks only (EICAR test file only): ClamAV was not available. ` +
    `Scan ${basicOnly === 1 ? 'it' : 'them'} again with ClamAV for a full scan.`
  );
}

/** What the job leaves out: its defaults, and a saved scan's own folders as its settings'. */
function leftOutLines(job: JobState): string[] {
  const own = new Set(job.savedScan?.excluded);
  const byDefault = job.excluded.filter((folder) => !own.has(folder));
  return [
    ...(byDefault.length > 0 ? [`Left out by default: ${byDefault.map(displayName).join(', ')}`] : []),
    ...(job.savedScan && own.size > 0 ? [`Left out by the settings of “${displayName(job.savedScan.name)}”: ${[...own].map(displayName).join(', ')}`] : []),
  ];
}

/** Other jobs this data folder has not finished (their runs stop when the CLI closes): said, so none is left unseen. */
function tellOtherUnfinished(core: CoreInternals, io: CliIo, ownId: number): void {
  for (const job of core.jobs.list()) {
    if (job.id === ownId || isFinalStatus(job.status)) continue;
    const done = job.counts.scanned + job.counts.couldNotScan + job.counts.skipped;
    if (job.kind === 'recheck') {
      io.stderr(`Not finished: the recheck after a signature update started ${job.startedAt.slice(0, 10)} (${done} files done). It goes on when Verdict starts, or with verdict recheck.`);
      continue;
    }
    io.stderr(
      `Not finished: the ${job.savedScan ? jobTitle(job).replace(/^S/, 's') : jobTitle(job).toLowerCase()} of ${job.roots.map(displayName).join(', ')} started ${job.startedAt.slice(0, 10)} (${done} files done). ` +
        'It goes on when Verdict starts, or when you run that scan again.',
    );
  }
}
