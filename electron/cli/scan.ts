// `npm run -s scan -- [--json] [--mode auto|sync|async] [--service URL] [--data-dir DIR] <paths...>`
// Scans files and folders through the same pipeline as the app (origin `cli`):
// progress on stderr, one result line per file on stdout, and the exit code
// 0 (all completed safe), 1 (any unsafe), 2 (any could not be scanned).
import { parseArgs } from 'node:util';
import type { ModeChoice, ScanRecord } from '../../shared/scans/record.ts';
import { TERMINAL_STATUSES } from '../../shared/scans/record.ts';
import { createCore, DEFAULT_KEYCHAIN_SERVICE } from '../core/create-core.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { validateApiKey } from '../keychain/api-key.ts';
import { accountForBaseUrl, createKeychain } from '../keychain/keychain.ts';
import { baseUrlSchema } from '../../shared/settings/settings.ts';
import { exitCodeFor, formatRecord } from './format.ts';

const USAGE = `Usage: npm run -s scan -- [options] <files or folders...>

Options:
  --json               one JSON object per line (path, status, safe, detailed, findings, sha256, scanId, ...)
  --mode MODE          auto (default: the settings' mode), sync or async
  --service URL        a remote File Scanning Service; the key comes from VERDICT_API_KEY or the keychain
                       (without it, the built-in local service is used)
  --data-dir DIR       history, settings and the local service's data (default: ${defaultDataDir()})
  --engine KIND        built-in service engine: auto (clamd if reachable, else built-in), clamd or builtin
  --force              scan again even when identical content has a recent verdict
  -h, --help           this text

Exit codes: 0 every file completed safe; 1 a threat was found; 2 a file could not be scanned.`;

/** Upload progress is worth a line only for files that take a moment to send. */
const PROGRESS_FROM_BYTES = 1024 * 1024;

/** Reasons a record waits on something a one-shot run cannot fix: report it and stop waiting. */
const GIVE_UP_REASONS = new Set(['awaiting_api_key', 'backend_unavailable', 'service_unreachable', 'retrying']);

interface Io {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

export async function runScan(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        mode: { type: 'string' },
        service: { type: 'string' },
        'data-dir': { type: 'string' },
        engine: { type: 'string' },
        force: { type: 'boolean', default: false },
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
    io.stderr(`No files or folders given.\n\n${USAGE}`);
    return 2;
  }
  const mode = values.mode as ModeChoice | undefined;
  if (mode !== undefined && !['auto', 'sync', 'async'].includes(mode)) {
    io.stderr(`--mode must be auto, sync or async (got ${mode}).`);
    return 2;
  }
  const engine = values.engine as 'auto' | 'clamd' | 'builtin' | undefined;
  if (engine !== undefined && !['auto', 'clamd', 'builtin'].includes(engine)) {
    io.stderr(`--engine must be auto, clamd or builtin (got ${engine}).`);
    return 2;
  }

  let serviceOverride: { baseUrl: string; apiKey: string } | undefined;
  if (values.service) {
    // Checked here so the user hears what is wrong with the URL (never echoing credentials in it).
    const url = baseUrlSchema.safeParse(values.service);
    if (!url.success) {
      io.stderr(`--service ${url.error.issues[0]?.message ?? 'is not a valid URL'}.`);
      return 2;
    }
    const rawKey = io.env.VERDICT_API_KEY || (await keyFromKeychain(io, values.service));
    if (!rawKey) {
      io.stderr('No API key for --service: set VERDICT_API_KEY, or store a key in the app (it is kept in the OS keychain).');
      return 2;
    }
    const apiKey = validateApiKey(rawKey);
    if (!apiKey.ok) {
      io.stderr(`VERDICT_API_KEY is not a valid key: ${apiKey.error.message}`);
      return 2;
    }
    serviceOverride = { baseUrl: values.service, apiKey: apiKey.value };
  }

  const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
  let core;
  try {
    core = await createCore(
      {
        dataDir,
        serviceOverride,
        keychainService: io.env.VERDICT_KEYCHAIN_SERVICE || undefined,
        localService: engine ? { engine } : undefined,
      },
      { watch: false },
    );
  } catch (error) {
    io.stderr(`Could not start: ${(error as Error).message}`);
    return 2;
  }

  for (const warning of core.startupWarnings) io.stderr(`Warning: ${warning}`);

  const mine = new Map<string, ScanRecord | null>();
  const printed = new Set<string>();
  let done = 0;
  let total = 0;
  let settle: (() => void) | null = null;
  const finished = (record: ScanRecord) => TERMINAL_STATUSES.includes(record.status) || (record.pendingReason !== null && GIVE_UP_REASONS.has(record.pendingReason));

  const take = (record: ScanRecord) => {
    if (!mine.has(record.id)) return;
    mine.set(record.id, record);
    if (printed.has(record.id) || !TERMINAL_STATUSES.includes(record.status)) {
      settleIfDone();
      return;
    }
    printed.add(record.id);
    done++;
    io.stdout(formatRecord(record, values.json));
    io.stderr(`[${done}/${total}] ${record.status}: ${record.fileName}`);
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
        io.stderr(`uploading ${mine.get(event.progress.id)?.fileName ?? event.progress.id}: ${percent}%`);
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
    io.stderr(`Scanning with ${serviceOverride ? new URL(serviceOverride.baseUrl).origin : 'the built-in local service'}…`);
    const submitted = await core.submit(positionals, { origin: 'cli', mode, force: values.force });
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

async function keyFromKeychain(io: Io, baseUrl: string): Promise<string | null> {
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
  const code = await runScan(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  });
  process.exitCode = code;
}
