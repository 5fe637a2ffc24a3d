// The settings' clamd choice as the engine selection takes it (engineOptionsForChoice → engineStatus),
// with a real clamd at a "usual" socket: "Verdict's own" never takes it, "the system's" never
// starts Verdict's own clamd, a named address is the only one asked.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engineOptionsForChoice } from '../../../electron/engine/clamd-choice-engine.ts';
import { engineStatus } from '../../../electron/engine/engine-status.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { tempDir } from '../scans/harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let usual: RunningClamd | null;
beforeAll(async () => {
  dir = await tempDir('verdict-clamd-choice-');
  usual = await startClamd();
}, 60_000);
afterAll(async () => {
  await usual?.stop();
  await dir?.remove();
});

describe.skipIf(findClamd() === null)('the clamd choice', () => {
  test('automatic: the clamd at the usual socket; the system\'s: the same, and nothing else when it is gone', async () => {
    if (!usual) throw new Error('no clamd');
    const db = await writeEicarDatabase(join(dir.path, 'db'));
    const auto = await engineStatus({ kind: 'auto', dataDir: join(dir.path, 'a'), clamavDb: db, socketCandidates: [usual.socketPath], ...engineOptionsForChoice({ kind: 'auto' }) });
    expect(auto.status.engine).toMatchObject({ name: 'clamav', where: `unix:${usual.socketPath}` });
    const system = await engineStatus({ kind: 'auto', dataDir: join(dir.path, 's'), clamavDb: db, socketCandidates: [join(dir.path, 'none.sock')], ...engineOptionsForChoice({ kind: 'system' }) });
    // Verdict's own clamd could start (clamd and a database are there), but the user chose the system's.
    expect(system.started).toBeNull();
    expect(system.status.engine.source).not.toBe('own');
  });

  test("Verdict's own: a clamd at the usual socket is passed over; Verdict starts its own", async () => {
    if (!usual) throw new Error('no clamd');
    const db = await writeEicarDatabase(join(dir.path, 'db-own'));
    const choice = engineOptionsForChoice({ kind: 'own' });
    const own = await engineStatus({ kind: 'auto', dataDir: join(dir.path, 'o'), clamavDb: db, ...choice, socketCandidates: choice.socketCandidates ?? [usual.socketPath] });
    try {
      expect(own.status.engine).toMatchObject({ name: 'clamav', source: 'own', where: `unix:${join(dir.path, 'o', 'clamd.sock')}` });
    } finally {
      await own.started?.close();
    }
  });

  test('a named address: only it is asked, and it is "configured" (the one you named)', async () => {
    if (!usual) throw new Error('no clamd');
    const named = engineOptionsForChoice({ kind: 'address', address: { kind: 'unix', path: usual.socketPath } });
    const status = await engineStatus({ kind: 'auto', dataDir: join(dir.path, 'n'), ...named });
    expect(status.status.engine).toMatchObject({ name: 'clamav', source: 'configured', where: `unix:${usual.socketPath}` });
    const gone = engineOptionsForChoice({ kind: 'address', address: { kind: 'tcp', host: '127.0.0.1', port: 9 } });
    const missing = await engineStatus({ kind: 'auto', dataDir: join(dir.path, 'm'), socketCandidates: [usual.socketPath], ...gone });
    expect(missing.status).toMatchObject({ state: 'not_running', engine: { source: 'configured', where: 'tcp:127.0.0.1:9' } });
  });
});
