// ClamdEngine when clamd is missing or misbehaves: real sockets served by
// stand-ins that close, babble, refuse or stay silent. Every case must end in
// an EngineError with a clear code, never in a verdict.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import type { ClamdEndpoint } from '../../../electron/engine/instream/clamd-protocol.ts';
import { EngineError } from '../../../electron/engine/engine.ts';
import { fixtureDir, noise, type FixtureDir } from '../../fixtures/engine-files.ts';

let files: FixtureDir;
let smallFile: string;
let bigFile: string;
const servers: Server[] = [];
const serverSockets: Socket[] = [];

beforeAll(async () => {
  files = await fixtureDir();
  smallFile = await files.write('small.txt', 'hello clamd\n');
  bigFile = await files.write('big.bin', noise(8 * 1024 * 1024, 2));
});
afterEach(async () => {
  // A stand-in that stopped reading never sees the client's FIN; close() would wait for it.
  for (const socket of serverSockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
afterAll(async () => {
  await files.remove();
});

/** A stand-in clamd on a unix socket in the test's temp dir. */
async function fakeClamd(onConnection: (socket: Socket) => void): Promise<{ endpoint: ClamdEndpoint }> {
  const server = createServer((socket) => {
    serverSockets.push(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  servers.push(server);
  const socketPath = join(files.path, `fake-${servers.length}.sock`);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { endpoint: { socketPath } };
}

/**
 * Reassembles an INSTREAM upload; calls back with the payload once the zero-length chunk arrives.
 * The engine also asks `zVERSION` on a connection of its own (the verdict's identity): this fake
 * answers none, so such a connection is closed without a reply.
 */
function instreamReader(onComplete: (payload: Buffer, chunkSizes: number[]) => void) {
  let buffered = Buffer.alloc(0);
  let commandSeen = false;
  const parts: Buffer[] = [];
  const chunkSizes: number[] = [];
  return function read(this: Socket | undefined, data: Buffer) {
    buffered = Buffer.concat([buffered, data]);
    if (!commandSeen) {
      const end = buffered.indexOf(0);
      if (end < 0) return;
      const command = buffered.subarray(0, end).toString();
      if (command === 'zVERSION') {
        buffered = Buffer.alloc(0);
        this?.end();
        return;
      }
      expect(command).toBe('zINSTREAM');
      commandSeen = true;
      buffered = buffered.subarray(end + 1);
    }
    while (buffered.length >= 4) {
      const length = buffered.readUInt32BE(0);
      if (buffered.length < 4 + length) return;
      if (length === 0) {
        onComplete(Buffer.concat(parts), chunkSizes);
        return;
      }
      parts.push(buffered.subarray(4, 4 + length));
      chunkSizes.push(length);
      buffered = buffered.subarray(4 + length);
    }
  };
}

async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    (value) => new Error(`expected an EngineError, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('the INSTREAM framing', () => {
  test('sends zINSTREAM, the file in length-prefixed chunks no larger than chunkSize, then a zero-length chunk', async () => {
    let received: { payload: Buffer; chunkSizes: number[] } | undefined;
    const fake = await fakeClamd((socket) => {
      socket.on(
        'data',
        instreamReader((payload, chunkSizes) => {
          received = { payload, chunkSizes };
          socket.end('stream: OK\0');
        }),
      );
    });
    const engine = new ClamdEngine({ endpoint: fake.endpoint, chunkSize: 64 * 1024 });
    // This fake answers no VERSION: the verdict is ClamAV's, without a version.
    await expect(engine.scan(bigFile)).resolves.toEqual({ safe: true, detailed: 'clean', findings: [], engine: { name: 'clamav', version: null, signatures: null } });
    expect(received?.payload.equals(noise(8 * 1024 * 1024, 2))).toBe(true);
    expect(Math.max(...(received?.chunkSizes ?? [Infinity]))).toBeLessThanOrEqual(64 * 1024);
  });

  test('a slow reader gets the whole file (backpressure, nothing dropped)', async () => {
    let received: Buffer | undefined;
    const fake = await fakeClamd((socket) => {
      const read = instreamReader((payload) => {
        received = payload;
        socket.end('stream: OK\0');
      });
      // Read in small sips with pauses, so the client's writes must wait for drain.
      socket.on('data', (data: Buffer) => {
        read.call(socket, data);
        socket.pause();
        setImmediate(() => socket.resume());
      });
    });
    const engine = new ClamdEngine({ endpoint: fake.endpoint });
    await expect(engine.scan(bigFile)).resolves.toMatchObject({ safe: true });
    expect(received?.length).toBe(8 * 1024 * 1024);
  });

  test('chunk frames are reused only once written: a slow reader gets every byte as sent, in order', async () => {
    // Small chunks and a reader that sips: many frames wait in the socket while the next ones are read.
    let received: { payload: Buffer; chunkSizes: number[] } | undefined;
    const fake = await fakeClamd((socket) => {
      const read = instreamReader((payload, chunkSizes) => {
        received = { payload, chunkSizes };
        socket.end('stream: OK\0');
      });
      socket.on('data', (data: Buffer) => {
        read.call(socket, data);
        socket.pause();
        setTimeout(() => socket.resume(), 1);
      });
    });
    const engine = new ClamdEngine({ endpoint: fake.endpoint, chunkSize: 4096 });
    await expect(engine.scan(bigFile)).resolves.toMatchObject({ safe: true });
    expect(received?.payload.equals(noise(8 * 1024 * 1024, 2))).toBe(true);
    expect(received?.chunkSizes.every((size) => size === 4096)).toBe(true);
  });

  test('several FOUND messages (AllMatchScan) become several findings; ExtendedDetectionInfo is stripped', async () => {
    const fake = await fakeClamd((socket) => {
      socket.on('data', instreamReader(() => socket.end('stream: Win.Test.A FOUND\0stream: Eicar-Signature(44d88612fea8a8f36de82e1278abb02f:68) FOUND\0')));
    });
    await expect(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile)).resolves.toEqual({
      safe: false,
      detailed: 'infected',
      findings: [{ name: 'Win.Test.A' }, { name: 'Eicar-Signature' }],
      engine: { name: 'clamav', version: null, signatures: null },
    });
  });
});

describe('clamd unavailable or misbehaving', () => {
  test('a socket path that does not exist: engine_unavailable naming the socket', async () => {
    const engine = new ClamdEngine({ endpoint: { socketPath: join(files.path, 'no-such.sock') } });
    const error = await engineError(engine.scan(smallFile));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain('no-such.sock');
    expect(error.message).toContain('ENOENT');
    expect((await engineError(engine.ping())).code).toBe('engine_unavailable');
  });

  test('a TCP port nobody listens on: engine_unavailable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const error = await engineError(new ClamdEngine({ endpoint: { host: '127.0.0.1', port } }).scan(smallFile));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain('ECONNREFUSED');
  });

  test.for([
    ['a small file', () => smallFile],
    ['an 8 MB file', () => bigFile],
  ] as const)('a server that closes the connection at once, %s: engine_unavailable', async ([, file]) => {
    const fake = await fakeClamd((socket) => socket.destroy());
    const engine = new ClamdEngine({ endpoint: fake.endpoint });
    const error = await engineError(engine.scan(file()));
    expect(error.code).toBe('engine_unavailable');
    expect((await engineError(engine.ping())).code).toBe('engine_unavailable');
  });

  test('a server that reads the file and closes without a word: engine_unavailable', async () => {
    const fake = await fakeClamd((socket) => socket.on('data', instreamReader(() => socket.end())));
    const error = await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toMatch(/without a reply/);
  });

  test('garbage instead of a reply: engine_error quoting it', async () => {
    const fake = await fakeClamd((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const engine = new ClamdEngine({ endpoint: fake.endpoint });
    const error = await engineError(engine.scan(smallFile));
    expect(error.code).toBe('engine_error');
    expect(error.message).toContain('HTTP/1.1 400 Bad Request');
    expect((await engineError(engine.ping())).code).toBe('engine_error');
    expect((await engineError(engine.version())).code).toBe('engine_error');
  });

  test('OK mixed with garbage is not clean: engine_error', async () => {
    const fake = await fakeClamd((socket) => socket.on('data', instreamReader(() => socket.end('stream: OK\0what?\0'))));
    expect((await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile))).code).toBe('engine_error');
  });

  test('an endless reply is cut off: engine_error', async () => {
    const fake = await fakeClamd((socket) => socket.end(Buffer.alloc(200_000, 'a')));
    expect((await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile))).code).toBe('engine_error');
  });

  test('an ERROR reply: engine_error with clamd’s reason', async () => {
    const fake = await fakeClamd((socket) =>
      socket.on('data', instreamReader(() => socket.end("stream: Can't create temporary file ERROR\0"))),
    );
    const error = await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile));
    expect(error.code).toBe('engine_error');
    expect(error.message).toContain("Can't create temporary file");
  });

  test('the size-limit reply in the middle of the upload: engine_size_limit', async () => {
    const fake = await fakeClamd((socket) => {
      socket.once('data', () => socket.end('INSTREAM size limit exceeded. ERROR\0'));
    });
    const error = await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(bigFile));
    expect(error.code).toBe('engine_size_limit');
  });

  test('a server that never replies: engine_timeout after the idle timeout', async () => {
    const fake = await fakeClamd((socket) => socket.resume());
    const engine = new ClamdEngine({ endpoint: fake.endpoint, idleTimeoutMs: 300 });
    const error = await engineError(engine.scan(smallFile));
    expect(error.code).toBe('engine_timeout');
    expect(error.message).toContain('300 ms');
    expect((await engineError(engine.ping({ timeoutMs: 200 }))).code).toBe('engine_timeout');
  });

  test('a server that stops reading mid-upload: engine_timeout, not a hang', async () => {
    const fake = await fakeClamd((socket) => socket.once('data', () => socket.pause()));
    const engine = new ClamdEngine({ endpoint: fake.endpoint, idleTimeoutMs: 300 });
    expect((await engineError(engine.scan(bigFile))).code).toBe('engine_timeout');
  });
});

describe('cancellation', () => {
  test('aborting while clamd is silent rejects with engine_aborted and closes the connection', async () => {
    const controller = new AbortController();
    let closed: Promise<unknown> | undefined;
    const fake = await fakeClamd((socket) => {
      closed = new Promise((resolve) => socket.on('close', resolve));
      socket.resume();
      socket.once('data', () => controller.abort(new Error('user cancelled')));
    });
    const error = await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(bigFile, controller.signal));
    expect(error.code).toBe('engine_aborted');
    expect(error.cause).toEqual(new Error('user cancelled'));
    await closed;
  });

  test('an already aborted signal never connects', async () => {
    const seen: string[] = [];
    const fake = await fakeClamd((socket) => socket.once('data', (data) => seen.push(data.toString())));
    const error = await engineError(new ClamdEngine({ endpoint: fake.endpoint }).scan(smallFile, AbortSignal.abort()));
    expect(error.code).toBe('engine_aborted');
    // A marker connection afterwards: once the stand-in has seen it, it would have seen the engine's too.
    const marker = createConnection({ path: (fake.endpoint as { socketPath: string }).socketPath });
    marker.write('marker');
    await vi.waitFor(() => expect(seen).toContain('marker'));
    marker.destroy();
    expect(seen).toEqual(['marker']);
  });
});
