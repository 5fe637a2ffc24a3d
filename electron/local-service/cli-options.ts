// Parses the command line of `npm run service` (cli.ts) into service options.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/data-dir.ts';
import { API_KEY_PATTERN } from './auth/api-keys.ts';
import type { EngineKind } from '../engine/select-engine.ts';
import { webhookKeyOf } from './webhooks/signature.ts';
import { readClamdOption } from '../cli/clamd-option.ts';
import { systemLanguage } from '../core/system-language.ts';
import { engineOptionsForChoice, type ChoiceEngineOptions } from '../engine/clamd-choice-engine.ts';
import type { LocalServiceOptions } from './server.ts';

export interface CliOptions {
  options: Omit<LocalServiceOptions, 'logger'>;
  /** Set when no --api-key was given and one was made up for this run. */
  generatedKey: string | null;
  quiet: boolean;
}

/** Without --data-dir: a per-user directory of its own, apart from the app's embedded service. */
export const defaultServiceDataDir = (): string => join(defaultDataDir(), 'standalone-service');

export const USAGE = `Usage: npm run service -- [options]
  --port N                 port to listen on (default 0: a free port)
  --host H                 address to listen on (default 127.0.0.1)
  --api-key KEY            accepted API key, one integration each; repeatable (default: one generated key, printed)
  --engine KIND            auto (clamd if reachable, else built-in), clamd, or builtin (default auto)
  --clamd ADDRESS          the clamd to use: unix:/path/to/clamd.sock or tcp:HOST:PORT (a clamav container: tcp:127.0.0.1:3310)
  --clamd-socket PATH      clamd's Unix socket
  --clamd-host H, --clamd-port N   clamd over TCP
  --data-dir DIR           database and uploads (default ${defaultServiceDataDir()})
  --sync-window-ms N       how long sync submissions wait before 408 (default 90000; for tests)
  --scan-delay-ms N        make every scan take at least N ms (default 0; for tests)
  --webhook-url URL        POST signed events here on every status change
  --webhook-secret S       whsec_<base64> or a raw string (required with --webhook-url)
  --keep-finished-hours N  delete finished scans N hours after they completed (default: keep every scan)
  --quiet                  no request logs on stderr
  --help`;

export function parseCliOptions(argv: string[]): CliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      engine: { type: 'string' },
      clamd: { type: 'string' },
      'clamd-socket': { type: 'string' },
      'clamd-host': { type: 'string' },
      'clamd-port': { type: 'string' },
      'data-dir': { type: 'string' },
      'sync-window-ms': { type: 'string' },
      'scan-delay-ms': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'keep-finished-hours': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';

  const engine = values.engine ?? 'auto';
  if (!['auto', 'clamd', 'builtin'].includes(engine)) throw new Error('--engine must be auto, clamd or builtin.');
  if ((values['webhook-url'] === undefined) !== (values['webhook-secret'] === undefined)) {
    throw new Error('--webhook-url and --webhook-secret go together.');
  }
  const clamd = readClamdOption(values.clamd, systemLanguage());
  if (!clamd.ok) throw new Error(clamd.message);
  if (clamd.address !== undefined && (values['clamd-socket'] ?? values['clamd-host'] ?? values['clamd-port']) !== undefined) {
    throw new Error('--clamd names the clamd: give it without --clamd-socket, --clamd-host or --clamd-port.');
  }
  if (clamd.address !== undefined && engine === 'builtin') throw new Error('--clamd names a clamd: it cannot be combined with --engine builtin.');
  const named: Partial<ChoiceEngineOptions> = clamd.address === undefined ? {} : engineOptionsForChoice({ kind: 'address', address: clamd.address });
  const given = values['api-key'] ?? [];
  // Checked here, so a bad value is named as the option it came from (not found at start, or worse, used).
  if (given.some((key) => !API_KEY_PATTERN.test(key))) throw new Error('--api-key must be 8 to 512 printable ASCII characters without spaces.');
  if (values['webhook-url'] !== undefined && !/^https?:$/.test(URL.parse(values['webhook-url'])?.protocol ?? '')) {
    throw new Error('--webhook-url must be an http(s) URL.');
  }
  if (values['webhook-secret'] !== undefined) webhookKeyOf(values['webhook-secret']);
  const generatedKey = given.length === 0 ? `vk_${randomBytes(24).toString('base64url')}` : null;

  const options: Omit<LocalServiceOptions, 'logger'> = {
    host: values.host ?? '127.0.0.1',
    port: integer(values.port, '--port', 0, { max: MAX_PORT }),
    apiKeys: generatedKey ? [generatedKey] : given,
    dataDir: resolve(values['data-dir'] ?? defaultServiceDataDir()),
    engine: {
      kind: engine as EngineKind,
      ...(named.clamdSocket !== undefined ? { clamdSocket: named.clamdSocket } : {}),
      ...(named.clamdHost !== undefined ? { clamdHost: named.clamdHost, clamdPort: named.clamdPort } : {}),
      ...(values['clamd-socket'] !== undefined ? { clamdSocket: values['clamd-socket'] } : {}),
      ...(values['clamd-host'] !== undefined ? { clamdHost: values['clamd-host'] } : {}),
      ...(values['clamd-port'] !== undefined ? { clamdPort: integer(values['clamd-port'], '--clamd-port', 3310, { min: 1, max: MAX_PORT }) } : {}),
    },
    ...(values['sync-window-ms'] !== undefined ? { syncWindowMs: integer(values['sync-window-ms'], '--sync-window-ms', 0, { min: 1, max: MAX_TIMER_MS }) } : {}),
    ...(values['scan-delay-ms'] !== undefined ? { scanDelayMs: integer(values['scan-delay-ms'], '--scan-delay-ms', 0, { max: MAX_TIMER_MS }) } : {}),
    ...(values['keep-finished-hours'] !== undefined
      ? { keepFinishedMs: integer(values['keep-finished-hours'], '--keep-finished-hours', 0, { min: 1, max: MAX_KEEP_HOURS }) * 3_600_000 }
      : {}),
    ...(values['webhook-url'] !== undefined && values['webhook-secret'] !== undefined
      ? { webhook: { url: values['webhook-url'], secret: values['webhook-secret'] } }
      : {}),
  };
  return { options, generatedKey, quiet: values.quiet === true };
}

const MAX_PORT = 65535;
/** Ten years: longer is keeping every scan. */
const MAX_KEEP_HOURS = 87_600;
/** Node's timers fire at once (with a warning) past this many ms: a larger sync window would be none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function integer(value: string | undefined, name: string, fallback: number, range: { min?: number; max: number }): number {
  if (value === undefined) return fallback;
  const min = range.min ?? 0;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > range.max) throw new Error(`${name} must be a whole number from ${min} to ${range.max}.`);
  return Number(value);
}
