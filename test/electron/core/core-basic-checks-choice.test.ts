// "Scan with basic checks only" with the real core and embedded service, ClamAV known
// here and gone (the set-up of core-clamav-gone.test.ts): a file waiting for ClamAV is
// switched where it waits (one history row; over HTTP one scan at the service, on the
// local engine path none), and a file that failed waiting is sent again with basic
// checks allowed. Anything else is skipped.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test, type TestContext } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { writeKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-basic-choice-');
const BASIC_CLEAN = 'clean (basic checks only; ClamAV not available)';

/** A core whose ClamAV is known here and does not answer; null (test skipped) when a system clamd answers. */
async function coreWithClamavGone(context: TestContext, waitLimitMs: number, path: 'engine' | 'http' = 'engine'): Promise<CoreInternals | null> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  if (answers.includes(true)) {
    context.skip();
    return null;
  }
  writeKnownClamav(join(fixture.dataDir(), 'local-service'), { source: 'system', where: 'unix:/run/clamav/clamd.ctl', at: '2026-11-20T10:00:00.000Z' });
  // retention 'keep': the service's own scans are the evidence of one submission (by default it drops a scan once recorded).
  return fixture.open({ ...FAST, engine: { live: { waitLimitMs, recheckMs: 100 } } }, { localService: { engine: 'auto', ownClamd: false, retention: 'keep', path } });
}

const recordOf = async (core: CoreInternals, id: string): Promise<ScanRecord | null> => {
  const got = await core.scans.get(id);
  return got.ok ? got.value : null;
};

async function submitOne(core: CoreInternals, path: string): Promise<string> {
  const submitted = await core.submit([path], { origin: 'cli', mode: 'async' });
  expect(submitted.ok).toBe(true);
  return submitted.ok ? (submitted.value.ids[0] ?? '') : '';
}

/** The scans the embedded service holds (its own database, read beside it). */
function serviceScans(): number {
  const db = new DatabaseSync(join(fixture.dataDir(), 'local-service', 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('Scan with basic checks only', () => {
  test.for(['engine', 'http'] as const)('a file waiting for ClamAV is switched where it waits (%s path): the built-in verdict, one row, one submission', async (way, context) => {
    const core = await coreWithClamavGone(context, 120_000, way);
    if (!core) return;
    const path = join(fixture.dir.path, 'waits.txt');
    await writeFile(path, 'a file that waits for ClamAV\n');
    const id = await submitOne(core, path);
    await until(async () => {
      const record = await recordOf(core, id);
      // Over HTTP the service has the scan; on the engine path the file waits at the engine, known by its reference.
      return record?.pendingReason === 'engine_waiting' && (way === 'engine' || record.serviceScanId !== null);
    }, 'the file to wait for ClamAV');
    const serviceScanId = (await recordOf(core, id))?.serviceScanId;

    expect(await core.scans.scanWithBasicChecks([id])).toEqual({ ok: true, value: { switched: 1, queued: 0, skipped: 0 } });
    await until(async () => (await recordOf(core, id))?.status === 'completed', 'the basic verdict');
    const done = await recordOf(core, id);
    expect(done).toMatchObject({ safe: true, detailed: BASIC_CLEAN, pendingReason: null, engine: { name: 'builtin' } });
    if (way === 'http') expect(done?.serviceScanId).toBe(serviceScanId);

    const rows = await core.scans.list({ search: 'waits.txt' });
    expect(rows.ok && rows.value.items.map((row) => row.id)).toEqual([id]);
    expect(serviceScans()).toBe(way === 'http' ? 1 : 0);
    // Done: asking again changes nothing.
    expect(await core.scans.scanWithBasicChecks([id])).toEqual({ ok: true, value: { switched: 0, queued: 0, skipped: 1 } });
  });

  test('a file that failed waiting is sent again with basic checks allowed; unknown and unfit ids are skipped', async (context) => {
    const core = await coreWithClamavGone(context, 1_000);
    if (!core) return;
    const path = join(fixture.dir.path, 'failed.txt');
    await writeFile(path, 'a file that waited too long for ClamAV\n');
    const id = await submitOne(core, path);
    await until(async () => (await recordOf(core, id))?.status === 'failed', 'the wait limit');
    expect(await recordOf(core, id)).toMatchObject({ error: { code: 'clamav_unavailable' } });

    expect(await core.scans.scanWithBasicChecks([id, 'no-such-scan'])).toEqual({ ok: true, value: { switched: 0, queued: 1, skipped: 1 } });
    await until(async () => {
      const rows = await core.scans.list({ search: 'failed.txt' });
      return rows.ok && rows.value.items.some((row) => row.id !== id && row.status === 'completed');
    }, 'the basic verdict of the new scan');
    const rows = await core.scans.list({ search: 'failed.txt' });
    const again = rows.ok ? rows.value.items.find((row) => row.id !== id) : undefined;
    expect(again).toMatchObject({ origin: 'rescan', safe: true, detailed: BASIC_CLEAN });
    expect(rows.ok && rows.value.items).toHaveLength(2);
    // The completed one is not waiting for ClamAV: nothing to do.
    expect(await core.scans.scanWithBasicChecks([again?.id ?? ''])).toMatchObject({ ok: true, value: { switched: 0, queued: 0, skipped: 1 } });
    expect(await core.scans.scanWithBasicChecks('nope' as unknown as string[])).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
