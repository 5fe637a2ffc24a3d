// ClamdEngine's kept sessions (zIDSESSION) against a real clamd, seen through
// a counting relay on a Unix socket: many scans over few connections, sessions
// that clamd ends (restart, ReadTimeout), one that breaks unseen, and the
// size limit, cancellation and findings inside a session.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi, type TestContext } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EngineError, type EngineVerdict } from '../../../electron/engine/engine.ts';
import { startClamd, TEST_SIGNATURES, type RunningClamd, type StartClamdOptions } from '../../support/clamd.ts';
import { EICAR, fixtureDir, noise, type FixtureDir } from '../../fixtures/engine-files.ts';

// Who made it: ClamAV (the identity itself is checked in clamd-identity.test.ts).
const CLAMAV = expect.objectContaining({ name: 'clamav' }) as EngineVerdict['engine'];
const CLEAN: EngineVerdict = { safe: true, detailed: 'clean', findings: [], engine: CLAMAV };
const INFECTED: EngineVerdict = { safe: false, detailed: 'infected', findings: [{ name: TEST_SIGNATURES.eicar }], engine: CLAMAV };

/** A relay in front of clamd that counts connections and can break the next one that sends. */
interface Relay {
  socketPath: string;
  /** Connections the engine opened so far for scans and sessions (not the VERSION asks: see versionAsks). */
  readonly opened: number;
  /** Connections that asked VERSION (each verdict names its engine: clamd-identity.ts). */
  readonly versionAsks: number;
  /** Connections clamd ended (an idle session timing out, a restart). */
  readonly closedByClamd: number;
  /** From the next data on, stop reading from the engine (its upload then waits for drain). */
  holdNextSend(): void;
  /** A connection is being held. */
  readonly holding: boolean;
  /** Connections from the engine still open. */
  readonly live: number;
  /** The next data any client connection sends is dropped and that connection reset. */
  breakNextSend(): void;
  close(): Promise<void>;
}

let files: FixtureDir;
const started: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  files = await fixtureDir();
});
afterEach(async () => {
  for (const thing of started.splice(0).reverse()) await thing.stop();
});
afterAll(async () => {
  await files.remove();
});

async function clamdFor(context: TestContext, options: StartClamdOptions = {}): Promise<RunningClamd> {
  const clamd = await startClamd(options);
  if (!clamd) context.skip('clamd is not installed');
  started.push(clamd as RunningClamd);
  return clamd as RunningClamd;
}

async function relayTo(target: string): Promise<Relay> {
  let opened = 0;
  let versionAsks = 0;
  let closedByClamd = 0;
  let breakNext = false;
  let hold: 'no' | 'next' | 'holding' = 'no';
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    // Counted by what it asks first: a scan or session, or the engine's VERSION.
    client.once('data', (data: Buffer) => {
      if (data.toString('latin1').startsWith('zVERSION\0')) versionAsks++;
      else opened++;
    });
    clients.add(client);
    client.on('close', () => clients.delete(client));
    const upstream = createConnection({ path: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (data: Buffer) => {
      if (breakNext) {
        breakNext = false;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(data);
      if (hold === 'next') {
        hold = 'holding';
        client.pause();
      }
    });
    // clamd ending a connection: it says so ("COMMAND READ TIMED OUT") or closes its side first.
    let endedByClamd = false;
    const clamdEnds = () => {
      if (!endedByClamd && !client.destroyed) closedByClamd++;
      endedByClamd = true;
    };
    upstream.on('data', (data: Buffer) => {
      if (data.includes('TIMED OUT')) clamdEnds();
      client.write(data);
    });
    upstream.on('end', () => {
      clamdEnds();
      client.end();
    });
    // However clamd's side ends (a reset too), the engine's side ends after what clamd sent.
    upstream.on('close', () => client.end());
    client.on('end', () => upstream.end());
    client.on('close', () => upstream.destroy());
  });
  const socketPath = join(files.path, `relay-${Math.random().toString(36).slice(2)}.sock`);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const relay: Relay = {
    socketPath,
    get opened() {
      return opened;
    },
    get versionAsks() {
      return versionAsks;
    },
    get closedByClamd() {
      return closedByClamd;
    },
    holdNextSend: () => (hold = 'next'),
    get holding() {
      return hold === 'holding';
    },
    get live() {
      return clients.size;
    },
    breakNextSend: () => (breakNext = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  started.push({ stop: () => relay.close() });
  return relay;
}

/** An engine with sessions, once it has found that clamd keeps them (its first session then waits in the pool). */
async function sessionEngine(relay: Relay, sessions: number): Promise<ClamdEngine> {
  const engine = new ClamdEngine({ endpoint: { socketPath: relay.socketPath }, sessions });
  started.push({ stop: () => engine.close() });
  await expect(engine.sessionsReady()).resolves.toBe(true);
  return engine;
}

/** `count` scans, `parallel` at a time, every fifth of them EICAR; checks each verdict. */
async function scanBatch(engine: ClamdEngine, count: number, parallel: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      const infected = index % 5 === 0;
      const content = infected ? Buffer.from(EICAR) : noise(4096 + index * 13, index);
      await expect(engine.scanBytes(content), `scan ${index}`).resolves.toEqual(infected ? INFECTED : CLEAN);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function scanError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    (verdict) => new Error(`expected an EngineError, got the verdict ${JSON.stringify(verdict)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('clamd sessions with a real clamd', () => {
  test('many scans, clean and infected, over as many connections as sessions (an infected reply ends its session)', async (context) => {
    const relay = await relayTo((await clamdFor(context)).socketPath);
    const engine = await sessionEngine(relay, 2);
    // Clean files only: the sessions carry every scan.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        for (let index = next++; index < 60; index = next++) await expect(engine.scanBytes(noise(4096 + index, index))).resolves.toEqual(CLEAN);
      }),
    );
    expect(relay.opened).toBeLessThanOrEqual(2);
    // Mixed: each FOUND ends its session (AllMatchScan may add findings until clamd closes), the others are reused.
    const before = relay.opened;
    await scanBatch(engine, 40, 2);
    expect(relay.opened - before).toBeLessThanOrEqual(8 + 2);
  });

  test('files from disk, an empty one, and the whole of a large one, in one session', async (context) => {
    const relay = await relayTo((await clamdFor(context)).socketPath);
    const engine = await sessionEngine(relay, 1);
    const empty = await files.write('empty.bin', Buffer.alloc(0));
    const large = await files.write('large.bin', noise(3 * 1024 * 1024, 7));
    const small = await files.write('small.txt', 'hello clamd\n');
    for (const file of [empty, large, small, large, empty]) await expect(engine.scan(file)).resolves.toEqual(CLEAN);
    expect(relay.opened).toBe(1);
  });

  test('clamd restarted mid-batch: the stale sessions are replaced and every scan gets its verdict', async (context) => {
    const clamd = await clamdFor(context);
    const relay = await relayTo(clamd.socketPath);
    const engine = await sessionEngine(relay, 2);
    await scanBatch(engine, 12, 2);
    await clamd.restart();
    const beforeRestart = relay.opened;
    await scanBatch(engine, 24, 2);
    // The old sessions are noticed as closed (or break on use and the scan is repeated); new ones carry the rest.
    expect(relay.opened - beforeRestart).toBeLessThanOrEqual(2 + 2 + 5 + 2);
    expect(relay.opened - beforeRestart).toBeLessThan(24);
  });

  test('a session clamd ends for idling (ReadTimeout) is dropped, and the next scan opens a new one', async (context) => {
    const relay = await relayTo((await clamdFor(context, { extraConfig: ['ReadTimeout 1'] })).socketPath);
    const engine = await sessionEngine(relay, 1);
    await expect(engine.scanBytes(Buffer.from('first'))).resolves.toEqual(CLEAN);
    // clamd says "COMMAND READ TIMED OUT" and closes the idle session.
    await vi.waitFor(() => expect(relay.closedByClamd).toBe(1), { timeout: 15_000, interval: 50 });
    await vi.waitFor(() => expect(relay.live).toBe(0), { timeout: 15_000, interval: 20 });
    await expect(engine.scanBytes(Buffer.from('second'))).resolves.toEqual(CLEAN);
    await expect(engine.scanBytes(Buffer.from(EICAR))).resolves.toEqual(INFECTED);
    // A new session (and, should clamd time that one out too just as it is reused, a repeat on a connection of its own).
    expect(relay.opened).toBeGreaterThanOrEqual(2);
    expect(relay.opened).toBeLessThanOrEqual(4);
  });

  test('a kept session that breaks when used, unseen before: the scan is repeated on a new connection', async (context) => {
    const relay = await relayTo((await clamdFor(context)).socketPath);
    const engine = await sessionEngine(relay, 1);
    await expect(engine.scanBytes(Buffer.from('first'))).resolves.toEqual(CLEAN);
    relay.breakNextSend();
    await expect(engine.scanBytes(Buffer.from(EICAR))).resolves.toEqual(INFECTED);
    await expect(engine.scanBytes(Buffer.from('third'))).resolves.toEqual(CLEAN);
    // The broken session, the repeat on a connection of its own, a new session.
    expect(relay.opened).toBe(3);
    // VERSION once for the first verdict, and again after the lost session (clamd may have restarted).
    expect(relay.versionAsks).toBe(2);
  });

  test('a file over StreamMaxLength in a session: engine_size_limit, and the next scan works', async (context) => {
    // Straight to clamd: the refusal shows as a broken pipe, which a relay would turn into a plain close.
    const clamd = await clamdFor(context, { streamMaxLength: '1M' });
    const engine = new ClamdEngine({ endpoint: { socketPath: clamd.socketPath }, sessions: 1 });
    started.push({ stop: () => engine.close() });
    await expect(engine.sessionsReady()).resolves.toBe(true);
    const big = await files.write('over-limit.bin', noise(4 * 1024 * 1024, 3));
    for (const round of [1, 2]) {
      await expect(engine.scanBytes(Buffer.from(`before ${round}`))).resolves.toEqual(CLEAN);
      const error = await scanError(round === 1 ? engine.scan(big) : engine.scanBytes(noise(4 * 1024 * 1024, 4)));
      expect(error.code).toBe('engine_size_limit');
      expect(error.message).toMatch(/StreamMaxLength/);
    }
    await expect(engine.scanBytes(Buffer.from('after'))).resolves.toEqual(CLEAN);
  });

  test('a scan cancelled mid-upload ends its session; the next scan opens another', async (context) => {
    const relay = await relayTo((await clamdFor(context)).socketPath);
    const engine = await sessionEngine(relay, 1);
    await expect(engine.scanBytes(Buffer.from('before'))).resolves.toEqual(CLEAN);
    const controller = new AbortController();
    const big = await files.write('cancelled.bin', noise(16 * 1024 * 1024, 5));
    relay.holdNextSend();
    const scanning = engine.scan(big, controller.signal);
    await vi.waitFor(() => expect(relay.holding).toBe(true), { timeout: 15_000, interval: 20 });
    controller.abort(new Error('user cancelled'));
    const error = await scanError(scanning);
    expect(error.code).toBe('engine_aborted');
    await expect(engine.scanBytes(Buffer.from('after'))).resolves.toEqual(CLEAN);
    expect(relay.opened).toBe(2);
  });

  test('a stand-in that knows one command per connection: no sessions, every scan on a connection of its own', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.once('data', (data: Buffer) => {
        if (data.toString('latin1').startsWith('zINSTREAM\0')) socket.end('stream: OK\0');
        // zIDSESSION is not understood: no answer (the engine gives up on it after its probe timeout).
      });
    });
    const socketPath = join(files.path, 'one-shot.sock');
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    started.push({ stop: () => new Promise((resolve) => server.close(() => resolve())) });
    const engine = new ClamdEngine({ endpoint: { socketPath }, sessions: 2, connectTimeoutMs: 300 });
    started.push({ stop: () => engine.close() });
    // Scans do not wait for the check.
    await expect(engine.scanBytes(Buffer.from('while checking'))).resolves.toEqual(CLEAN);
    await expect(engine.sessionsReady()).resolves.toBe(false);
    for (const round of [1, 2, 3]) await expect(engine.scanBytes(Buffer.from(`round ${round}`))).resolves.toEqual(CLEAN);
    // The probe, four scans, and one VERSION (unanswered here, so not asked again for a while).
    expect(connections).toBe(1 + 4 + 1);
  });

  test('a clamd that is gone: engine_unavailable, as without sessions', async (context) => {
    const clamd = await clamdFor(context);
    const relay = await relayTo(clamd.socketPath);
    const engine = await sessionEngine(relay, 1);
    await expect(engine.scanBytes(Buffer.from('before'))).resolves.toEqual(CLEAN);
    await relay.close();
    const error = await scanError(engine.scanBytes(Buffer.from('after')));
    expect(error.code).toBe('engine_unavailable');
  });
});
