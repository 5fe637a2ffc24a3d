// Allowing a detection name is a rule about verdicts, whatever engine made them (issue 28 §1): with
// the real core and Verdict's own clamd (the system's binary, on a database the test writes with a
// custom signature), the custom signature's name, once allowed, makes its file read allowed (by
// detection name) under ClamAV's verdict; EICAR, another name, stays a threat; taking the name off
// makes the file a threat again.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { verdictOf, type ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { EICAR_SIGNATURE, writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { FAST, until, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-allow-name-clamd-');

async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

async function scan(core: CoreInternals, file: string): Promise<ScanRecord> {
  const submitted = await core.submit([file], { origin: 'drop', force: true });
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.threatsSettled();
  const got = await core.scans.get(submitted.value.ids[0] ?? '');
  if (!got.ok) throw new Error(got.error.message);
  return got.value;
}

describe.skipIf(findClamd() === null)("allow by detection name with Verdict's own clamd", () => {
  test('a custom signature allowed by name reads allowed under ClamAV; EICAR stays a threat; removal makes it a threat again', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const dataDir = fixture.dataDir();
    const db = await writeEicarDatabase(join(dataDir, 'clamav-db'));
    const files = join(fixture.dir.path, 'files');
    await mkdir(files, { recursive: true });
    const custom = await writeCustomSignature(db, files, 'win-tool-foo');
    const eicar = await writeEicar(join(files, 'eicar.com'));

    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false } }, { localService: { engine: 'auto' } });
    await until(async () => {
      const view = await core.protection.status();
      return view.ok && view.value.status?.engine.source === 'own';
    }, "Verdict's own clamd", 60_000);

    expect(await scan(core, custom.file)).toMatchObject({ safe: false, disposition: null, findings: [{ name: custom.signature }], engine: { name: 'clamav' } });
    const allowed = await core.quarantine.allowName(custom.signature);
    expect(allowed).toMatchObject({ ok: true, value: { names: [custom.signature], changed: 1 } });

    const again = await scan(core, custom.file);
    expect(again).toMatchObject({ safe: false, disposition: 'allowed', allowedBy: 'name', findings: [{ name: custom.signature }], engine: { name: 'clamav' } });
    expect(verdictOf(again)).toBe('allowed');
    const other = await scan(core, eicar);
    expect(other).toMatchObject({ safe: false, disposition: null, findings: [{ name: EICAR_SIGNATURE }] });
    expect(verdictOf(other)).toBe('unsafe');

    expect(await core.quarantine.revokeAllowedName(custom.signature)).toMatchObject({ ok: true, value: { names: [], changed: 2 } });
    const threat = await scan(core, custom.file);
    expect(verdictOf(threat)).toBe('unsafe');
  });
});
