// Choosing the engine at start: clamd where one answers PING, the built-in
// engine otherwise (auto) or a clear error (clamd).
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { BuiltinEngine } from '../../../electron/engine/builtin-engine.ts';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EngineError } from '../../../electron/engine/engine.ts';
import {
  clamdCandidates,
  DEFAULT_CLAMD_SOCKETS,
  describeEngine,
  engineSummary,
  selectEngine,
} from '../../../electron/engine/select-engine.ts';
import { startClamd, TEST_SIGNATURES, type RunningClamd } from '../../support/clamd.ts';
import { EICAR, fixtureDir, type FixtureDir } from '../../fixtures/engine-files.ts';

let clamd: RunningClamd | null = null;
let files: FixtureDir;
let missingSocket: string;

beforeAll(async () => {
  files = await fixtureDir();
  missingSocket = join(files.path, 'nobody-here.sock');
  clamd = await startClamd();
});
afterAll(async () => {
  await clamd?.stop();
  await files.remove();
});

function needClamd(context: TestContext): RunningClamd {
  if (!clamd) context.skip('clamd is not installed');
  return clamd as RunningClamd;
}

describe('selectEngine', () => {
  test('builtin is the built-in engine, without probing', async () => {
    const engine = await selectEngine({ kind: 'builtin', clamdSocket: missingSocket });
    expect(engine).toBeInstanceOf(BuiltinEngine);
    expect(describeEngine(engine)).toEqual({ name: 'builtin', where: 'in-process', reason: 'the built-in engine was requested' });
  });

  test('auto with no clamd answering falls back to the built-in engine and says why', async () => {
    const engine = await selectEngine({ kind: 'auto', socketCandidates: [missingSocket] });
    expect(engine).toBeInstanceOf(BuiltinEngine);
    const description = describeEngine(engine);
    expect(description.name).toBe('builtin');
    expect(description.reason).toContain(`unix:${missingSocket} (ENOENT)`);
    await expect(engine.scan(await files.write('eicar.com', EICAR))).resolves.toMatchObject({ safe: false });
  });

  test('auto with a configured socket that does not answer also falls back', async () => {
    const engine = await selectEngine({ kind: 'auto', clamdSocket: missingSocket });
    expect(engine).toBeInstanceOf(BuiltinEngine);
  });

  test('clamd with no clamd answering fails with engine_unavailable listing where it looked', async () => {
    const error = await selectEngine({ kind: 'clamd', socketCandidates: [missingSocket, '/nonexistent/clamd.ctl'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('engine_unavailable');
    expect((error as EngineError).message).toContain(missingSocket);
    expect((error as EngineError).message).toContain('/nonexistent/clamd.ctl');
  });

  test('auto with the test clamd socket picks clamd, which scans for real', async (context) => {
    const running = needClamd(context);
    const engine = await selectEngine({ kind: 'auto', clamdSocket: running.socketPath });
    expect(engine).toBeInstanceOf(ClamdEngine);
    expect(describeEngine(engine)).toEqual({ name: 'clamd', where: `unix:${running.socketPath}` });
    expect(engineSummary(engine)).toBe(`clamd at unix:${running.socketPath}`);
    await expect(engine.scan(await files.write('eicar2.com', EICAR))).resolves.toEqual({
      safe: false,
      detailed: 'infected',
      findings: [{ name: TEST_SIGNATURES.eicar }],
      engine: expect.objectContaining({ name: 'clamav' }),
    });
  });

  test('clamd finds the socket among the candidates, in order of preference', async (context) => {
    const running = needClamd(context);
    const engine = await selectEngine({ kind: 'clamd', socketCandidates: [missingSocket, running.socketPath] });
    expect(describeEngine(engine).where).toBe(`unix:${running.socketPath}`);
  });

  test('a configured TCP address is probed over TCP', async () => {
    // A stand-in that answers PING like clamd, on a loopback port.
    const server: Server = createServer((socket) => socket.once('data', () => socket.end('PONG\0')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const engine = await selectEngine({ kind: 'clamd', clamdHost: '127.0.0.1', clamdPort: port });
      expect(describeEngine(engine)).toEqual({ name: 'clamd', where: `tcp:127.0.0.1:${port}` });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('something that answers but not PONG is not clamd', async () => {
    const server: Server = createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')));
    const socketPath = join(files.path, 'not-clamd.sock');
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect(await selectEngine({ kind: 'auto', clamdSocket: socketPath })).toBeInstanceOf(BuiltinEngine);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test('clamdCandidates: configured endpoints win over the usual paths; TCP defaults', () => {
  expect(clamdCandidates({ kind: 'auto' }).map((c) => ('socketPath' in c ? c.socketPath : ''))).toEqual([...DEFAULT_CLAMD_SOCKETS]);
  expect(DEFAULT_CLAMD_SOCKETS).toEqual(expect.arrayContaining(['/run/clamav/clamd.ctl', '/var/run/clamav/clamd.ctl', '/tmp/clamd.socket', '/var/run/clamd.scan/clamd.sock']));
  expect(clamdCandidates({ kind: 'auto', clamdSocket: '/x.sock' })).toEqual([{ socketPath: '/x.sock' }]);
  expect(clamdCandidates({ kind: 'auto', clamdPort: 3311 })).toEqual([{ host: '127.0.0.1', port: 3311 }]);
  expect(clamdCandidates({ kind: 'auto', clamdHost: 'localhost' })).toEqual([{ host: 'localhost', port: 3310 }]);
  expect(clamdCandidates({ kind: 'auto', clamdSocket: '/x.sock', clamdHost: '::1', clamdPort: 1 })).toEqual([
    { socketPath: '/x.sock' },
    { host: '::1', port: 1 },
  ]);
});
