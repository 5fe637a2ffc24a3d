// The embedded local service logs through the core: its warnings cross the
// worker thread as plain messages and land in the core's log file, scrubbed of
// the secrets the core knows, and nothing of them goes to stderr. A stand-in
// clamd (a real unix socket) answers PING and fails every scan with a reply
// that quotes a secret, so the service warns `scan failed`.
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../../electron/core/create-core.ts';
import { createSecretList } from '../../../electron/logging/logger.ts';
import { FAST, tempDir, until, writeFiles } from '../scans/harness.ts';

const SECRET = 'sk-local-secret-4f9a2c7e1b';

let dir: Awaited<ReturnType<typeof tempDir>>;
let clamd: Server | null = null;
const sockets: Socket[] = [];

beforeEach(async () => {
  dir = await tempDir('verdict-core-log-');
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const socket of sockets.splice(0)) socket.destroy();
  if (clamd) await new Promise((resolve) => clamd!.close(resolve));
  clamd = null;
  await dir.remove();
});

/** Answers PING with PONG and every INSTREAM with an ERROR that quotes SECRET. */
async function failingClamd(socketPath: string): Promise<void> {
  clamd = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    let received = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (received.toString('latin1').startsWith('zPING\0')) socket.end('PONG\0');
      // The upload ends with a zero-length chunk.
      else if (received.toString('latin1').startsWith('zINSTREAM\0') && received.subarray(-4).readUInt32BE(0) === 0) {
        socket.end(`stream: denied by ${SECRET} ERROR\0`);
      }
    });
  });
  await new Promise<void>((resolve) => clamd!.listen(socketPath, resolve));
}

describe('the embedded service logs through the core', () => {
  it('puts a warning of the service (in its thread) in core.log, scrubbed, and not on stderr', async () => {
    const socketPath = join(dir.path, 'clamd.sock');
    await failingClamd(socketPath);
    const written: string[] = [];
    const capture = (chunk: unknown) => void written.push(String(chunk));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (capture(chunk), true));
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => capture(args.join(' ')));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => capture(args.join(' ')));

    const secrets = createSecretList();
    secrets.add(SECRET);
    const logFile = join(dir.path, 'logs', 'core.log');
    const core = await createCore(
      { dataDir: join(dir.path, 'data'), keychainService: `verdict-test-${process.pid}`, localService: { engine: 'clamd', clamdSocket: socketPath }, logFile, secrets },
      FAST,
    );
    try {
      const [file] = await writeFiles(dir.path, 1);
      const submitted = await core.submit([file!], { origin: 'cli' });
      expect(submitted.ok).toBe(true);
      const id = submitted.ok ? submitted.value.ids[0]! : '';
      await until(async () => {
        const record = await core.scans.get(id);
        return record.ok && record.value.status !== 'queued' && record.value.status !== 'uploading' && record.value.status !== 'processing';
      }, 'the scan to end');
    } finally {
      await core.close();
    }

    const lines = (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const warning = lines.find((line) => line.component === 'local-service' && line.msg === 'scan failed');
    expect(warning, JSON.stringify(lines, null, 1)).toMatchObject({ level: 40, process: 'core', err: { message: expect.stringContaining('denied by [redacted]') } });
    expect(await readFile(logFile, 'utf8')).not.toContain(SECRET);
    expect(written.filter((text) => /scan failed|local service|denied by/.test(text))).toEqual([]);
  });
});
