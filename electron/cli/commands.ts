// The commands `verdict` answers without opening a window: `verdict scan|watch|service|status|update|allow-name|feeds|lookup …`,
// from the packaged app (electron/shell/cli-mode.ts, routed before the single-instance
// lock) and from a checkout (bin/verdict.mjs, `npx verdict …`). Plain Node: each command
// is today's CLI module, loaded on demand, with its own output, JSON and exit codes.
// Light on purpose: the app's modules (cli-options.ts pulls in the core) load with the command that needs them.
import { createLineWriter } from './line-writer.ts';
import { favourMemoryOverSpeed } from './memory-flags.ts';

/** A command and the arguments after its name. */
export interface CliCommand {
  name: CommandName;
  args: string[];
}

/**
 * A run's outcome: an exit code, or `running` for a command that keeps serving until a
 * signal and ends the process itself (`service`).
 */
export type CommandOutcome = number | 'running';

const COMMANDS = {
  scan: async (args: string[]) => {
    favourMemoryOverSpeed();
    // The service's thread loads its modules on the other core while this one loads the app's (warm-thread.ts).
    if (!args.some((arg) => arg === '--help' || arg === '-h')) (await import('../local-service/thread/warm-thread.ts')).warmServiceThread();
    return (await import('./scan.ts')).runScan(args, await processIo());
  },
  watch: async (args: string[]) => {
    favourMemoryOverSpeed();
    return (await import('./watch.ts')).runWatch(args, { ...(await processIo()), stopped: stopSignal() });
  },
  service: async (args: string[]): Promise<CommandOutcome> => ((await (await import('../local-service/cli.ts')).runServiceCli(args)) ? 'running' : Number(process.exitCode ?? 0)),
  status: async (args: string[]) => (await import('./status.ts')).runStatus(args, await processIo()),
  update: async (args: string[]) => (await import('./update.ts')).runUpdate(args, await processIo()),
  recheck: async (args: string[]) => {
    favourMemoryOverSpeed();
    return (await import('./recheck.ts')).runRecheck(args, await processIo());
  },
  'allow-name': async (args: string[]) => (await import('./allow-name.ts')).runAllowName(args, await processIo()),
  'engine-settings': async (args: string[]) => (await import('./engine-settings.ts')).runEngineSettings(args, await processIo()),
  rules: async (args: string[]) => (await import('./rules.ts')).runRules(args, await processIo()),
  feeds: async (args: string[]) => (await import('./feeds.ts')).runFeeds(args, await processIo()),
  lookup: async (args: string[]) => (await import('./lookup.ts')).runLookup(args, await processIo()),
} satisfies Record<string, (args: string[]) => Promise<CommandOutcome>>;

type CommandName = keyof typeof COMMANDS;

/** Every command `verdict` answers (what `status` may recommend). */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

const isCommandName = (word: string): word is CommandName => Object.hasOwn(COMMANDS, word);

/**
 * The command a launch names, or null for a normal (windowed) launch. `skip` leading entries
 * are not arguments (1 for a packaged app, 2 for `electron .`); switches before the command
 * (Chromium's `--enable-logging`, `--hidden`) are passed over. Only the first word counts, so
 * "Open with Verdict", which passes absolute paths or file:// URLs, never names a command.
 */
export function cliCommandFrom(argv: readonly string[], skip: number): CliCommand | null {
  const rest = argv.slice(Math.max(0, skip));
  const index = rest.findIndex((arg) => !arg.startsWith('-'));
  if (index === -1) return null;
  const word = rest[index]!;
  return isCommandName(word) ? { name: word, args: rest.slice(index + 1) } : null;
}

export const USAGE = `Usage: verdict <command> [options]

Commands:
  scan <files or folders...>   scan through the same pipeline as the app (verdict scan --help)
  watch <folders...>           scan what appears in folders until Ctrl+C (verdict watch --help)
  service                      run the local File Scanning Service (verdict service --help)
  status                       the protection state: engine, signatures and their age (verdict status --json)
  update                       download the ClamAV signatures into Verdict's own folder (verdict update --help)
  recheck                      judge recent files again with the signatures in use now (verdict recheck --help)
  allow-name NAME              allow a detection name; --remove NAME, --list (verdict allow-name --help)
  engine-settings              what Verdict's own clamd detects (PUA) and its scan limits; change them (verdict engine-settings --help)
  rules import FILE|FOLDER     your own YARA rules for Verdict's own clamd, each checked by ClamAV's loader; list, remove (verdict rules --help)
  feeds                        extra signature feeds for Verdict's own clamd: list, add, on, off, update (verdict feeds --help)
  lookup <files or SHA-256...> VirusTotal's page and, with your API key, its last analysis; by hash, nothing uploaded (verdict lookup --help)

Without a command, Verdict opens its window; files and folders named are scanned there.`;

/** Runs a command with this process's stdout, stderr, environment and signals. */
export async function runCliCommand(command: CliCommand): Promise<CommandOutcome> {
  return COMMANDS[command.name](command.args);
}

async function processIo() {
  const [{ createSecretList }, { installCrashHandlers }] = await Promise.all([import('../logging/logger.ts'), import('./cli-options.ts')]);
  const onExit = (flush: () => void) => void process.on('exit', flush);
  const out = createLineWriter((text) => void process.stdout.write(text), onExit, process.stdout.isTTY === true);
  const err = createLineWriter((text) => void process.stderr.write(text), onExit, process.stderr.isTTY === true);
  const io = {
    stdout: out.line,
    stderr: err.line,
    env: process.env,
    secrets: createSecretList(),
  };
  installCrashHandlers(io);
  return io;
}

function stopSignal(): Promise<void> {
  return new Promise<void>((resolveStop) => {
    process.once('SIGINT', () => resolveStop());
    process.once('SIGTERM', () => resolveStop());
  });
}
