/**
 * The local File Scanning Service as its own process (`node electron/local-service/cli.ts`,
 * what `npm run service` runs), so a test can measure its memory apart from the
 * test's own and kill it like a user would.
 *
 * ```ts
 * const service = await startServiceProcess({ apiKeys: ['my-key-0001'], dataDir });
 * service.url; service.pid; await service.stop();
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '../../electron/local-service/cli.ts');
const START_TIMEOUT_MS = 20_000;

export interface ServiceProcessOptions {
  apiKeys: string[];
  dataDir: string;
  engine?: 'builtin' | 'clamd' | 'auto';
  syncWindowMs?: number;
  scanDelayMs?: number;
  /** Extra arguments, e.g. ['--port', '4000']. */
  args?: string[];
  /** Node options for the child, e.g. ['--max-old-space-size=64']. */
  nodeArgs?: string[];
}

export interface ServiceProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** stdout and stderr so far (request logs are off: --quiet). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const args = [
    ...(options.nodeArgs ?? []),
    CLI,
    '--port',
    '0',
    '--engine',
    options.engine ?? 'builtin',
    '--data-dir',
    options.dataDir,
    '--quiet',
    ...options.apiKeys.flatMap((key) => ['--api-key', key]),
    ...(options.syncWindowMs === undefined ? [] : ['--sync-window-ms', String(options.syncWindowMs)]),
    ...(options.scanDelayMs === undefined ? [] : ['--scan-delay-ms', String(options.scanDelayMs)]),
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`the service did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) finish(null, found);
    }, 20);
    void exited.then((code) => finish(new Error(`the service exited (${code}) before listening:\n${output}`)));
    function finish(error: Error | null, value?: string) {
      clearTimeout(timer);
      clearInterval(poll);
      if (error) reject(error);
      else resolve(value as string);
    }
  }).catch(async (error: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    throw error;
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  return { url, port: Number(new URL(url).port), pid: child.pid as number, child, output: () => output, exited, stop };
}
