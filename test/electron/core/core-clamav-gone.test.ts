// Never downgrade silently, with the real core and embedded service: ClamAV has
// scanned here before (the persisted fact), and now no clamd answers. A file waits
// for it ("engine_waiting"), then fails with clamav_unavailable and words that say what
// to do; a file the user allows basic checks only for gets the built-in verdict.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { writeKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-clamav-gone-');

describe('ClamAV known here and gone', () => {
  test('a file waits, then fails with clamav_unavailable; with basic checks only it gets the built-in verdict', async (context) => {
    const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
    if (answers.includes(true)) return context.skip();
    writeKnownClamav(join(fixture.dataDir(), 'local-service'), { source: 'system', where: 'unix:/run/clamav/clamd.ctl', at: '2026-11-20T10:00:00.000Z' });
    const core = await fixture.open(
      { ...FAST, engine: { live: { waitLimitMs: 1_500, recheckMs: 100 } } },
      { localService: { engine: 'auto', ownClamd: false } },
    );
    const status = await core.protection.status();
    expect(status.ok && status.value.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_not_answering' }, engine: { source: 'system', where: 'unix:/run/clamav/clamd.ctl' } });

    const waiting = join(fixture.dir.path, 'waits.txt');
    const basic = join(fixture.dir.path, 'basic.txt');
    await writeFile(waiting, 'a file that waits for ClamAV\n');
    await writeFile(basic, 'a file allowed basic checks only\n');
    const record = async (id: string): Promise<ScanRecord | null> => {
      const got = await core.scans.get(id);
      return got.ok ? got.value : null;
    };
    const first = await core.submit([waiting], { origin: 'cli', mode: 'async' });
    const waitingId = first.ok ? (first.value.ids[0] ?? '') : '';
    await until(async () => (await record(waitingId))?.pendingReason === 'engine_waiting', 'the file to wait for ClamAV');

    const second = await core.submit([basic], { origin: 'cli', mode: 'async', basicOnly: true });
    const basicId = second.ok ? (second.value.ids[0] ?? '') : '';
    await until(async () => (await record(basicId))?.status === 'completed', 'the basic verdict');
    expect(await record(basicId)).toMatchObject({ safe: true, detailed: 'clean (basic checks only; ClamAV not available)' });

    await until(async () => (await record(waitingId))?.status === 'failed', 'the wait limit');
    const failed = await record(waitingId);
    expect(failed).toMatchObject({ safe: null, pendingReason: null, error: { code: 'clamav_unavailable' } });
    expect(failed?.error?.message).toMatch(/ClamAV.*not available.*basic checks only/);
  });
});
