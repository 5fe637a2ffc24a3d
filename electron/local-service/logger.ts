// The slice of a pino logger the service uses, so the CLI can pass pino and
// tests or the app can pass their own. Never log API keys or webhook secrets.

export interface ServiceLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  /**
   * Whether messages of this level go anywhere (pino has it), so a per-request line
   * is not even built when they do not. Absent: every level counts as enabled.
   */
  isLevelEnabled?(level: 'info' | 'warn' | 'error'): boolean;
}

export const silentLogger: ServiceLogger = { info() {}, warn() {}, error() {}, isLevelEnabled: () => false };
