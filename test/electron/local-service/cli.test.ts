// `npm run service`: the real CLI as a child process — prints its URL (and a
// generated key), serves, stops cleanly on SIGTERM/SIGINT — and its options.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../../electron/core/data-dir-lock.ts';
import { parseCliOptions } from '../../../electron/local-service/cli-options.ts';
import { terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { getScan, submit, waitFor } from './harness.ts';

const CLI = join(import.meta.dirname, '../../../electron/local-service/cli.ts');

interface RunningCli {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function runCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

let scratch: string | null = null;
let running: RunningCli | null = null;
afterEach(async () => {
  if (running && running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  running = null;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = null;
});

describe('npm run service', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints its URL and generated key, serves, and stops on %s', async (signal) => {
    scratch = await mkdtemp(join(tmpdir(), 'verdict-cli-'));
    running = runCli(['--port', '0', '--engine', 'builtin', '--data-dir', join(scratch, 'data'), '--quiet']);
    const cli = running;
    const printed = await waitFor(async () => {
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(cli.output())?.[0];
      const key = /API key[^:]*: (\S+)/.exec(cli.output())?.[1];
      return url && key ? { url, key } : null;
    }, 'the CLI to print its URL and key');
    expect(cli.output()).toMatch(/Engine: builtin/);

    const reply = await submit(printed.url, { key: printed.key, mode: 'sync' });
    const scan = terminalScanSchema.parse(reply.body);
    expect((await getScan(printed.url, scan.id, { key: printed.key })).status).toBe(200);
    expect((await getScan(printed.url, scan.id, { key: 'some-other-key-123' })).status).toBe(401);

    cli.child.kill(signal);
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain(`${signal}: stopping`);
  });

  it('takes several --api-key values, one integration each', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'verdict-cli-'));
    running = runCli(['--port', '0', '--engine', 'builtin', '--data-dir', join(scratch, 'data'), '--api-key', 'first-key-0001', '--api-key', 'second-key-0002', '--quiet']);
    const cli = running;
    const url = await waitFor(async () => /http:\/\/127\.0\.0\.1:\d+/.exec(cli.output())?.[0], 'the URL');
    expect(cli.output()).not.toContain('generated');
    const mine = terminalScanSchema.parse((await submit(url, { key: 'first-key-0001', mode: 'sync' })).body);
    expect((await getScan(url, mine.id, { key: 'first-key-0001' })).status).toBe(200);
    expect((await getScan(url, mine.id, { key: 'second-key-0002' })).status).toBe(404);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('refuses a second service on the same data directory, and takes over the lock of one that was killed', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'verdict-cli-'));
    const dataDir = join(scratch, 'data');
    const args = ['--port', '0', '--engine', 'builtin', '--data-dir', dataDir, '--quiet'];
    running = runCli(args);
    const first = running;
    await waitFor(async () => /listening on http/.test(first.output()), 'the first service to listen');

    const second = runCli(args);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The service could not start: Another Verdict process (pid ${first.child.pid}) is using the data directory ${dataDir}.`);
    expect(second.output()).toContain('use another data directory (--data-dir)');
    expect(second.output()).not.toContain('listening on');
    // The first one still owns its lock.
    expect(Number.parseInt(await readFile(join(dataDir, LOCK_FILE), 'utf8'), 10)).toBe(first.child.pid);

    first.child.kill('SIGKILL');
    await first.exited;
    running = runCli(args);
    const third = running;
    await waitFor(async () => /listening on http/.test(third.output()), 'a service after the owner was killed');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    // A clean stop leaves no lock behind.
    await expect(readFile(join(dataDir, LOCK_FILE), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('stops cleanly on a SIGTERM that arrives while it is still starting (no kill by the default action, no lock left)', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'verdict-cli-'));
    const dataDir = join(scratch, 'data');
    // A "clamd" that accepts and never answers: the start waits in its engine probe, where the signal lands.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const probed = new Promise<void>((resolve) => silent.once('connection', () => resolve()));
    try {
      const port = String((silent.address() as AddressInfo).port);
      running = runCli(['--port', '0', '--engine', 'auto', '--clamd-host', '127.0.0.1', '--clamd-port', port, '--data-dir', dataDir, '--quiet']);
      const cli = running;
      await probed;
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain('SIGTERM: stopping');
      expect(cli.output()).not.toContain('listening on');
      await expect(readFile(join(dataDir, LOCK_FILE), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      silent.close();
    }
  });

  it('exits with a usage message on bad options', async () => {
    const runs = [['--engine', 'magic'], ['--webhook-url', 'http://x'], ['--port', 'abc'], ['--frobnicate']].map(runCli);
    for (const cli of runs) {
      expect(await cli.exited).toBe(2);
      expect(cli.output()).toContain('Usage: npm run service');
    }
  });
});

describe('parseCliOptions', () => {
  it('maps every option', () => {
    const parsed = parseCliOptions([
      '--port', '8123', '--host', '127.0.0.2', '--api-key', 'k-00000001', '--api-key', 'k-00000002', '--engine', 'clamd',
      '--clamd-socket', '/run/x.sock', '--data-dir', '/tmp/d', '--sync-window-ms', '500', '--scan-delay-ms', '20',
      '--webhook-url', 'https://example.org/h', '--webhook-secret', 'whsec_AAAA', '--keep-finished-hours', '48',
    ]);
    expect(parsed).not.toBe('help');
    if (parsed === 'help') return;
    expect(parsed.generatedKey).toBeNull();
    expect(parsed.options).toEqual({
      host: '127.0.0.2',
      port: 8123,
      apiKeys: ['k-00000001', 'k-00000002'],
      dataDir: '/tmp/d',
      engine: { kind: 'clamd', clamdSocket: '/run/x.sock' },
      syncWindowMs: 500,
      scanDelayMs: 20,
      webhook: { url: 'https://example.org/h', secret: 'whsec_AAAA' },
      keepFinishedMs: 48 * 3_600_000,
    });
  });

  // Found by the fuzzer (test/fuzz/targets/cli-args.ts): each was accepted, then failed at start or, for a timer, fired at once.
  it.each([
    [['--port', '65536'], /--port must be a whole number from 0 to 65535/],
    [['--clamd-port', '0'], /--clamd-port must be a whole number from 1 to 65535/],
    [['--sync-window-ms', '0'], /--sync-window-ms must be a whole number from 1 to 2147483647/],
    [['--sync-window-ms', '2147483648'], /--sync-window-ms/],
    [['--scan-delay-ms', '99999999999'], /--scan-delay-ms/],
    [['--keep-finished-hours', '0'], /--keep-finished-hours must be a whole number from 1 to 87600/],
    [['--api-key', 'short'], /--api-key must be 8 to 512 printable ASCII characters/],
    [['--api-key='], /--api-key/],
    [['--webhook-url', 'ftp://example.org/h', '--webhook-secret', 'raw-secret'], /--webhook-url must be an http\(s\) URL/],
    [['--webhook-url', 'not a url', '--webhook-secret', 'raw-secret'], /--webhook-url/],
    [['--webhook-url', 'https://example.org/h', '--webhook-secret', 'whsec_!!'], /whsec_ webhook secret must be followed by base64/],
  ])('refuses %j, naming the option', (argv, message) => {
    expect(() => parseCliOptions(argv)).toThrow(message);
  });

  it('generates a key and uses the defaults when given nothing', () => {
    const parsed = parseCliOptions([]);
    if (parsed === 'help') throw new Error('unexpected help');
    expect(parsed.generatedKey).toMatch(/^vk_[A-Za-z0-9_-]{32}$/);
    expect(parsed.options).toMatchObject({ host: '127.0.0.1', port: 0, apiKeys: [parsed.generatedKey], engine: { kind: 'auto' } });
    expect(parsed.options.dataDir).toMatch(/standalone-service$/);
    // A standalone service keeps every scan unless told otherwise.
    expect(parsed.options).not.toHaveProperty('keepFinishedMs');
  });
});
