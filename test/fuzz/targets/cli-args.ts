// The command lines of `scan`/`watch` (cli/cli-options.ts) and of `npm run
// service` (local-service/cli-options.ts). The app's CLIs: parsed values or a
// CliExit with a message and exit code 0 (help) or 2. The service: options it
// can start with (a port, timers Node can arm, keys, a webhook URL and secret
// the service accepts) or an Error whose message names the problem.
import fc from 'fast-check';
import { CliExit, parseCliArgs, serviceOverrideFrom } from '../../../electron/cli/cli-options.ts';
import { API_KEY_PATTERN } from '../../../electron/local-service/auth/api-keys.ts';
import { parseCliOptions } from '../../../electron/local-service/cli-options.ts';
import { webhookKeyOf } from '../../../electron/local-service/webhooks/signature.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { hostileString } from './support/strings.ts';

/** Node's setTimeout fires at once (with a warning) past this many ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const number = fc.oneof(
  fc.constantFrom('0', '1', '65535', '65536', '-1', '1.5', '1e3', '0x10', ' 1', '007', '99999999999999999999', '2147483647', '2147483648', ''),
  fc.nat().map(String),
  hostileString(),
);
const value = fc.oneof(number, hostileString(), fc.constantFrom('builtin', 'clamd', 'auto', 'http://127.0.0.1:9', 'https://a.example/x?y', 'ftp://x', 'whsec_AAAA', 'whsec_', 'valid-key-0001', '--json'));

function argv(options: readonly string[]): fc.Arbitrary<string[]> {
  const option = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...options) }, { weight: 1, arbitrary: hostileString().map((text) => `--${text}`) });
  const token = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(option, value).map(([name, given]) => [name, given]) },
    { weight: 1, arbitrary: fc.tuple(option, value).map(([name, given]) => [`${name}=${given}`]) },
    { weight: 1, arbitrary: option.map((name) => [name]) },
    { weight: 1, arbitrary: fc.oneof(hostileString(), fc.constantFrom('-', '--', '-h', '-x', 'folder')).map((text) => [text]) },
  );
  return fc.array(token, { maxLength: 6 }).map((tokens) => tokens.flat());
}

const SERVICE_OPTIONS = ['--port', '--host', '--api-key', '--engine', '--clamd-socket', '--clamd-host', '--clamd-port', '--data-dir', '--sync-window-ms', '--scan-delay-ms', '--webhook-url', '--webhook-secret', '--quiet', '--help'];
const APP_OPTIONS = ['--json', '--service', '--data-dir', '--engine', '--help', '--mode', '--force', '--existing'];

export const serviceCliTarget: FuzzTarget<string[]> = {
  name: 'service-cli-args',
  about: 'parseCliOptions (npm run service): options the service can start with, or an Error naming the problem',
  smoke: { runs: 3000 },
  async: false,
  async open() {
    return {
      arbitrary: argv(SERVICE_OPTIONS),
      check(args) {
        let parsed: ReturnType<typeof parseCliOptions>;
        try {
          parsed = parseCliOptions(args);
        } catch (error) {
          expectThat(error instanceof Error && error.message.length > 0, () => `not a clear error: ${String(error)}`);
          return;
        }
        if (parsed === 'help') return;
        const { options } = parsed;
        const inRange = (n: number | undefined, min: number, max: number) => n === undefined || (Number.isInteger(n) && n >= min && n <= max);
        expectThat(inRange(options.port, 0, 65535), () => `port ${options.port} accepted`);
        const engine = options.engine as { clamdPort?: number };
        expectThat(inRange(engine.clamdPort, 1, 65535), () => `clamd port ${engine.clamdPort} accepted`);
        expectThat(inRange(options.syncWindowMs, 1, MAX_TIMER_MS), () => `sync window ${options.syncWindowMs} ms accepted`);
        expectThat(inRange(options.scanDelayMs, 0, MAX_TIMER_MS), () => `scan delay ${options.scanDelayMs} ms accepted`);
        expectThat(options.apiKeys.every((key) => typeof key === 'string' && API_KEY_PATTERN.test(key)), 'an API key the service refuses was accepted');
        if (options.webhook) {
          const url = URL.parse(options.webhook.url);
          expectThat(url !== null && (url.protocol === 'http:' || url.protocol === 'https:'), () => `webhook URL ${options.webhook?.url} accepted`);
          try {
            webhookKeyOf(options.webhook.secret);
          } catch (error) {
            throw new FuzzFinding(`a webhook secret the service refuses was accepted: ${String(error)}`);
          }
        }
      },
      close: async () => {},
    };
  },
};

const USAGE = 'usage';

export const appCliTarget: FuzzTarget<string[]> = {
  name: 'app-cli-args',
  about: 'parseCliArgs and --service checks (scan/watch): values, or a CliExit with a message and exit code 0 or 2',
  smoke: { runs: 2000 },
  async: true,
  async open() {
    const io = { stdout: () => {}, stderr: () => {}, env: { VERDICT_API_KEY: 'fuzz-key-0001' } };
    return {
      arbitrary: argv(APP_OPTIONS),
      async check(args) {
        try {
          const { values } = parseCliArgs(args, { mode: { type: 'string' }, force: { type: 'boolean', default: false }, existing: { type: 'boolean', default: false } }, USAGE, 'nothing');
          const override = await serviceOverrideFrom(values.service as string | undefined, io);
          if (override) expectThat(URL.canParse(override.baseUrl), 'an unusable --service URL accepted');
        } catch (error) {
          if (error instanceof FuzzFinding) throw error;
          expectThat(error instanceof CliExit && error.message.length > 0 && (error.exitCode === 0 || error.exitCode === 2), () => `not a CliExit: ${String(error)}`);
        }
      },
      close: async () => {},
    };
  },
};
