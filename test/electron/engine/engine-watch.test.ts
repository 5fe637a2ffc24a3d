// The engine choice kept current while Verdict runs, with real clamds: the switch
// from the built-in engine to Verdict's own clamd when a database appears, a system
// clamd that goes away, and a broken own clamd that is not retried in a loop.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { watchEngine, type EngineWatch } from '../../../electron/engine/engine-watch.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { checkDatabaseDir, findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { startClamd } from '../../support/clamd.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

let root: string;
let dataDir: string;
let watch: EngineWatch | null = null;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-engine-watch-'));
  dataDir = join(root, 'data');
});
afterEach(async () => {
  await watch?.close();
  watch = null;
  await rm(root, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const systemDbEmpty = !checkDatabaseDir('/var/lib/clamav').ok;

describe.skipIf(findClamd() === null)('watchEngine', () => {
  test.skipIf(!systemDbEmpty)('built-in until a database appears; then, on the next tick, Verdict\'s own clamd', async () => {
    const changes: ProtectionStatus[] = [];
    watch = watchEngine({ kind: 'auto', dataDir, socketCandidates: [], intervalMs: 50, onChange: (status) => changes.push(status) });
    expect(await watch.check()).toMatchObject({ state: 'limited', reason: { code: 'database_not_found' } });
    await writeEicarDatabase(join(dataDir, 'clamav-db'));
    await until(() => watch?.status?.engine.source === 'own', 'the switch to the own clamd');
    expect(watch.status).toMatchObject({ state: 'outdated', engine: { name: 'clamav', source: 'own', where: `unix:${join(dataDir, 'clamd.sock')}` } });
    expect(changes.map((status) => status.state)).toEqual(['limited', 'outdated']);
    const pid = watch.own?.pid ?? -1;
    expect(isAlive(pid)).toBe(true);
    await watch.close();
    expect(isAlive(pid)).toBe(false);
  });

  test('a system clamd that stops answering is replaced by the next in the order', async () => {
    const system = await startClamd();
    if (!system) return;
    const db = await writeEicarDatabase(join(root, 'db'));
    try {
      watch = watchEngine({ kind: 'auto', dataDir, clamavDb: db, socketCandidates: [system.socketPath] });
      // The test's clamd runs as the test's own account: found at the usual socket, not the system's.
      expect((await watch.check()).engine).toMatchObject({ source: 'found', where: `unix:${system.socketPath}` });
      expect(watch.own).toBeNull();
    } finally {
      await system.stop();
    }
    expect((await watch.check()).engine).toMatchObject({ source: 'own' });
    expect(watch.own?.state.status).toBe('running');
  });

  test('an own clamd that failed is not started again by the timer, only when asked', async () => {
    const db = join(root, 'corrupt');
    await mkdir(db);
    await writeFile(join(db, 'broken.ndb'), 'not:a:signature:zz\n');
    let launches = 0;
    watch = watchEngine({
      kind: 'auto',
      dataDir,
      clamavDb: db,
      socketCandidates: [],
      intervalMs: 20,
      ownClamd: { backoffMs: [10], onState: (state) => void (state.status === 'starting' && state.socketPath !== null && state.attempt === 1 && launches++) },
    });
    expect(await watch.check()).toMatchObject({ state: 'not_running', reason: { code: 'clamd_failed', params: { detail: expect.stringMatching(/Malformed/) } } });
    expect(launches).toBe(1);
    // Many ticks later: still one start (of three quick attempts), the same state.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(launches).toBe(1);
    expect(watch.status?.reason.code).toBe('clamd_failed');
    await watch.check();
    expect(launches).toBe(2);
  });
});
