// The self-test with real clamds: the live engine scans the EICAR test file at start
// and after each signature change. A database that knows EICAR passes; one that knows
// only another signature gives `failing` within one test, while scans go on; loading
// a database that knows EICAR with a RELOAD ends `failing`. `verdict status` tests the
// same way and exits 1 on `failing`, naming `verdict update` (en and de).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PROTECTION_STATES } from '../../../shared/engine/protection-state.ts';
import { SELF_TEST_RESULTS } from '../../../shared/engine/self-test.ts';
import { LiveEngine } from '../../../electron/engine/live/live-engine.ts';
import { clamdReload } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { EICAR_SIGNATURE, writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { runNode } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const clamd = findClamd();

let root: string;
const engines: LiveEngine[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-self-test-'));
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
  await rm(root, { recursive: true, force: true });
});

function ownLive(databaseDir: string): LiveEngine {
  // No system clamd: Verdict's own clamd on `databaseDir` is the engine.
  const engine = new LiveEngine({ kind: 'auto', dataDir: join(root, 'service'), recheckMs: 60_000, socketCandidates: [], ownClamd: { dataDir: join(root, 'app'), databaseDir } });
  engines.push(engine);
  return engine;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('failing is a state of its own, and a self-test has three results', () => {
  expect(PROTECTION_STATES).toContain('failing');
  expect(SELF_TEST_RESULTS).toEqual(['passed', 'failed', 'error']);
});

describe.skipIf(clamd === null)('the live engine tests itself with a real clamd', () => {
  test('a database that knows EICAR: passed, with the signature, the engine and its signatures; not failing', async () => {
    const engine = ownLive(await writeEicarDatabase(join(root, 'db')));
    await engine.start();
    await until(() => engine.status?.selfTest !== undefined, 'the first self-test');
    const status = engine.status!;
    expect(status.selfTest).toMatchObject({ result: 'passed', detail: EICAR_SIGNATURE, engine: { name: 'clamav', source: 'own', where: status.engine.where, version: status.engine.version, signatures: null } });
    expect(status.state).toBe('outdated'); // custom signatures only: undated, not failing
    expect(Date.parse(status.selfTest!.at)).toBeGreaterThan(Date.now() - 60_000);
    console.info(`self-test on Verdict's own clamd: ${status.selfTest!.durationMs} ms`);
  });

  test('a database without EICAR: failing within one self-test, scans go on; a RELOAD with EICAR\'s signature ends it', async () => {
    const db = join(root, 'db');
    await mkdir(db);
    const other = await writeCustomSignature(db, root, 'another-signature');
    const engine = ownLive(db);
    const states: string[] = [];
    engine.onChange((status) => states.push(status.state));
    await engine.start();
    await until(() => engine.status?.state === 'failing', 'failing');
    expect(engine.status).toMatchObject({ state: 'failing', reason: { code: 'self_test_failed' }, action: 'update_signatures', selfTest: { result: 'failed', detail: null } });
    // One test was enough: no state between the engine's and failing but the untested one.
    expect(states.filter((state) => state === 'failing')).toHaveLength(1);
    // Scans go on, with the engine's verdicts.
    expect((await engine.scan(other.file)).findings).toEqual([{ name: other.signature }]);

    await writeEicarDatabase(db);
    const where = engine.status!.engine.where;
    await clamdReload({ socketPath: where.slice('unix:'.length) });
    // clamd loads the new database while it keeps scanning: "Check again" tests once more.
    await until(async () => (await engine.check()).state !== 'failing', 'the self-test to pass after the reload');
    expect(engine.status).toMatchObject({ state: 'outdated', selfTest: { result: 'passed', detail: EICAR_SIGNATURE } });
  }, 60_000);
});

describe.skipIf(clamd === null)('verdict status tests detection', () => {
  const status = (args: string[], env: Record<string, string> = {}) =>
    runNode([join(ROOT, 'bin/verdict.mjs'), 'status', '--data-dir', join(root, 'data'), ...args], { cwd: ROOT, env: { LANG: 'en_US.UTF-8', LC_ALL: '', ...env } });

  test('a clamd blind to EICAR: failing, exit 1, the self-test in --json, and `verdict update` as what to do (en, de)', async () => {
    const db = join(root, 'db');
    await mkdir(db);
    await writeCustomSignature(db, root, 'another-signature');
    const json = await status(['--json', '--clamav-db', db]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      state: 'failing',
      reason: expect.stringContaining('`verdict update`'),
      selfTest: { result: 'failed', engine: { name: 'clamav', source: 'own' }, detail: null },
    });
    const text = await status(['--clamav-db', db]);
    expect(text.stdout).toContain('Protection: failing\n');
    expect(text.stdout).toContain('Self-test: FAILED: the EICAR test file was not detected\n');
    expect(text.stdout).toContain('What to do: Update the signatures now: `verdict update`');
    const german = await status(['--clamav-db', db], { LANG: 'de_DE.UTF-8' });
    expect(german.stdout).toContain('Selbsttest: FEHLGESCHLAGEN: Die EICAR-Testdatei wurde nicht erkannt\n');
    expect(german.stdout).toContain('Was tun: Aktualisieren Sie jetzt die Signaturen: `verdict update`');
  }, 60_000);
});
