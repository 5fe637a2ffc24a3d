// `verdict recheck`: judges again, now, the recent files that older signatures judged clean
// (issue 27 §1), as the app does by itself after each signature change. Each file it judges is
// printed as `scan` prints a job's files (stdout), a file detected now also as a sentence of its
// own (stderr), then the summary. Exit codes as `scan`: 0 all clean (or nothing to recheck),
// 1 a file is detected now, 2 a file could not be scanned or was scanned in part, or no ClamAV
// signatures to judge with, or bad arguments; 3 basic checks only.
import { parseArgs } from 'node:util';
import { displayName } from '../../shared/display-name.ts';
import { isFinalStatus } from '../../shared/jobs/job.ts';
import { verdictOf } from '../../shared/scans/record.ts';
import type { CoreInternals } from '../core/create-core.ts';
import type { JobEvent } from '../jobs/jobs.ts';
import { signaturesInUse } from '../recheck/signatures-in-use.ts';
import type { RecheckFinding } from '../recheck/seen-files.ts';
import { checkEngineArgs, CliExit, COMMON_OPTIONS, COMMON_USAGE, openCliCore, runCli, type CliIo } from './cli-options.ts';
import { EXIT_CODES_USAGE } from './format.ts';
import { createJobPrinter } from './job-printer.ts';
import { recheckTexts, type RecheckTexts } from './recheck-text.ts';

export const RECHECK_USAGE = `Usage: verdict recheck [options]   (in a checkout: npm run -s recheck -- [options])

Judges again the files first seen within the window (Settings: 14 days by default) that ClamAV judged
clean under older signatures, and that are still on disk unchanged. Verdict does this by itself after
each signature update; this runs it now. A file detected now is handled as any threat (quarantine, if
the settings say so) and its new scan is linked to the one that judged it clean.

Options:
  --json               one JSON object per file on stdout
${COMMON_USAGE}

${EXIT_CODES_USAGE}`;

/** How long the run waits for the engine to name its signatures (Verdict's own clamd may be loading). */
const ENGINE_WAIT_MS = 120_000;
const ENGINE_LOOK_MS = 200;
const DAY_MS = 86_400_000;

export function runRecheck(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => recheck(argv, io));
}

async function recheck(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    const { service: _remote, ...options } = COMMON_OPTIONS;
    ({ values } = parseArgs({ args: argv, allowPositionals: false, strict: true, options }));
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${RECHECK_USAGE}`);
  }
  if (values.help) throw new CliExit(RECHECK_USAGE, 0);
  const engineArgs = checkEngineArgs({ engine: values.engine as string | undefined, 'clamav-db': values['clamav-db'] as string | undefined });
  const core = await openCliCore({
    io,
    dataDir: values['data-dir'] as string | undefined,
    serviceOverride: undefined,
    ...engineArgs,
    clamd: values.clamd as string | undefined,
    tuning: { recheck: { automatic: false } },
  });
  try {
    const texts = recheckTexts(io.language ?? 'en');
    await signaturesKnown(core, io, texts);
    return await runRecheckJob(core, io, texts, values.json === true);
  } finally {
    await core.close();
  }
}

/** Until the engine in use names its signatures, or says it has none to judge with (built-in, failing). */
async function signaturesKnown(core: CoreInternals, io: CliIo, texts: RecheckTexts): Promise<void> {
  const until = Date.now() + ENGINE_WAIT_MS;
  let told = false;
  for (;;) {
    const view = await core.protection.status();
    if (!view.ok || signaturesInUse(view.value) !== null) return;
    const status = view.value.status;
    if (view.value.remote !== null || status?.engine.name === 'builtin' || status?.state === 'failing' || Date.now() > until) return;
    if (!told) io.stderr(texts.waiting);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, ENGINE_LOOK_MS));
  }
}

/** The quarantine judged under the signatures in use: each entry they no longer detect is said, with Restore to decide on. */
async function judgeQuarantine(core: CoreInternals, io: CliIo, texts: RecheckTexts): Promise<void> {
  const view = await core.protection.status();
  const key = view.ok ? signaturesInUse(view.value) : null;
  if (key === null) return;
  await core.recheck.quarantine.run(key);
  for (const { entry } of core.recheck.quarantine.noLongerDetected()) io.stderr(texts.noLongerDetected(displayName(entry.originalPath ?? entry.fileName), entry.quarantinedAt));
}

async function runRecheckJob(core: CoreInternals, io: CliIo, texts: RecheckTexts, json: boolean): Promise<number> {
  const out = createJobPrinter(io, json);
  let jobId: number | null = null;
  let early: JobEvent[] | null = [];
  const onEvent = (event: JobEvent) => {
    if (event.type === 'progress' && event.progress.job.id === jobId) out.progress(event.progress.job);
    else if (event.type === 'file' && event.jobId === jobId) out.file(core.recheck.withLink(event.record));
  };
  const findings: RecheckFinding[] = [];
  const unsubscribe = core.jobs.onEvent((event) => (early ? early.push(event) : onEvent(event)));
  const stopFindings = core.recheck.onFinding((finding) => {
    findings.push(finding);
    if (verdictOf(finding.record) !== 'unsafe') return;
    const days = Math.max(0, Math.floor((Date.now() - finding.firstSeenMs) / DAY_MS));
    io.stderr(texts.nowDetected(displayName(finding.record.path), finding.record.findings[0]?.name ?? finding.record.detailed ?? '?', days));
  });
  let stop: (() => void) | null = null;
  const onSignal = () => stop?.();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const selected = core.recheck.selected();
    const started = await core.recheck.start('cli');
    if (started.job === null) {
      io.stderr(texts.refused(started.why));
      if (started.why === 'nothing_to_recheck') await judgeQuarantine(core, io, texts);
      return started.why === 'no_signatures' ? 2 : 0;
    }
    jobId = started.job.id;
    if (started.running) io.stderr(texts.alreadyRunning(started.job.startedAt));
    else {
      const settings = await core.settings.get();
      io.stderr(texts.starting(settings.ok ? settings.value.recheckAfterUpdateDays : 14, selected));
    }
    const buffered = early ?? [];
    early = null;
    for (const event of buffered) onEvent(event);
    out.settled();
    const job = await Promise.race([core.jobs.finished(jobId), new Promise<null>((resolve) => (stop = () => resolve(null)))]);
    if (!job || !isFinalStatus(job.status)) {
      io.stderr(texts.interrupted);
      return out.threats() > 0 ? 1 : 2;
    }
    // Each file detected now is told once its threat response ended.
    await core.threatsSettled();
    await core.recheck.idle();
    const detected = findings.filter((finding) => verdictOf(finding.record) === 'unsafe').length;
    io.stderr(texts.summary(job.counts.scanned + job.counts.couldNotScan, detected, findings.length));
    await core.jobs.compacted(job.id);
    await judgeQuarantine(core, io, texts);
    const partial = [...out.partial().values()].reduce((sum, n) => sum + n, 0);
    const { threats, couldNotScan } = job.counts;
    return threats > 0 ? 1 : couldNotScan + partial > 0 ? 2 : out.basicOnly() > 0 ? 3 : 0;
  } finally {
    unsubscribe();
    stopFindings();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
