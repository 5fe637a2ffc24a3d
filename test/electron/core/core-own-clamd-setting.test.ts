// The setting "Start ClamAV when Verdict starts", off, with the real core, embedded
// service and clamd: no clamd answers and clamd and a database are there, yet the
// service starts none (the state says ClamAV is not running); the user's "Start
// ClamAV" (protection.refresh) then starts Verdict's own clamd for this run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../../electron/settings/settings-store.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { FAST, until } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-own-clamd-setting-');

describe.skipIf(findClamd() === null)('startOwnClamd: false', () => {
  test('no own clamd at start; "Start ClamAV" starts it anyway', async (context) => {
    const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
    // A system clamd answering would be chosen first: then this path is not the one taken.
    if (answers.includes(true)) return context.skip();
    const dataDir = fixture.dataDir();
    await writeEicarDatabase(join(dataDir, 'clamav-db'));
    await mkdir(dataDir, { recursive: true });
    writeFileSync(join(dataDir, SETTINGS_FILE_NAME), JSON.stringify({ startOwnClamd: false }));
    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false } }, { localService: { engine: 'auto' } });
    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };

    await until(async () => (await view())?.status != null, 'the first look');
    expect((await view())?.status).toMatchObject({ state: 'not_running', engine: { source: 'own' }, reason: { code: 'clamd_not_answering' } });
    expect(existsSync(join(dataDir, 'clamd.pid'))).toBe(false);

    const refreshed = await core.protection.refresh();
    expect(refreshed.ok).toBe(true);
    await until(async () => (await view())?.status?.engine.source === 'own' && (await view())?.status?.engine.name === 'clamav', "Verdict's own clamd");
    const pid = Number(readFileSync(join(dataDir, 'clamd.pid'), 'utf8').trim());
    expect(isAlive(pid)).toBe(true);
    await core.close();
    expect(isAlive(pid)).toBe(false);
  });
});
