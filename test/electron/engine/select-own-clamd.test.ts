// selectEngine's third place: Verdict's own clamd when no clamd answers, scanned
// through and stopped with the engine; never when a clamd is configured.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BuiltinEngine, EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { EngineError } from '../../../electron/engine/engine.ts';
import { OwnClamdEngine } from '../../../electron/engine/own-clamd-engine.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { engineSummary, selectEngine } from '../../../electron/engine/select-engine.ts';
import { EICAR_SIGNATURE, writeEicarDatabase } from '../../support/clamav-db.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-select-own-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(findClamd() === null)('selectEngine with ownClamd', () => {
  test('no clamd answers: Verdict\'s own clamd is started and scans; closing the engine stops it', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const engine = await selectEngine({ kind: 'auto', socketCandidates: [join(root, 'none.sock')], ownClamd: { dataDir: join(root, 'data'), databaseDir: db } });
    expect(engine).toBeInstanceOf(OwnClamdEngine);
    const own = engine as OwnClamdEngine;
    try {
      expect(engineSummary(engine)).toBe(`clamd at unix:${join(root, 'data', 'clamd.sock')}`);
      expect((await engine.scanBytes?.(Buffer.from(EICAR_TEST_STRING, 'latin1')))?.findings).toEqual([{ name: EICAR_SIGNATURE }]);
    } finally {
      const pid = own.clamd.pid ?? -1;
      await engine.close?.();
      expect(isAlive(pid)).toBe(false);
    }
  });

  test('own clamd cannot start: built-in in auto with the reason, an error for clamd', async () => {
    const options = { socketCandidates: [join(root, 'none.sock')], ownClamd: { dataDir: join(root, 'data'), databaseDir: join(root, 'empty') } };
    const engine = await selectEngine({ kind: 'auto', ...options });
    expect(engine).toBeInstanceOf(BuiltinEngine);
    expect((engine as BuiltinEngine).reason).toContain("Verdict's own clamd did not start (database_missing");
    await expect(selectEngine({ kind: 'clamd', ...options })).rejects.toBeInstanceOf(EngineError);
  });

  test('a configured clamd that is gone is not replaced by the own one', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const engine = await selectEngine({ kind: 'auto', clamdSocket: join(root, 'gone.sock'), ownClamd: { dataDir: join(root, 'data'), databaseDir: db } });
    expect(engine).toBeInstanceOf(BuiltinEngine);
  });
});
