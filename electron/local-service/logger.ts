// The slice of a pino logger the service uses, so the CLI can pass pino and
// tests or the app can pass their own. Never log API keys or webhook secrets.

export interface ServiceLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLogger: ServiceLogger = { info() {}, warn() {}, error() {} };
