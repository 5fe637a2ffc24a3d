// `npm run -s watch -- [--json] [--data-dir DIR] [--service URL] [--engine KIND] [--clamav-db DIR] [--existing] [--basic-only] <folders...>`
// Watches folders from the command line: every complete file that lands there is
// queued (origin `watch`, async mode) through the same pipeline as the app, and each
// verdict is printed as it arrives, in the `scan` CLI's line formats. Folder states
// (watching, missing, error) go to stderr. Runs until SIGINT or SIGTERM.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import { displayName } from '../../shared/display-name.ts';
import { TERMINAL_STATUSES, type ScanRecord } from '../../shared/scans/record.ts';
import { watchedFolderSchema, type WatchedFolder } from '../../shared/settings/settings.ts';
import { createExclusionMatcher, exclusionConfigFromSettings } from '../exclusions/exclusion-matcher.ts';
import { exactArgv } from '../file-names/exact-argv.ts';
import { createSecretList } from '../logging/logger.ts';
import { createFolderWatcher } from '../watch/folder-watcher.ts';
import { CliExit, COMMON_USAGE, installCrashHandlers, openCliCore, parseCliArgs, runCli, serviceLabel, serviceOverrideFrom, type CliIo } from './cli-options.ts';
import { formatRecord } from './format.ts';

const USAGE = `Usage: npm run -s watch -- [options] <folders...>

Scans every complete file that lands in the folders (and their subfolders) until interrupted.

Options:
  --json               one JSON object per line, as \`scan --json\`
${COMMON_USAGE}
  --existing           also scan the files already in the folders
  --basic-only         when ClamAV, used here before, is not available: scan with basic checks only instead of waiting
  -h, --help           this text

Each verdict is one line, as \`scan\` prints it: CLEAN, THREAT, ALLOWED, SKIP, ERROR, PARTIAL: scanned in part
(over a scan limit, or encrypted: not all of it could be inspected), or BASIC: no threat found
by basic checks only (EICAR test file only), not a full scan, because ClamAV was not available.

Stop with Ctrl-C (SIGINT) or SIGTERM; files still being scanned stay queued for the next run (exit code 0).`;

/** Files that settle together are queued together (one history transaction), as in the app. */
const BATCH_MS = 100;
const BATCH_MAX = 500;

export interface WatchIo extends CliIo {
  /** Resolves when the run is to stop (the CLI: SIGINT or SIGTERM). */
  stopped: Promise<void>;
}

export function runWatch(argv: string[], io: WatchIo): Promise<number> {
  return runCli(io, () => watch(argv, io));
}

async function watch(argv: string[], io: WatchIo): Promise<number> {
  const { values, positionals, engine, clamavDb } = parseCliArgs(
    argv,
    { existing: { type: 'boolean', default: false }, 'basic-only': { type: 'boolean', default: false } },
    USAGE,
    'No folders given.',
  );
  // The settings' defaults for a folder (recursive, no patterns, the global protection rules).
  const folders: WatchedFolder[] = positionals.map((folder, index) =>
    watchedFolderSchema.parse({ id: `cli-${index + 1}`, path: resolve(folder), scanExisting: values.existing }),
  );
  for (const folder of folders) {
    // A folder that is missing is watched anyway (it may appear), but a file is a mistake.
    const found = await stat(folder.path).catch(() => null);
    if (found && !found.isDirectory()) throw new CliExit(`Not a folder: ${folder.path}`);
  }
  const serviceOverride = await serviceOverrideFrom(values.service, io);
  // This process watches the folders on its command line, not the app's.
  const core = await openCliCore({ io, dataDir: values['data-dir'], serviceOverride, engine, clamavDb, clamd: values.clamd as string | undefined });

  // Records this run queued: id → printed yet. Events may come before submit() returns the ids.
  const mine = new Map<string, boolean>();
  const print = (record: ScanRecord): void => {
    if (mine.get(record.id) !== false || !TERMINAL_STATUSES.includes(record.status)) return;
    mine.set(record.id, true);
    io.stdout(formatRecord(record, values.json));
  };
  const unsubscribe = core.onEvent((event) => {
    if (event.type === 'record') print(event.record);
  });

  let batch: string[] = [];
  let batchTimer: NodeJS.Timeout | null = null;
  const submissions = new Set<Promise<void>>();
  const flush = (): void => {
    batchTimer = null;
    const paths = batch;
    batch = [];
    if (paths.length === 0) return;
    const submission = (async () => {
      const submitted = await core.submit(paths, { origin: 'watch', mode: 'async', basicOnly: values['basic-only'] });
      if (!submitted.ok) {
        io.stderr(`Could not queue ${paths.length} file(s): ${submitted.error.message}`);
        return;
      }
      for (const id of submitted.value.ids) if (!mine.has(id)) mine.set(id, false);
      // A record that finished before its id was known: read it now.
      for (const id of submitted.value.ids) {
        const current = await core.scans.get(id);
        if (current.ok) print(current.value);
      }
    })();
    submissions.add(submission);
    void submission.finally(() => submissions.delete(submission));
  };

  const lastState = new Map<string, string>();
  const describe = (status: WatchedFolderStatus): string => displayName(`${status.state}: ${status.folder.path}${status.error ? ` (${status.error})` : ''}`);
  // The global exclusions from the settings apply here as in the app: an excluded folder is not watched, and is listed once as skipped.
  const settings = await core.settings.get();
  const matcher = settings.ok ? createExclusionMatcher(exclusionConfigFromSettings({ ...settings.value, watchedFolders: folders })) : null;
  const watcher = createFolderWatcher({
    folders,
    onReady(file) {
      batch.push(file.path);
      if (batch.length >= BATCH_MAX) flush();
      else batchTimer ??= setTimeout(flush, BATCH_MS);
    },
    ...(matcher
      ? {
          exclusions: () => matcher,
          onExcludedFolder(found: { path: string }) {
            batch.push(found.path);
            batchTimer ??= setTimeout(flush, BATCH_MS);
          },
        }
      : {}),
    log: (level, message) => io.stderr(`${level}: ${message}`),
  });
  watcher.onStatus((statuses) => {
    for (const status of statuses) {
      const line = describe(status);
      if (lastState.get(status.folder.id) === line) continue;
      lastState.set(status.folder.id, line);
      io.stderr(line);
    }
  });

  io.stderr(`Watching ${folders.length} folder(s) with ${serviceLabel(serviceOverride)}; stop with Ctrl-C.`);
  try {
    await io.stopped;
    io.stderr('Stopping: files still being scanned stay queued for the next run.');
    await watcher.close();
    if (batchTimer) clearTimeout(batchTimer);
    flush();
    await Promise.all([...submissions]);
    return 0;
  } finally {
    unsubscribe();
    await core.close();
  }
}

if (import.meta.main) {
  const stopped = new Promise<void>((resolveStop) => {
    process.once('SIGINT', () => resolveStop());
    process.once('SIGTERM', () => resolveStop());
  });
  const io = {
    stdout: (line: string) => process.stdout.write(`${line}\n`),
    stderr: (line: string) => process.stderr.write(`${line}\n`),
    env: process.env,
    secrets: createSecretList(),
    stopped,
  };
  installCrashHandlers(io);
  // The arguments' exact bytes: Node decodes a name that is not UTF-8 lossily.
  process.exitCode = await runWatch(exactArgv(process.argv).slice(2), io);
}
