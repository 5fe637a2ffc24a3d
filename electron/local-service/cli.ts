// Runs the local File Scanning Service on its own (options: see cli-options.ts):
//   npm run service -- [--port N] [--api-key KEY]... [--engine auto|clamd|builtin] [--data-dir DIR] ...
// Prints the URL as soon as it listens; stops cleanly on SIGINT/SIGTERM.
// One service per data directory (the core's lock file): on start the service
// resumes every scan left processing, which is only right when no other live
// service is running them.
import { mkdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import pino from 'pino';
import { acquireDataDirLock } from '../core/data-dir-lock.ts';
import { engineSummary } from '../engine/select-engine.ts';
import { parseCliOptions, USAGE, type CliOptions } from './cli-options.ts';
import { startLocalService, type LocalService } from './server.ts';

/**
 * Starts the service for these arguments (`npm run service`, `verdict service`). True while it
 * serves (it ends the process itself on SIGINT/SIGTERM); false when it printed help or an
 * argument error (`process.exitCode` set). A failed start ends the process with code 1.
 */
export function runServiceCli(argv: string[]): Promise<boolean> {
  // V8 lets the young generation grow to 48 MB while a 100 MB upload streams through (64 KiB
  // chunks, each garbage at once): the process grew 40 MiB per upload (bench case 3). A 2 MB
  // semi-space, as the embedded service's thread has (SERVICE_THREAD_LIMITS), keeps it under
  // 5 MiB at the same speed. Set before the heap grows.
  setFlagsFromString('--max-semi-space-size=2');
  return serve(argv).catch((error: unknown) => {
    console.error(`The service could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

async function serve(argv: string[]): Promise<boolean> {
  let parsed: CliOptions | 'help';
  try {
    parsed = parseCliOptions(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return false;
  }
  if (parsed === 'help') {
    console.log(USAGE);
    return false;
  }
  // Logs go to stderr as JSON lines; they never contain API keys or the webhook secret.
  const logger = pino({ level: parsed.quiet ? 'silent' : 'info', base: null }, pino.destination(2));

  // Handlers first: until a listener exists, SIGTERM has its default action and kills the process on the
  // spot (no clean stop, scans not closed), also in the moment between "listening" and registering them.
  let started: LocalService | null = null;
  let stopping = false;
  const close = (service: LocalService) =>
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Stopping failed:', error);
        process.exit(1);
      },
    );
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    // A signal during start: the service is closed as soon as it is up (below).
    if (started) void close(started);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  mkdirSync(parsed.options.dataDir, { recursive: true, mode: 0o700 });
  // Throws DataDirInUseError ("Another Verdict process (pid …) is using …"): reported below, exit 1.
  const lock = acquireDataDirLock(parsed.options.dataDir);
  // Every way out (stop, a failed start, a crash that still runs exit handlers); a SIGKILLed owner's lock is taken over.
  process.once('exit', () => lock.release());

  const service = await startLocalService({ ...parsed.options, logger });
  started = service;
  if (stopping) {
    await close(service);
    return true;
  }
  console.log(`Verdict local File Scanning Service listening on ${service.url}`);
  console.log(`Engine: ${engineSummary(service.engine)}`);
  console.log(`Data directory: ${parsed.options.dataDir}`);
  if (parsed.generatedKey) console.log(`API key (generated for this run; pass --api-key to choose one): ${parsed.generatedKey}`);
  return true;
}

if (import.meta.main) void runServiceCli(process.argv.slice(2));
