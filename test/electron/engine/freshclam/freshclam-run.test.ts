// freshclam for real, offline: its failure paths as this machine produces them;
// a successful run through a stand-in that prints freshclam's documented lines and
// adds a signature, after which Verdict's own clamd reloads and detects it.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ClamdEngine } from '../../../../electron/engine/clamd-engine.ts';
import { updateSignatures } from '../../../../electron/engine/freshclam/run-freshclam.ts';
import { findClamd, findFreshclam } from '../../../../electron/engine/own-clamd/find-clamav.ts';
import { OwnClamd } from '../../../../electron/engine/own-clamd/own-clamd.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../../support/clamav-db.ts';

const freshclam = findFreshclam(findClamd());
const clamd = findClamd();
if ((freshclam === null || clamd === null) && process.env.CI) throw new Error('freshclam and clamd must be installed in CI (clamav-freshclam, clamav-daemon)');

let root: string;
let dataDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-freshclam-'));
  dataDir = join(root, 'data');
  await mkdir(dataDir);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(freshclam === null)('freshclam offline, for real', () => {
  test('no connection: reported in words, nothing reloaded, the config points at Verdict\'s own folder', async () => {
    const progress: string[] = [];
    let reloads = 0;
    const result = await updateSignatures({
      dataDir,
      // An address that fails at once here, whether or not a resolver answers.
      mirror: '127.0.0.1:9',
      maxAttempts: 1,
      onProgress: (line) => progress.push(line),
      reload: async () => void reloads++,
    });
    expect(result).toMatchObject({ ok: true, outcome: { kind: 'no_connection' }, reloaded: false });
    expect(reloads).toBe(0);
    expect(progress.some((line) => line.startsWith('ERROR:'))).toBe(true);
    const config = await readFile(join(dataDir, 'freshclam.conf'), 'utf8');
    expect(config).toContain(`DatabaseDirectory ${join(dataDir, 'clamav-db')}\n`);
    expect(config).not.toMatch(/^NotifyClamd/m);
  });

  test('with the default mirror too (no network here)', async () => {
    const result = await updateSignatures({ dataDir, maxAttempts: 1 });
    expect(result).toMatchObject({ ok: true, outcome: { kind: 'no_connection' } });
  });
});

describe('what Verdict refuses or cannot do', () => {
  test('freshclam missing, or not a program', async () => {
    expect(await updateSignatures({ dataDir, freshclamPath: null })).toMatchObject({ ok: false, problem: 'freshclam_missing' });
    expect(await updateSignatures({ dataDir, freshclamPath: join(root, 'nothing-here') })).toMatchObject({ ok: false, problem: 'spawn_failed' });
  });

  test.skipIf(!existsSync('/var/lib/clamav'))('never the system database, not even through a link', async () => {
    const before = await readdir('/var/lib/clamav');
    await symlink('/var/lib/clamav', join(dataDir, 'clamav-db'));
    expect(await updateSignatures({ dataDir })).toMatchObject({ ok: false, problem: 'system_database' });
    expect(await readdir('/var/lib/clamav')).toEqual(before);
  });
});

describe.skipIf(clamd === null)('a successful update reloads Verdict\'s own clamd', () => {
  test('the new signature is detected after the update', async () => {
    const ownDb = await writeEicarDatabase(join(dataDir, 'clamav-db'));
    const staging = join(root, 'staging');
    await mkdir(staging);
    const custom = await writeCustomSignature(staging, root, 'from-the-update');
    // Stands in for freshclam: reads its DatabaseDirectory from the config Verdict wrote,
    // adds the signature there and prints what freshclam prints after an update.
    const fake = join(root, 'freshclam');
    await writeFile(
      fake,
      `#!/bin/sh
conf="\${1#--config-file=}"
db="$(sed -n 's/^DatabaseDirectory //p' "$conf")"
cp "${join(staging, 'from-the-update.hdb')}" "$db/"
echo "daily.cld updated (version: 27468, sigs: 2071000, f-level: 90, builder: raynman)"
echo "main.cvd database is up-to-date (version: 62, sigs: 6647427, f-level: 90, builder: sigmgr)"
`,
    );
    await chmod(fake, 0o755);

    const own = new OwnClamd({ dataDir, backoffMs: [50] });
    try {
      const state = await own.start();
      if (state.status !== 'running') throw new Error(JSON.stringify(state));
      expect(state).toMatchObject({ databaseDir: ownDb, databaseOrigin: 'own' });
      const engine = new ClamdEngine({ endpoint: { socketPath: state.socketPath } });
      expect((await engine.scan(custom.file)).safe).toBe(true);

      const result = await updateSignatures({ dataDir, freshclamPath: fake, reload: () => own.reload() });
      expect(result).toEqual({ ok: true, outcome: { kind: 'updated', version: 27468, databases: ['daily'] }, reloaded: true });
      const deadline = Date.now() + 30_000;
      while ((await engine.scan(custom.file)).safe && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await engine.scan(custom.file)).findings).toEqual([{ name: custom.signature }]);
    } finally {
      await own.close();
    }
  });
});
