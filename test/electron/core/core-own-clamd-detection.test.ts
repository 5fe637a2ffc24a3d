// The detection settings change while Verdict runs (issue 28 §2), with the real core, embedded
// service and Verdict's own clamd on a database the test writes (a PUA signature in a `.ndu`
// file, loaded only with DetectPUA). With the defaults a PUA file is clean, and scanned again its
// verdict is reused. Then PUA goes on and MaxFileSize down to 1 MB: Verdict's own clamd stops and
// starts again with them (held before it starts: the files sent meanwhile wait with "Starting
// ClamAV…", none is lost or judged by the old clamd), the earlier clean verdict is not reused, the
// PUA file is a threat and a 3 MB file is scanned in part; the protection state shows the settings.
import { readFileSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { DEFAULT_DETECTION, detectionKey, type DetectionSettings } from '../../../shared/settings/detection.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { openSettings } from '../../../electron/settings/settings-store.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-own-clamd-detection-');
const PUA_NAME = 'PUA.Win.Tool.VerdictTest-1';
const MARKER = 'VERDICT-PUA-TOOL-MARKER';

async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

/** The system's clamd, held before it starts while the file `hold` exists. */
async function holdableClamd(dir: string, clamd: string): Promise<{ path: string; hold: string }> {
  const hold = join(dir, 'hold');
  const path = join(dir, 'holdable-clamd');
  await writeFile(path, `#!/bin/sh\nwhile [ -e '${hold}' ]; do sleep 0.05; done\nexec '${clamd}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, hold };
}

/** Submitted as the CLI does: without force an earlier verdict may be reused. */
async function scanOnce(core: CoreInternals, file: string, force = false): Promise<() => Promise<ScanRecord | null>> {
  const submitted = await core.submit([file], { origin: 'cli', mode: 'async', force });
  const id = submitted.ok ? (submitted.value.ids[0] ?? '') : '';
  return async () => {
    const got = await core.scans.get(id);
    return got.ok ? got.value : null;
  };
}

describe.skipIf(findClamd() === null)('the detection settings, changed while Verdict runs', () => {
  test("Verdict's own clamd starts again with them; files sent meanwhile wait; verdicts of the old settings are not reused", async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const clamd = await holdableClamd(fixture.dir.path, findClamd() ?? '');
    const dataDir = fixture.dataDir();
    const db = await writeEicarDatabase(join(fixture.dir.path, 'db'));
    await writeFile(join(db, 'verdict-pua.ndu'), `${PUA_NAME}:0:*:${Buffer.from(MARKER).toString('hex')}\n`);
    const files = join(fixture.dir.path, 'files');
    await mkdir(files);
    const tool = join(files, 'tool.txt');
    const big = join(files, 'big.bin');
    await writeFile(tool, `a tool: ${MARKER}\n`);
    await writeFile(big, randomBytes(3 * 1024 * 1024));
    expect((await (await openSettings(dataDir)).update({ clamavDatabaseDir: db, recheckAfterUpdateDays: 0 })).ok).toBe(true);

    const core = await fixture.open({ ...FAST, engine: { ownClamdPath: clamd.path, autoUpdate: false } }, { localService: { engine: 'auto' } });
    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };
    const ownAnswers = async () => (await view())?.status?.engine.source === 'own' && (await view())?.status?.engine.version !== null;
    await until(ownAnswers, "Verdict's own clamd");
    expect((await view())?.status?.detection).toMatchObject({ source: 'own', settings: DEFAULT_DETECTION });
    const pidBefore = Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim());

    const first = await scanOnce(core, tool);
    await until(async () => (await first())?.status === 'completed', 'the verdict under the defaults');
    const firstRecord = await first();
    expect(firstRecord).toMatchObject({ safe: true, engine: { name: 'clamav' } });
    expect(firstRecord?.engine).not.toHaveProperty('detection');
    // Under the same settings the clean verdict stands for the same content.
    const again = await scanOnce(core, tool);
    await until(async () => (await again())?.status === 'completed', 'the reused verdict');
    expect(await again()).toMatchObject({ safe: true, reusedFromId: firstRecord?.id });

    // Held before clamd starts again: what is sent meanwhile waits, never judged by the old clamd.
    await writeFile(clamd.hold, '');
    const detection: DetectionSettings = { ...DEFAULT_DETECTION, pua: { enabled: true, mode: 'all', categories: [] }, maxFileSizeMb: 1, maxScanSizeMb: 10 };
    expect((await core.settings.update({ detection })).ok).toBe(true);
    await until(async () => (await view())?.status?.reason.code === 'clamd_starting', 'Starting ClamAV with the new settings');
    await until(async () => !isAlive(pidBefore), 'the clamd of the old settings to stop');
    // Forced, as a rescan is: nothing to reuse, it goes to the engine and waits there, as the window sees it.
    const waiting = new Set<string>();
    const unsubscribe = core.scans.onEvent((event) => {
      if (event.type === 'record' && event.record.pendingReason === 'engine_starting') waiting.add(event.record.id);
    });
    const afterBig = await scanOnce(core, big, true);
    const bigId = (await afterBig())?.id ?? '';
    await until(() => waiting.has(bigId), 'a file to wait for ClamAV ("Starting ClamAV…")');
    unsubscribe();
    expect(await afterBig()).toMatchObject({ safe: null, completedAt: null });

    await rm(clamd.hold);
    await until(async () => (await afterBig())?.status === 'completed', 'the waiting file under the new settings');
    await until(ownAnswers, "Verdict's own clamd again");
    expect(await afterBig()).toMatchObject({ safe: false, findings: [{ name: 'Heuristics.Limits.Exceeded.MaxFileSize' }] });
    // Not forced: the clean verdict of the defaults is not reused, nor the unchanged file skipped.
    const afterTool = await scanOnce(core, tool);
    await until(async () => (await afterTool())?.status === 'completed', 'the PUA file under the new settings');
    expect(await afterTool()).toMatchObject({ safe: false, reusedFromId: null, findings: [{ name: `${PUA_NAME}.UNOFFICIAL` }], engine: { name: 'clamav', detection: detectionKey(detection) } });
    const status = (await view())?.status;
    expect(status?.detection).toMatchObject({ source: 'own', settings: detection });
    expect(status?.coverage).toMatchObject({ maxFileSize: '1M', maxScanSize: '10M' });
    expect(status?.engine.detection).toBe(detectionKey(detection));
    expect(isAlive(Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim()))).toBe(true);
  }, 120_000);

  test('a change in the middle of a batch: every file in flight ends with one verdict, none failed, some under each setting', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const dataDir = fixture.dataDir();
    const db = await writeEicarDatabase(join(fixture.dir.path, 'db'));
    const files = join(fixture.dir.path, 'batch');
    await mkdir(files);
    const paths: string[] = [];
    for (let i = 0; i < 400; i++) {
      const path = join(files, `f${i}.bin`);
      await writeFile(path, randomBytes(20_000 + i));
      paths.push(path);
    }
    expect((await (await openSettings(dataDir)).update({ clamavDatabaseDir: db, recheckAfterUpdateDays: 0 })).ok).toBe(true);
    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false } }, { localService: { engine: 'auto' } });
    const engine = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value.status?.engine : undefined;
    };
    await until(async () => (await engine())?.source === 'own' && (await engine())?.version !== null, "Verdict's own clamd");

    const submitted = await core.submit([files], { origin: 'cli', mode: 'async', force: true });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const detection: DetectionSettings = { ...DEFAULT_DETECTION, maxFileSizeMb: 50 };
    // Once the first verdicts are in: the rest are queued or in flight at clamd when it stops.
    const clean = async () => {
      const page = await core.scans.list({ verdicts: ['safe'], limit: 1 });
      return page.ok ? page.value.total : 0;
    };
    await until(async () => (await clean()) >= 20, 'the first verdicts');
    expect((await core.settings.update({ detection })).ok).toBe(true);
    await core.idle();
    const records = (await Promise.all(submitted.value.ids.map((id) => core.scans.get(id)))).flatMap((got) => (got.ok && got.value ? [got.value] : []));
    expect(records).toHaveLength(400);
    expect(records.filter((record) => record.status !== 'completed').map((record) => [record.path, record.status, record.error?.code])).toEqual([]);
    expect(new Set(records.map((record) => record.path)).size).toBe(400);
    const underNew = records.filter((record) => record.engine?.detection === detectionKey(detection)).length;
    expect(underNew, 'files judged after the restart').toBeGreaterThan(0);
    expect(400 - underNew, 'files judged before it').toBeGreaterThan(0);
  }, 120_000);
});
