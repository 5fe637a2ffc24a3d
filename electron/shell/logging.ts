// The main process's logger: a file in the OS log folder for Verdict
// (app.getPath('logs')), secrets scrubbed (see electron/logging/logger.ts), and
// what happens to an error nothing caught.
import path from 'node:path';
import { app } from 'electron';
import { isDiskFull } from '../core/disk-full.ts';
import { createLogger, type Logger, type SecretList } from '../logging/logger.ts';
import { showDiskFullStop } from './dialogs.ts';

export function logFile(name: string): string {
  return path.join(app.getPath('logs'), name);
}

export function setupLogging(secrets: SecretList): Logger {
  const file = logFile('main.log');
  // Synchronous: the main process logs little (start, quit, warnings), and a line written just before the
  // process ends (the crash below) must be on disk. An async file would also not yet be open in the first
  // moments, and pino's flush at exit throws then, which turns a crash into exit code 7.
  const log = createLogger({ file, secrets, base: { process: 'main' } });
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
  // A handler of our own replaces Node's default (and Electron's error dialog), which would show the raw
  // error, an API key in its message included. The details go only to the scrubbed log.
  process.on('uncaughtException', (error) => {
    try {
      log.fatal({ err: error }, 'uncaught exception');
      process.stderr.write(`Verdict stopped after an unexpected error. The details are in ${file}.\n`);
      // The window goes with the process: a full data disk is said in a dialog, with the folder and what to do.
      const dataDir = app.getPath('userData');
      if (isDiskFull(error, dataDir)) showDiskFullStop(dataDir, 'run');
    } finally {
      app.exit(1);
    }
  });
  return log;
}
