// What the `scan` and `watch` CLIs share before their own work starts: the common
// options and their checks, the remote service and its key (checked before anything
// is sent), opening the core, and printing its start-up warnings. A problem ends
// the run with CliExit: its message goes to stderr, its exit code to the shell.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { resolve } from 'node:path';
import { baseUrlSchema } from '../../shared/settings/settings.ts';
import { createCore, DEFAULT_KEYCHAIN_SERVICE, type CoreInternals, type CoreTuning } from '../core/create-core.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { validateApiKey } from '../keychain/api-key.ts';
import { accountForBaseUrl, createKeychain } from '../keychain/keychain.ts';
import { scrubText, type SecretList } from '../logging/logger.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { cliLanguage, diskFullLine } from './disk-full-report.ts';
import { startEngineLine } from './engine-line.ts';
import { CLAMD_USAGE, readClamdOption } from './clamd-option.ts';
import { clamdWords } from './clamd-words.ts';
import { dataDirLanguage } from './cli-language.ts';
import { CLI_MEMORY_TUNING } from './memory-flags.ts';

export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Keys this run knows (from VERDICT_API_KEY or the keychain), shared with the core's logger and scrubbed from a crash report. */
  secrets?: SecretList;
  /** Set by openCliCore, so a full disk met anywhere later is told with the folder, in the settings' language. */
  dataDir?: string;
  language?: Language;
}

/** Ends a run: the message for stderr and the exit code (2: bad arguments or could not start; 0 for --help). */
export class CliExit extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const ENGINES = ['auto', 'clamd', 'builtin'] as const;
export type EngineChoice = (typeof ENGINES)[number];

export interface ServiceOverride {
  baseUrl: string;
  apiKey: string;
}

export const COMMON_OPTIONS = {
  json: { type: 'boolean', default: false },
  service: { type: 'string' },
  'data-dir': { type: 'string' },
  engine: { type: 'string' },
  'clamav-db': { type: 'string' },
  clamd: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

/** The usage lines of the common options except --json (each CLI words that one itself). */
export const COMMON_USAGE = `  --service URL        a remote File Scanning Service; the key comes from VERDICT_API_KEY or the keychain
                       (without it, the service on this computer is used)
  --data-dir DIR       history, settings and the local service's data (default: ${defaultDataDir()})
  --engine KIND        the engine on this computer: auto (a clamd that answers, else Verdict's own clamd when clamd
                       and signatures are installed, else basic checks), clamd or builtin (basic checks: EICAR only)
  --clamav-db DIR      the signature folder for Verdict's own clamd (default: <data dir>/clamav-db, else the system's)
${CLAMD_USAGE}`;

type Parsed<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof COMMON_OPTIONS & T }>
>;

/**
 * Parses the common options plus a CLI's own. Throws CliExit for an unknown option,
 * --help (exit 0), no positionals (`nothingGiven`) or an unknown engine.
 */
export function parseCliArgs<T extends ParseArgsOptionsConfig>(argv: string[], own: T, usage: string, nothingGiven: string) {
  let parsed: Parsed<T>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...COMMON_OPTIONS, ...own } }) as Parsed<T>;
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${usage}`);
  }
  const common = parsed.values as Parsed<typeof COMMON_OPTIONS>['values'];
  if (common.help) throw new CliExit(usage, 0);
  if (parsed.positionals.length === 0) throw new CliExit(`${nothingGiven}\n\n${usage}`);
  return { values: parsed.values, positionals: parsed.positionals, ...checkEngineArgs(common) };
}

/** --engine and --clamav-db, checked together (the folder is for ClamAV). */
export function checkEngineArgs(values: { engine?: string | undefined; 'clamav-db'?: string | undefined }): { engine: EngineChoice | undefined; clamavDb: string | undefined } {
  const engine = values.engine;
  if (engine !== undefined && !(ENGINES as readonly string[]).includes(engine)) {
    throw new CliExit(`--engine must be auto, clamd or builtin (got ${engine}).`);
  }
  const clamavDb = values['clamav-db'];
  if (clamavDb !== undefined && clamavDb.length === 0) throw new CliExit('--clamav-db needs a folder.');
  if (clamavDb !== undefined && engine === 'builtin') throw new CliExit('--clamav-db is for ClamAV: it cannot be combined with --engine builtin.');
  return { engine: engine as EngineChoice | undefined, clamavDb: clamavDb === undefined ? undefined : resolve(clamavDb) };
}

/**
 * `--service URL` with its key (VERDICT_API_KEY, else the keychain entry the app saved for
 * that origin), both checked before anything is sent. undefined without --service.
 */
export async function serviceOverrideFrom(service: string | undefined, io: CliIo): Promise<ServiceOverride | undefined> {
  if (service === undefined) return undefined;
  // Checked here so the user hears what is wrong with the URL (never echoing credentials in it).
  const url = baseUrlSchema.safeParse(service);
  if (!url.success) throw new CliExit(`--service: ${url.error.issues[0]?.message ?? 'The service address is not valid.'}`);
  const fromEnv = io.env.VERDICT_API_KEY !== undefined && io.env.VERDICT_API_KEY !== '';
  const rawKey = fromEnv ? io.env.VERDICT_API_KEY : await keyFromKeychain(io, service);
  if (!rawKey) throw new CliExit('No API key for --service: set VERDICT_API_KEY, or store a key in the app (it is kept in the OS keychain).');
  io.secrets?.add(rawKey);
  const apiKey = validateApiKey(rawKey);
  if (!apiKey.ok) throw new CliExit(`${fromEnv ? 'VERDICT_API_KEY' : 'The API key in the keychain'} is not a valid key: ${apiKey.error.message}`);
  io.secrets?.add(apiKey.value);
  return { baseUrl: service, apiKey: apiKey.value };
}

async function keyFromKeychain(io: CliIo, baseUrl: string): Promise<string | null> {
  const key = await createKeychain({ service: io.env.VERDICT_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE }).getKey(accountForBaseUrl(baseUrl));
  if (!key.ok) io.stderr(key.error.message);
  return key.ok ? key.value : null;
}

/**
 * Opens the core for a CLI run (folders are never watched from the settings: `scan` watches
 * none, `watch` its own) and prints its start-up warnings to stderr, as `Warning: …`.
 */
export async function openCliCore(input: {
  io: CliIo;
  dataDir: string | undefined;
  serviceOverride: ServiceOverride | undefined;
  engine: EngineChoice | undefined;
  clamavDb?: string | undefined;
  /** --clamd as given: checked here (exit 2 with a sentence in the settings' language), before anything starts. */
  clamd?: string | undefined;
  tuning?: CoreTuning;
}): Promise<CoreInternals> {
  const { io } = input;
  const dataDir = resolve(input.dataDir ?? defaultDataDir(io.env));
  io.dataDir = dataDir;
  const clamd = readClamdOption(input.clamd, dataDirLanguage(dataDir, io.env));
  if (!clamd.ok) throw new CliExit(clamd.message);
  if (clamd.address !== undefined && input.engine === 'builtin') throw new CliExit('--clamd names a clamd: it cannot be combined with --engine builtin.');
  if (clamd.address !== undefined && input.serviceOverride !== undefined) throw new CliExit('--clamd is for the service on this computer: it cannot be combined with --service.');
  let core: CoreInternals;
  try {
    core = await createCore(
      {
        dataDir,
        serviceOverride: input.serviceOverride,
        keychainService: io.env.VERDICT_KEYCHAIN_SERVICE || undefined,
        localService: {
          ...(input.engine ? { engine: input.engine } : {}),
          ...(input.clamavDb !== undefined ? { clamavDb: input.clamavDb } : {}),
          ...(clamd.address !== undefined ? { clamd: clamd.address } : {}),
        },
        secrets: io.secrets,
      },
      { watch: false, schedules: false, ...CLI_MEMORY_TUNING, ...input.tuning },
    );
  } catch (error) {
    throw new CliExit(diskFullLine(io, error) ?? `Could not start: ${(error as Error).message}`);
  }
  const settings = await core.settings.get();
  io.language = cliLanguage(io, settings.ok ? settings.value.language : null);
  const language = io.language;
  for (const warning of core.startupWarnings) io.stderr(`Warning: ${warning.message}`);
  // Which engine judges this run's files: the service has made its first choice by now.
  // Again whenever it changes during the run (Verdict's own clamd has loaded, ClamAV went away).
  let lastLine: string | null = null;
  const say = (line: string) => {
    if (line !== lastLine) io.stderr(line);
    lastLine = line;
  };
  core.protection.onChange((next) => say(startEngineLine(next, language)));
  const view = await core.protection.status();
  if (view.ok) say(startEngineLine(view.value, language));
  // A clamd named for this run that does not answer ends it at once (the app, instead, waits for it).
  const status = view.ok ? view.value.status : null;
  if (clamd.address !== undefined && status?.state === 'not_running' && status.reason.code === 'clamd_not_answering') {
    await core.close();
    throw new CliExit(clamdWords(language).notAnswering(status.engine.where));
  }
  return core;
}

/** Which service a run uses, for its first line on stderr. */
export function serviceLabel(serviceOverride: ServiceOverride | undefined): string {
  return serviceOverride ? new URL(serviceOverride.baseUrl).origin : 'the service on this computer';
}

/**
 * What a CLI does with an error nothing caught: one line on stderr with the message, registered keys and
 * `Bearer …` removed, and exit code 2 ("could not be scanned"). Node's default would print the raw error
 * (a key in its message included) and exit with 1, which the CLIs use for "a threat was found".
 */
export function installCrashHandlers(io: CliIo & { secrets: SecretList }): void {
  const envKey = io.env.VERDICT_API_KEY;
  if (envKey) io.secrets.add(envKey);
  const stop = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    try {
      const diskFull = diskFullLine(io, error);
      if (diskFull !== '') io.stderr(diskFull ?? `Stopped by an unexpected error: ${scrubText(message, io.secrets)}`);
    } finally {
      process.exit(2);
    }
  };
  process.on('uncaughtException', stop);
  process.on('unhandledRejection', stop);
}

/** How long a CLI stopped by a full data disk may take to close before it exits anyway. */
const STALLED_EXIT_MS = 5_000;

/** Runs a CLI body, turning CliExit into its message and exit code. */
export async function runCli(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof CliExit) {
      io.stderr(error.message);
      return error.exitCode;
    }
    const diskFull = diskFullLine(io, error);
    if (diskFull === null) throw error;
    if (diskFull) io.stderr(diskFull);
    // A store that could not close on the full disk may keep the process alive (the fuzzer saw such runs hang):
    // all has been said, so the run ends. Unref'd: a process that ends by itself is not held up.
    setTimeout(() => process.exit(2), STALLED_EXIT_MS).unref();
    return 2;
  }
}
