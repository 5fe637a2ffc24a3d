// The app's default path to Verdict's own clamd, with the real core and embedded
// service: no clamd answers, clamd and a database in `<data dir>/clamav-db` exist, so
// the service starts Verdict's own clamd. While it loads, the file waits with the
// pending reason "engine_starting" ("Starting ClamAV…") and never gets a basic verdict;
// then ClamAV judges it, the protection state names Verdict's own clamd, and no clamd
// is left once the core has closed.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { gatedClamd } from '../../support/gated-clamd.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-own-clamd-');

/** A system clamd answering at the usual sockets would be chosen first: then this path is not the one taken. */
async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

describe.skipIf(findClamd() === null)("Verdict's own clamd, started by the embedded service on the app's default path", () => {
  test('Starting ClamAV… while it loads, then its verdict; no clamd after close', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const gate = await gatedClamd(fixture.dir.path);
    if (!gate) return context.skip();
    const dataDir = fixture.dataDir();
    await mkdir(join(dataDir, 'clamav-db'), { recursive: true });
    const custom = await writeCustomSignature(join(dataDir, 'clamav-db'), fixture.dir.path, 'own-default');
    // EICAR too, or the self-test would find this database blind to it (failing).
    await writeEicarDatabase(join(dataDir, 'clamav-db'));
    const core = await fixture.open({ ...FAST, engine: { ownClamdPath: gate.path, autoUpdate: false } }, { localService: { engine: 'auto' } });

    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };
    await until(async () => (await view())?.status?.reason.code === 'clamd_starting', 'Starting ClamAV');

    const submitted = await core.submit([custom.file], { origin: 'cli' });
    const id = submitted.ok ? (submitted.value.ids[0] ?? '') : '';
    const record = async (): Promise<ScanRecord | null> => {
      const got = await core.scans.get(id);
      return got.ok ? got.value : null;
    };
    await until(async () => (await record())?.pendingReason === 'engine_starting', 'the file to wait for ClamAV');
    // Sent (a small file goes in sync mode: the service holds the request) and not judged.
    expect(await record()).toMatchObject({ status: expect.stringMatching(/^(uploading|processing)$/), safe: null });

    await gate.open();
    await until(async () => (await record())?.status === 'completed', 'the verdict');
    expect(await record()).toMatchObject({ status: 'completed', safe: false, pendingReason: null, findings: [{ name: custom.signature }] });
    await until(async () => (await view())?.status?.engine.source === 'own', 'the state to name the own clamd');
    expect((await view())?.status).toMatchObject({ state: 'outdated', engine: { name: 'clamav', source: 'own', where: `unix:${join(dataDir, 'clamd.sock')}` } });
    expect((await view())?.databaseDir).toBe(join(dataDir, 'clamav-db'));

    const pid = Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim());
    expect(isAlive(pid)).toBe(true);
    await core.close();
    expect(isAlive(pid)).toBe(false);
  });

  test('automatic signature updates: at start while its own database is in use (freshclam for real, offline), none when the setting is off', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const dataDir = fixture.dataDir();
    await writeEicarDatabase(join(dataDir, 'clamav-db'));
    const freshclam = { mirror: '127.0.0.1:9', maxAttempts: 1 };
    const core = await fixture.open({ ...FAST, engine: { freshclam } }, { localService: { engine: 'auto' } });
    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };
    await until(async () => (await view())?.status?.engine.source === 'own', "Verdict's own clamd");
    // Nobody pressed "Update now": the schedule ran freshclam at start, and it could not connect.
    await until(async () => (await view())?.update.last?.code === 'no_connection', 'the automatic update', 60_000);
    await core.close();

    const off = await fixture.open({ ...FAST, engine: { freshclam } }, { localService: { engine: 'auto' } });
    expect((await off.settings.update({ autoUpdateSignatures: false })).ok).toBe(true);
    await off.close();
    const again = await fixture.open({ ...FAST, engine: { freshclam } }, { localService: { engine: 'auto' } });
    await until(async () => {
      const result = await again.protection.refresh();
      return result.ok && result.value.status?.engine.source === 'own';
    }, "Verdict's own clamd again");
    const result = await again.protection.refresh();
    expect(result.ok && result.value.update).toEqual({ phase: 'idle', last: null });
  });
});
