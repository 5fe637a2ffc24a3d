// The app's logger: pino writing JSON lines to a file in the log folder, with
// secrets removed before anything reaches the file. Plain Node, so the core,
// the CLI and the Electron shell all log the same way.
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values never reach a log line, at any depth (compared case-insensitively). */
export const SECRET_KEYS: readonly string[] = [
  'apiKey',
  'api_key',
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'password',
  'secret',
  'token',
  'accessToken',
  'bearer',
];
const SECRET_KEY_SET = new Set(SECRET_KEYS.map((key) => key.toLowerCase()));
export const REDACTED = '[redacted]';

/**
 * Known secret values (e.g. the API key once it has been read from the keychain),
 * scrubbed from every string that is logged, including error messages and stacks.
 */
export interface SecretList {
  add(value: string): void;
  delete(value: string): void;
  values(): Iterable<string>;
}

export function createSecretList(): SecretList {
  const values = new Set<string>();
  return {
    // Very short values would blank out ordinary words; real keys are long.
    add: (value) => void (value.trim().length >= 8 && values.add(value.trim())),
    delete: (value) => void values.delete(value.trim()),
    values: () => values.values(),
  };
}

const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** Removes registered secrets and `Bearer …` credentials from a piece of text. */
export function scrubText(text: string, secrets?: SecretList): string {
  let result = text.replace(BEARER, `$1 ${REDACTED}`);
  for (const secret of secrets?.values() ?? []) result = result.split(secret).join(REDACTED);
  return result;
}

/**
 * A deep copy of `value` fit for a log file: secret keys replaced, strings scrubbed,
 * errors reduced to type, message, code and stack. Cycles and depth are bounded.
 */
export function sanitizeForLog(value: unknown, secrets?: SecretList, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth > 8) return '[too deep]';
  seen.add(value);
  if (value instanceof Error) {
    const code = (value as Error & { code?: unknown }).code;
    return {
      type: value.name,
      message: scrubText(value.message, secrets),
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
      ...(value.stack ? { stack: scrubText(value.stack, secrets) } : {}),
      ...(value.cause !== undefined ? { cause: sanitizeForLog(value.cause, secrets, depth + 1, seen) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeForLog(item, secrets, depth + 1, seen));
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY_SET.has(key.toLowerCase()) ? REDACTED : sanitizeForLog(item, secrets, depth + 1, seen);
  }
  return out;
}

/** pino redaction paths for bindings and fields (a second net under sanitizeForLog). */
function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of SECRET_KEYS) {
    const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
    const join = (prefix: string) => (segment.startsWith('[') ? `${prefix}${segment}` : `${prefix}.${segment}`);
    paths.push(segment.startsWith('[') ? `*${segment}` : segment, join('*'), join('*.*'), join('*.*.*'));
  }
  return paths;
}

export interface LoggerOptions {
  /** The log file; its folder is created. Without it, logs go to stderr (CLI, tests). */
  file?: string;
  level?: pino.LevelWithSilent;
  /** Rotate the file to `<file>.1` at start when it is larger than this (default 10 MB). */
  maxBytes?: number;
  secrets?: SecretList;
  /** Fields on every line, e.g. `{ process: 'main' }`. */
  base?: Record<string, unknown>;
}

/** Keeps one previous file: enough for a bug report, bounded on disk. */
export function rotateIfLarge(file: string, maxBytes: number): void {
  try {
    if (fs.statSync(file).size > maxBytes) fs.renameSync(file, `${file}.1`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Lines kept while the log file cannot be written; more are dropped. */
const MAX_PENDING_BYTES = 1024 * 1024;

export function createLogger(options: LoggerOptions = {}): Logger {
  const { file, secrets } = options;
  let destination: pino.DestinationStream;
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    rotateIfLarge(file, options.maxBytes ?? 10 * 1024 * 1024);
    // 0o600: log lines hold file paths, which are private to the user. Synchronous: a line is in the file
    // when the call returns (a crash loses none), and no flush at exit, where sonic-boom retries a failed
    // write forever (a full disk hung the CLI's exit). Lines are few (none per file), so the cost is nil.
    const stream = pino.destination({ dest: file, sync: true, mkdir: true, mode: 0o600, maxLength: MAX_PENDING_BYTES });
    // A full disk (or a log folder gone) drops lines until writes succeed again: logging never stops a scan.
    stream.on('error', () => {});
    destination = stream;
  } else {
    destination = pino.destination({ dest: 2 });
  }
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, ...options.base },
      redact: { paths: redactPaths(), censor: REDACTED },
      hooks: {
        logMethod(args, method) {
          // An Error first is pino's `err` convention; keep it under that key once sanitized.
          const clean = args.map((arg, index) =>
            index === 0 && arg instanceof Error ? { err: sanitizeForLog(arg, secrets) } : sanitizeForLog(arg, secrets),
          ) as Parameters<typeof method>;
          method.apply(this, clean);
        },
      },
    },
    destination,
  );
}
