// `npm run -s scan -- [--json] [--mode auto|sync|async] [--service URL] [--data-dir DIR] [--engine KIND] [--clamav-db DIR] [--basic-only] <paths...> | --job quick|full`
// Scans files and folders through the same pipeline as the app (origin `cli`):
// progress on stderr, one result line per file on stdout, and the exit code
// (a folder, or --job, runs a scan job: scan-job.ts; it ends with a summary line on stderr)
// 0 (all completed clean), 1 (any unsafe), 2 (any could not be scanned, or was scanned in part), 3 (no threat, but some
// files had basic checks only): see EXIT_CODES_USAGE in format.ts.
import { displayName } from '../../shared/display-name.ts';
import type { ModeChoice, ScanRecord } from '../../shared/scans/record.ts';
import { TERMINAL_STATUSES } from '../../shared/scans/record.ts';
import { exactArgv } from '../file-names/exact-argv.ts';
import { createSecretList } from '../logging/logger.ts';
import { CliExit, COMMON_USAGE, installCrashHandlers, openCliCore, runCli, serviceLabel, serviceOverrideFrom, type CliIo } from './cli-options.ts';
import { EXIT_CODES_USAGE, exitCodeFor, formatRecord } from './format.ts';
import { JOB_USAGE, jobKindFor, parseScanArgs, runJobScan } from './scan-job.ts';
import { runSavedScan } from './saved-scan-run.ts';

const USAGE = `Usage: npm run -s scan -- [options] <files or folders...>
       npm run -s scan -- [options] --job quick|full
       npm run -s scan -- [options] --saved NAME

Options:
  --json               one JSON object per line (path, status, safe, detailed, findings, sha256, scanId, ...)
  --mode MODE          auto (default: the settings' mode), sync or async
${JOB_USAGE}
${COMMON_USAGE}
  --force              scan again even when identical content has a recent verdict
  --basic-only         when ClamAV, used here before, is not available: scan with basic checks only
                       (EICAR test file only) instead of waiting for it
  -h, --help           this text

${EXIT_CODES_USAGE}.
A job's default exclusions, listed on stderr, do not count.`;

/** Upload progress is worth a line only for files that take a moment to send. */
const PROGRESS_FROM_BYTES = 1024 * 1024;

/** Reasons a record waits on something a one-shot run cannot fix: report it and stop waiting. */
const GIVE_UP_REASONS = new Set(['awaiting_api_key', 'backend_unavailable', 'service_unreachable', 'retrying']);

const MODES: readonly string[] = ['auto', 'sync', 'async'];

export function runScan(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => scan(argv, io));
}

async function scan(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals, engine, clamavDb, job, saved } = parseScanArgs(
    argv,
    { mode: { type: 'string' }, force: { type: 'boolean', default: false }, 'basic-only': { type: 'boolean', default: false } },
    USAGE,
    'No files or folders given.',
  );
  const mode = values.mode as ModeChoice | undefined;
  if (mode !== undefined && !MODES.includes(mode)) throw new CliExit(`--mode must be auto, sync or async (got ${mode}).`);
  const serviceOverride = await serviceOverrideFrom(values.service, io);
  const core = await openCliCore({ io, dataDir: values['data-dir'], serviceOverride, engine, clamavDb, clamd: values.clamd as string | undefined });

  const mine = new Map<string, ScanRecord | null>();
  const printed = new Set<string>();
  let done = 0;
  let total = 0;
  let settle: (() => void) | null = null;
  const finished = (record: ScanRecord) => TERMINAL_STATUSES.includes(record.status) || (record.pendingReason !== null && GIVE_UP_REASONS.has(record.pendingReason));

  const waitsShown = new Set<string>();
  const take = (record: ScanRecord) => {
    if (!mine.has(record.id)) return;
    mine.set(record.id, record);
    // Once per run and reason: the engine holds the files (Verdict's own clamd loading, or ClamAV gone).
    const wait = record.pendingReason;
    if ((wait === 'engine_starting' || wait === 'engine_waiting') && !waitsShown.has(wait)) {
      waitsShown.add(wait);
      io.stderr(wait === 'engine_starting' ? 'Starting ClamAV… files wait until it has loaded its signatures.' : 'Waiting for ClamAV, which does not answer…');
    }
    if (printed.has(record.id) || !TERMINAL_STATUSES.includes(record.status)) {
      settleIfDone();
      return;
    }
    printed.add(record.id);
    done++;
    io.stdout(formatRecord(record, values.json));
    io.stderr(`[${done}/${total}] ${record.status}: ${displayName(record.fileName)}`);
    settleIfDone();
  };
  const settleIfDone = () => {
    if (!settle) return;
    for (const record of mine.values()) if (!record || !finished(record)) return;
    settle();
  };

  const progressShown = new Map<string, number>();
  const unsubscribe = core.onEvent((event) => {
    if (event.type === 'record') {
      take(event.record);
    } else if (event.type === 'progress' && mine.has(event.progress.id) && event.progress.total > PROGRESS_FROM_BYTES) {
      const percent = Math.floor((event.progress.sent / event.progress.total) * 100);
      const last = progressShown.get(event.progress.id) ?? -100;
      if (percent - last >= 25 || (percent === 100 && last !== 100)) {
        progressShown.set(event.progress.id, percent);
        io.stderr(`uploading ${displayName(mine.get(event.progress.id)?.fileName ?? event.progress.id)}: ${percent}%`);
      }
    }
  });

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    io.stderr('Interrupted: unfinished files stay queued and are picked up by the next run.');
    settle?.();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    io.stderr(`Scanning with ${serviceLabel(serviceOverride)}…`);
    if (saved !== undefined) return await runSavedScan(core, io, saved, { mode, force: values.force, basicOnly: values['basic-only'], json: values.json, giveUp: finished });
    const kind = await jobKindFor(job, positionals);
    if (kind) return await runJobScan(core, io, { kind, roots: positionals, mode, force: values.force, basicOnly: values['basic-only'], json: values.json, giveUp: finished });
    const submitted = await core.submit(positionals, { origin: 'cli', mode, force: values.force, basicOnly: values['basic-only'] });
    if (!submitted.ok) {
      io.stderr(submitted.error.message);
      return 2;
    }
    total = submitted.value.ids.length;
    for (const id of submitted.value.ids) mine.set(id, null);
    // Events of these rows that came before the ids were known were skipped: read the rows.
    for (const id of submitted.value.ids) {
      const current = await core.scans.get(id);
      if (current.ok) take(current.value);
    }
    if (total === 0) {
      io.stderr('No files found to scan.');
      return 0;
    }
    await new Promise<void>((resolve) => {
      settle = resolve;
      settleIfDone();
    });

    // Whatever is still waiting (no key, service down) is reported as not scanned.
    const records: ScanRecord[] = [];
    for (const id of submitted.value.ids) {
      const current = await core.scans.get(id);
      const record = current.ok ? current.value : mine.get(id);
      if (!record) continue;
      records.push(record);
      if (!printed.has(id)) {
        printed.add(id);
        io.stdout(formatRecord(record, values.json));
      }
    }
    return interrupted ? 2 : exitCodeFor(records);
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await core.close();
  }
}

if (import.meta.main) {
  const io = {
    stdout: (line: string) => process.stdout.write(`${line}\n`),
    stderr: (line: string) => process.stderr.write(`${line}\n`),
    env: process.env,
    secrets: createSecretList(),
  };
  installCrashHandlers(io);
  // The arguments' exact bytes: Node decodes a name that is not UTF-8 lossily.
  process.exitCode = await runScan(exactArgv(process.argv).slice(2), io);
}
