// The local service's live engine with real clamds: the switch from the built-in
// engine to a clamd that appears while it runs, a clamd gone mid-batch (files wait,
// then resume), ClamAV known here and gone (files fail after the limit, unless basic
// checks only are allowed), and Verdict's own clamd loading ("Starting ClamAV…").
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BUILTIN_IDENTITY } from '../../../shared/engine/engine-identity.ts';
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { BuiltinEngine } from '../../../electron/engine/builtin-engine.ts';
import { DETAILED_LABELS, EngineError, type EngineVerdict } from '../../../electron/engine/engine.ts';
import { readKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { LiveEngine, type LiveEngineOptions } from '../../../electron/engine/live/live-engine.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { CLAMAV_TESTFILES_DIR, startClamd, TEST_SIGNATURES, type RunningClamd } from '../../support/clamd.ts';
import { countingClamd, gatedClamd } from '../../support/gated-clamd.ts';

const CLAM_EXE = join(CLAMAV_TESTFILES_DIR, 'clam.exe');

let root: string;
const engines: LiveEngine[] = [];
const clamds: RunningClamd[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-live-engine-'));
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
  await Promise.all(clamds.splice(0).map((clamd) => clamd.stop()));
  await rm(root, { recursive: true, force: true });
});

function live(options: Partial<LiveEngineOptions> = {}): LiveEngine {
  const engine = new LiveEngine({ kind: 'auto', dataDir: join(root, 'service'), recheckMs: 50, ...options });
  engines.push(engine);
  return engine;
}

async function clamd(): Promise<RunningClamd | null> {
  const started = await startClamd();
  if (started) clamds.push(started);
  return started;
}

/** `link` is where the engine looks for clamd; pointing it elsewhere is "a clamd appeared there". */
async function pointAt(link: string, socketPath: string): Promise<void> {
  await unlink(link).catch(() => undefined);
  await symlink(socketPath, link);
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a promise has settled, without waiting for it. */
function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

const clamTestFile = (verdict: EngineVerdict) => verdict.findings.map((finding) => finding.name);

describe.skipIf(findClamd() === null)('the live engine', () => {
  test('on the built-in engine until a clamd appears; the next file is scanned by that clamd', async () => {
    const link = join(root, 'clamd.ctl');
    const engine = live({ socketCandidates: [link] });
    expect((await engine.start()).phase).toBe('builtin');
    expect(await engine.scan(CLAM_EXE)).toEqual({ safe: true, detailed: DETAILED_LABELS.basicChecksClean, findings: [], engine: BUILTIN_IDENTITY });

    const system = await clamd();
    if (!system) return;
    await pointAt(link, system.socketPath);
    // No "check again": the engine's own look (every recheckMs) finds it.
    await until(() => engine.state.phase === 'clamav', 'the switch to clamd');
    expect(clamTestFile(await engine.scan(CLAM_EXE))).toEqual([TEST_SIGNATURES.clamTestFile]);
    // The test's clamd runs as the test's own account: a clamd found at the usual socket, not the system's.
    expect(engine.status).toMatchObject({ state: 'outdated', engine: { name: 'clamav', source: 'found', where: `unix:${link}` } });
    // From now on ClamAV is known to this installation.
    expect(readKnownClamav(join(root, 'service'))).toMatchObject({ source: 'found', where: `unix:${link}` });
  });

  test('a clamd gone mid-batch: the files wait (not_running), and are scanned by ClamAV once one answers again', async () => {
    const first = await clamd();
    if (!first) return;
    const link = join(root, 'clamd.ctl');
    await pointAt(link, first.socketPath);
    const engine = live({ socketCandidates: [link] });
    expect((await engine.start()).phase).toBe('clamav');
    expect(clamTestFile(await engine.scan(CLAM_EXE))).toEqual([TEST_SIGNATURES.clamTestFile]);

    await first.stop();
    const batch = [engine.scan(CLAM_EXE), engine.scan(CLAM_EXE), engine.scan(CLAM_EXE)];
    const settled = batch.map(settledFlag);
    await until(() => engine.state.phase === 'missing', 'the engine to notice');
    expect(engine.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_not_answering' }, engine: { name: 'clamav', where: `unix:${link}` } });
    // Several looks later the files still wait: never the built-in engine's "clean".
    const looks = 5;
    const changes: ProtectionStatus[] = [];
    engine.onChange((status) => changes.push(status));
    for (let i = 0; i < looks; i++) await engine.check();
    expect(settled.map((done) => done())).toEqual([false, false, false]);

    const second = await clamd();
    if (!second) return;
    await pointAt(link, second.socketPath);
    const verdicts = await Promise.all(batch);
    expect(verdicts.map(clamTestFile)).toEqual([[TEST_SIGNATURES.clamTestFile], [TEST_SIGNATURES.clamTestFile], [TEST_SIGNATURES.clamTestFile]]);
    expect(changes.at(-1)?.engine.version).not.toBeNull();
  });

  test('ClamAV known here and gone at start: a file fails after the wait limit, with a clear code; basic checks only, when allowed', async () => {
    const system = await clamd();
    if (!system) return;
    const link = join(root, 'clamd.ctl');
    await pointAt(link, system.socketPath);
    const before = live({ socketCandidates: [link] });
    expect((await before.start()).phase).toBe('clamav');
    await before.close();
    await system.stop();

    const engine = live({ socketCandidates: [link], waitLimitMs: 300 });
    expect((await engine.start()).phase).toBe('missing');
    expect(engine.status).toMatchObject({ state: 'not_running', engine: { source: 'found', where: `unix:${link}` } });
    const error = await engine.scan(CLAM_EXE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('clamav_unavailable');
    expect(await engine.scan(CLAM_EXE, undefined, { basicOnly: true })).toEqual({ safe: true, detailed: DETAILED_LABELS.basicChecksClean, findings: [], engine: BUILTIN_IDENTITY });
  });

  test("Verdict's own clamd loading: Starting ClamAV…, the file waits for it (no basic verdict), and no clamd outlives close()", async () => {
    const gate = await gatedClamd(root);
    if (!gate) return;
    const db = await writeEicarDatabase(join(root, 'db'));
    const custom = await writeCustomSignature(db, root, 'live-own');
    const changes: ProtectionStatus[] = [];
    const engine = live({ socketCandidates: [], ownClamd: { dataDir: join(root, 'app'), databaseDir: db, clamdPath: gate.path } });
    engine.onChange((status) => changes.push(status));
    expect((await engine.start()).phase).toBe('starting');
    expect(engine.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_starting' }, action: 'wait' });
    const verdict = engine.scan(custom.file);
    const settled = settledFlag(verdict);
    // "Check again" while it loads answers at once, and the file is still waiting afterwards,
    // where the built-in engine would have answered long since.
    expect((await engine.check()).reason.code).toBe('clamd_starting');
    expect(await new BuiltinEngine().scan(custom.file)).toMatchObject({ safe: true });
    expect(settled()).toBe(false);

    await gate.open();
    expect(clamTestFile(await verdict)).toEqual([custom.signature]);
    expect(engine.status).toMatchObject({ engine: { name: 'clamav', source: 'own', where: `unix:${join(root, 'app', 'clamd.sock')}` } });
    // (The self-test's result, once in, is a change of its own with the same reason.)
    expect([...new Set(changes.map((status) => status.reason.code))]).toEqual(['clamd_starting', 'signatures_undated']);
    const pid = engine.ownClamdPid ?? -1;
    expect(isAlive(pid)).toBe(true);
    await engine.close();
    expect(isAlive(pid)).toBe(false);
  });

  test('a corrupt database: not running with clamd\'s own words, a few quick attempts and no loop; files never get the built-in verdict', async () => {
    const counting = await countingClamd(root);
    if (!counting) return;
    const db = join(root, 'corrupt');
    await mkdir(db);
    await writeFile(join(db, 'broken.ndb'), 'not:a:signature:zz\n');
    const engine = live({
      socketCandidates: [],
      waitLimitMs: 300,
      ownClamd: { dataDir: join(root, 'app'), databaseDir: db, clamdPath: counting.path, backoffMs: [10], quickFailureMs: 60_000, maxQuickFailures: 3 },
    });
    await engine.start();
    await until(() => engine.status?.reason.code === 'clamd_failed', 'the own clamd to give up');
    expect(engine.status).toMatchObject({ state: 'not_running', action: 'start_clamav', reason: { params: { detail: expect.stringMatching(/Malformed|database/i) } } });
    const launches = counting.launches();
    expect(launches).toBe(3);
    // Many looks of the engine's own timer later (every 50 ms): no new launch, the same state.
    const error = await engine.scan(CLAM_EXE).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('clamav_unavailable');
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counting.launches()).toBe(launches);
    expect(engine.status?.reason.code).toBe('clamd_failed');
  });

  test('closed while its own clamd still loads: close() stops it instead of waiting for the load', async () => {
    const gate = await gatedClamd(root);
    if (!gate) return;
    const db = await writeEicarDatabase(join(root, 'db'));
    const engine = live({ socketCandidates: [], ownClamd: { dataDir: join(root, 'app'), databaseDir: db, clamdPath: gate.path } });
    expect((await engine.start()).phase).toBe('starting');
    const pid = Number(readFileSync(join(root, 'app', 'clamd.pid'), 'utf8').trim());
    expect(isAlive(pid)).toBe(true);
    const scan = engine.scan(CLAM_EXE).catch((e: unknown) => e);
    await engine.close();
    expect(isAlive(pid)).toBe(false);
    expect(((await scan) as EngineError).code).toBe('engine_aborted');
  });
});
