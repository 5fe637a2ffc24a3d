// The main process's logger: a file in the OS log folder for Verdict
// (app.getPath('logs')), secrets scrubbed (see electron/logging/logger.ts).
import path from 'node:path';
import { app } from 'electron';
import { createLogger, type Logger, type SecretList } from '../logging/logger.ts';

export function logFile(name: string): string {
  return path.join(app.getPath('logs'), name);
}

export function setupLogging(secrets: SecretList): Logger {
  const log = createLogger({ file: logFile('main.log'), secrets, base: { process: 'main' } });
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
  process.on('uncaughtExceptionMonitor', (error) => log.fatal({ err: error }, 'uncaught exception'));
  return log;
}
