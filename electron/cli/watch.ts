// `npm run -s watch -- [--json] [--data-dir DIR] [--service URL] [--engine KIND] [--existing] <folders...>`
// Watches folders from the command line: every complete file that lands there is
// queued (origin `watch`, async mode) through the same pipeline as the app, and each
// verdict is printed as it arrives, in the `scan` CLI's line formats. Folder states
// (watching, missing, error) go to stderr. Runs until SIGINT or SIGTERM.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import { TERMINAL_STATUSES, type ScanRecord } from '../../shared/scans/record.ts';
import { watchedFolderSchema, type WatchedFolder } from '../../shared/settings/settings.ts';
import { createCore, DEFAULT_KEYCHAIN_SERVICE } from '../core/create-core.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { accountForBaseUrl, createKeychain } from '../keychain/keychain.ts';
import { createFolderWatcher } from '../watch/folder-watcher.ts';
import { formatRecord } from './format.ts';

const USAGE = `Usage: npm run -s watch -- [options] <folders...>

Scans every complete file that lands in the folders (and their subfolders) until interrupted.

Options:
  --json               one JSON object per line, as \`scan --json\`
  --service URL        a remote File Scanning Service; the key comes from VERDICT_API_KEY or the keychain
                       (without it, the built-in local service is used)
  --data-dir DIR       history, settings and the local service's data (default: ${defaultDataDir()})
  --engine KIND        built-in service engine: auto (clamd if reachable, else built-in), clamd or builtin
  --existing           also scan the files already in the folders
  -h, --help           this text

Stop with Ctrl-C (SIGINT) or SIGTERM; files still being scanned stay queued for the next run.`;

/** Files that settle together are queued together (one history transaction), as in the app. */
const BATCH_MS = 100;
const BATCH_MAX = 500;

export interface WatchIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the run is to stop (the CLI: SIGINT or SIGTERM). */
  stopped: Promise<void>;
}

export async function runWatch(argv: string[], io: WatchIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        service: { type: 'string' },
        'data-dir': { type: 'string' },
        engine: { type: 'string' },
        existing: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stderr(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    io.stderr(`No folders given.\n\n${USAGE}`);
    return 2;
  }
  const engine = values.engine as 'auto' | 'clamd' | 'builtin' | undefined;
  if (engine !== undefined && !['auto', 'clamd', 'builtin'].includes(engine)) {
    io.stderr(`--engine must be auto, clamd or builtin (got ${engine}).`);
    return 2;
  }
  // The settings' defaults for a folder (recursive, no patterns, the global protection rules).
  const folders: WatchedFolder[] = positionals.map((folder, index) =>
    watchedFolderSchema.parse({ id: `cli-${index + 1}`, path: resolve(folder), scanExisting: values.existing }),
  );
  for (const folder of folders) {
    // A folder that is missing is watched anyway (it may appear), but a file is a mistake.
    const found = await stat(folder.path).catch(() => null);
    if (found && !found.isDirectory()) {
      io.stderr(`Not a folder: ${folder.path}`);
      return 2;
    }
  }

  let serviceOverride: { baseUrl: string; apiKey: string } | undefined;
  if (values.service) {
    const apiKey = io.env.VERDICT_API_KEY?.trim() || (await keyFromKeychain(io, values.service));
    if (!apiKey) {
      io.stderr('No API key for --service: set VERDICT_API_KEY, or store a key in the app (it is kept in the OS keychain).');
      return 2;
    }
    serviceOverride = { baseUrl: values.service, apiKey };
  }

  let core;
  try {
    core = await createCore(
      {
        dataDir: values['data-dir'] ?? defaultDataDir(io.env),
        serviceOverride,
        keychainService: io.env.VERDICT_KEYCHAIN_SERVICE || undefined,
        localService: engine ? { engine } : undefined,
      },
      // This process watches the folders on its command line, not the app's.
      { watch: false },
    );
  } catch (error) {
    io.stderr(`Could not start: ${(error as Error).message}`);
    return 2;
  }

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
      const submitted = await core.submit(paths, { origin: 'watch', mode: 'async' });
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
  const describe = (status: WatchedFolderStatus): string => `${status.state}: ${status.folder.path}${status.error ? ` (${status.error})` : ''}`;
  const watcher = createFolderWatcher({
    folders,
    onReady(file) {
      batch.push(file.path);
      if (batch.length >= BATCH_MAX) flush();
      else batchTimer ??= setTimeout(flush, BATCH_MS);
    },
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

  io.stderr(`Watching ${folders.length} folder(s) with ${serviceOverride ? new URL(serviceOverride.baseUrl).origin : 'the built-in local service'}; stop with Ctrl-C.`);
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

async function keyFromKeychain(io: WatchIo, baseUrl: string): Promise<string | null> {
  let account: string;
  try {
    account = accountForBaseUrl(baseUrl);
  } catch {
    return null; // Not a URL: createCore reports it.
  }
  const key = await createKeychain({ service: io.env.VERDICT_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE }).getKey(account);
  if (!key.ok) io.stderr(key.error.message);
  return key.ok ? key.value : null;
}

if (import.meta.main) {
  const stopped = new Promise<void>((resolveStop) => {
    process.once('SIGINT', () => resolveStop());
    process.once('SIGTERM', () => resolveStop());
  });
  process.exitCode = await runWatch(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    stopped,
  });
}
