// The fd-passing addon on its own: it loads as the package the app depends on, its errors
// carry Node's codes, a full socket says EAGAIN instead of blocking, and it works in worker
// threads (no default loop, no global state). That clamd receives what it passes is
// tested against a real clamd in clamd-client.test.ts.
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { loadFdPassing, type FdPassing } from '../../../electron/engine/clamd/fd-passing.ts';

const load = loadFdPassing();
if (!load.ok && process.platform !== 'win32') throw new Error(`the addon must load here: ${load.reason}`);
const addon = (load.ok ? load.addon : null) as FdPassing;

const dir = mkdtempSync(join(tmpdir(), 'verdict-fdpass-'));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A Unix socket server whose connections are kept (paused: nothing is read) for the test. */
async function listen(name: string): Promise<{ path: string; accepted: Promise<Socket>; server: Server }> {
  const path = join(dir, name);
  let accept!: (socket: Socket) => void;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const server = createServer({ pauseOnConnect: true }, accept);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanups.push(() => server.close());
  return { path, accepted, server };
}

function errorOf(action: () => unknown): NodeJS.ErrnoException {
  try {
    action();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error('no error was thrown');
}

describe.skipIf(process.platform === 'win32')('@verdict/fdpass', () => {
  test('connects to a Unix socket and sends bytes, with or without a descriptor attached', async () => {
    const { path, accepted } = await listen('plain.sock');
    const fd = addon.connectUnix(path);
    cleanups.push(() => closeSync(fd));
    const peer = await accepted;
    const received: Buffer[] = [];
    peer.on('data', (chunk: Buffer) => received.push(chunk));
    peer.resume();
    const file = openSync(join(dir, 'any-file'), 'w'); // any descriptor will do: the peer (Node) drops it
    cleanups.push(() => closeSync(file));
    expect(addon.sendFd(fd, file, Buffer.from('zFILDES\0\0'))).toBe(9);
    expect(addon.sendFd(fd, -1, Buffer.from('zPING\0'))).toBe(6);
    await expect.poll(() => Buffer.concat(received).toString('latin1')).toBe('zFILDES\0\0zPING\0');
  });

  test('failures throw Node-style errors: code, errno, syscall', async () => {
    const missing = errorOf(() => addon.connectUnix(join(dir, 'nobody-here.sock')));
    expect(missing).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(missing.errno).toBeGreaterThan(0);
    expect(errorOf(() => addon.connectUnix(`/${'x'.repeat(200)}`))).toMatchObject({ code: 'ENAMETOOLONG' });
    const notSocket = openSync(join(dir, 'file'), 'w');
    cleanups.push(() => closeSync(notSocket));
    expect(errorOf(() => addon.sendFd(notSocket, -1, Buffer.from('x')))).toMatchObject({ code: 'ENOTSOCK', syscall: 'sendmsg' });
    expect(errorOf(() => addon.sendFd(987_654, -1, Buffer.from('x')))).toMatchObject({ code: 'EBADF' });
  });

  test('wrong arguments are TypeErrors, and a descriptor needs at least one byte to travel with', () => {
    expect(() => addon.connectUnix(42 as unknown as string)).toThrow(TypeError);
    expect(() => addon.connectUnix('')).toThrow(TypeError);
    expect(() => addon.sendFd(1.5, -1, Buffer.from('x'))).toThrow(TypeError);
    expect(() => addon.sendFd(3, -1, 'text' as unknown as Buffer)).toThrow(TypeError);
    expect(() => addon.sendFd(3, 0, Buffer.alloc(0))).toThrow(/at least one byte/);
  });

  test('a Buffer path reaches a socket whose name is not valid UTF-8', async () => {
    const name = Buffer.concat([Buffer.from(join(dir, 'bad-')), Buffer.from([0xff, 0xfe]), Buffer.from('.sock')]);
    const server = createServer(() => undefined);
    // Node listens on a string path only; the non-UTF-8 name is made by a hard link to a socket.
    await new Promise<void>((resolve) => server.listen(join(dir, 'latin.sock'), resolve));
    cleanups.push(() => server.close());
    const { linkSync } = await import('node:fs');
    linkSync(join(dir, 'latin.sock'), name);
    const fd = addon.connectUnix(name);
    closeSync(fd);
  });

  test('never blocks: a peer that reads nothing fills the socket, and then sendFd says EAGAIN', async () => {
    const { path, accepted } = await listen('full.sock');
    const fd = addon.connectUnix(path);
    cleanups.push(() => closeSync(fd));
    await accepted;
    const chunk = Buffer.alloc(64 * 1024, 1);
    let error: NodeJS.ErrnoException | null = null;
    for (let i = 0; i < 10_000 && error === null; i++) {
      try {
        addon.sendFd(fd, -1, chunk);
      } catch (caught) {
        error = caught as NodeJS.ErrnoException;
      }
    }
    expect(error).toMatchObject({ code: 'EAGAIN', syscall: 'sendmsg' });
  });

  test('works in worker threads, several at once, and they end cleanly', async () => {
    const { path, server } = await listen('workers.sock');
    const received: string[] = [];
    server.on('connection', (socket: Socket) => {
      socket.on('data', (data: Buffer) => received.push(data.toString()));
      socket.resume();
    });
    const source = `
      const { workerData, parentPort } = require('node:worker_threads');
      const { createRequire } = require('node:module');
      const addon = createRequire(workerData.from)('@verdict/fdpass');
      const fd = addon.connectUnix(workerData.path);
      const sent = addon.sendFd(fd, -1, Buffer.from('hello from ' + workerData.n + ';'));
      require('node:fs').closeSync(fd);
      parentPort.postMessage(sent);`;
    const from = join(import.meta.dirname, '../../../electron/engine/clamd/fd-passing.ts');
    const results = await Promise.all(
      [1, 2, 3, 4].map(
        (n) =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker(source, { eval: true, workerData: { path, n, from } });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    expect(results).toEqual([1, 2, 3, 4].map((n) => `hello from ${n};`.length));
    await expect.poll(() => received.join('').split(';').filter(Boolean).sort()).toEqual([1, 2, 3, 4].map((n) => `hello from ${n}`));
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
