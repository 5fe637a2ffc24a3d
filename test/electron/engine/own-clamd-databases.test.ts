// The signature identity of Verdict's own clamd follows what clamd loaded, not only the folder
// (issue 26 §6), with a real clamd on a database the test writes: a database added while clamd
// runs gives no digest (clamd does not hold it yet: nothing may be reused or skipped); after a
// RELOAD the identity has a digest again, another one than before.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clamdIdentityWithDatabases } from '../../../electron/engine/databases/database-digest.ts';
import { engineStatus } from '../../../electron/engine/engine-status.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { tempDir } from '../scans/harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-own-clamd-databases-');
});
afterAll(async () => {
  await dir?.remove();
});

describe.skipIf(findClamd() === null)("Verdict's own clamd: the identity of what it loaded", () => {
  test('a database added while it runs: no digest until RELOAD; then a new one', async () => {
    const db = await writeEicarDatabase(join(dir.path, 'db'));
    const dataDir = join(dir.path, 'data');
    const look = () => engineStatus({ kind: 'auto', dataDir, clamavDb: db, socketCandidates: [] });
    const first = await look();
    const own = first.started;
    try {
      expect(own?.state.status).toBe('running');
      const loaded = first.status.engine;
      expect(loaded).toMatchObject({ name: 'clamav', source: 'own', signatureBasis: 'databases', databases: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // A later look (the clamd running) finds the same identity.
      expect((await look()).status.engine.databases).toBe(loaded.databases);

      await new Promise((resolve) => setTimeout(resolve, 20));
      await writeCustomSignature(db, dir.path, 'added-while-running');
      const meanwhile = (await look()).status.engine;
      expect(meanwhile.signatureBasis).toBeUndefined();
      expect(meanwhile.databases).toBeUndefined();
      const folder = own?.state.status === 'running' ? { dir: own.state.databaseDir, loadedAtMs: own.loadedAtMs ?? 0 } : null;
      expect((await clamdIdentityWithDatabases(own?.state.status === 'running' ? own.state.versionLine : '', folder))?.databases).toBeUndefined();

      await own?.reload();
      const reloaded = (await look()).status.engine;
      expect(reloaded).toMatchObject({ signatureBasis: 'databases', databases: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(reloaded.databases).not.toBe(loaded.databases);
    } finally {
      await own?.close();
    }
  }, 60_000);
});
