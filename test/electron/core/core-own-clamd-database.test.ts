// The signature folder setting takes effect while Verdict runs, with the real core,
// embedded service and Verdict's own clamd (the system's binary, on databases the test
// writes): on database A a file is clean; the setting changes to database B, whose custom
// signature knows it; Verdict's own clamd stops and starts again on B (the file sent
// meanwhile waits with "Starting ClamAV…"), the protection state shows B, and the next
// scan finds the file. No clamd is left once the core has closed.
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { openSettings } from '../../../electron/settings/settings-store.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-own-clamd-db-');

async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

/** The system's clamd, held before it starts while the file `hold` exists: its loading lasts as long as the test needs. */
async function holdableClamd(dir: string, clamd: string): Promise<{ path: string; hold: string }> {
  const hold = join(dir, 'hold');
  const path = join(dir, 'holdable-clamd');
  await writeFile(path, `#!/bin/sh\nwhile [ -e '${hold}' ]; do sleep 0.05; done\nexec '${clamd}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, hold };
}

async function scanOnce(core: CoreInternals, file: string): Promise<{ id: string; record: () => Promise<ScanRecord | null> }> {
  // Forced: a clean ClamAV verdict of a database without a version would otherwise be reused.
  const submitted = await core.submit([file], { origin: 'cli', mode: 'async', force: true });
  const id = submitted.ok ? (submitted.value.ids[0] ?? '') : '';
  return {
    id,
    record: async () => {
      const got = await core.scans.get(id);
      return got.ok ? got.value : null;
    },
  };
}

describe.skipIf(findClamd() === null)('the signature folder setting, changed while Verdict runs', () => {
  test("Verdict's own clamd starts again on the new folder; the next scan uses its signatures", async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const clamd = await holdableClamd(fixture.dir.path, findClamd() ?? '');
    const dataDir = fixture.dataDir();
    const dbA = await writeEicarDatabase(join(fixture.dir.path, 'db-a'));
    const dbB = join(fixture.dir.path, 'db-b');
    await mkdir(dbB, { recursive: true });
    const custom = await writeCustomSignature(dbB, fixture.dir.path, 'known-to-b');
    const stored = await openSettings(dataDir);
    expect((await stored.update({ clamavDatabaseDir: dbA })).ok).toBe(true);

    const core = await fixture.open({ ...FAST, engine: { ownClamdPath: clamd.path, autoUpdate: false } }, { localService: { engine: 'auto' } });
    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };
    await until(async () => (await view())?.databaseDir === dbA, "Verdict's own clamd on A");
    expect((await view())?.status).toMatchObject({ engine: { name: 'clamav', source: 'own' } });
    const pidA = Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim());

    const onA = await scanOnce(core, custom.file);
    await until(async () => (await onA.record())?.status === 'completed', 'the verdict on A');
    expect(await onA.record()).toMatchObject({ safe: true, engine: { name: 'clamav' } });

    // Held before clamd starts on B: the file sent meanwhile waits, and is never judged by A or the built-in engine.
    await writeFile(clamd.hold, '');
    expect((await core.settings.update({ clamavDatabaseDir: dbB })).ok).toBe(true);
    await until(async () => (await view())?.status?.reason.code === 'clamd_starting', 'Starting ClamAV on B');
    await until(async () => !isAlive(pidA), 'the clamd on A to stop');
    const onB = await scanOnce(core, custom.file);
    await until(async () => (await onB.record())?.pendingReason === 'engine_starting', 'the file to wait for ClamAV');
    expect(await onB.record()).toMatchObject({ safe: null });

    await rm(clamd.hold);
    await until(async () => (await onB.record())?.status === 'completed', 'the verdict on B');
    expect(await onB.record()).toMatchObject({ safe: false, pendingReason: null, findings: [{ name: custom.signature }], engine: { name: 'clamav' } });
    await until(async () => (await view())?.databaseDir === dbB && (await view())?.status?.engine.source === 'own', 'the state to show B');

    const pidB = Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim());
    expect(pidB).not.toBe(pidA);
    expect(isAlive(pidB)).toBe(true);
    await core.close();
    expect(isAlive(pidB)).toBe(false);
    expect(existsSync(join(dataDir, 'clamd.pid'))).toBe(false);
  });
});
