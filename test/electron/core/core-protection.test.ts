// The core's protection state, with the real embedded service: the built-in engine
// (limited), a real clamd with the test's own (undated) database (outdated), a clamd
// with dated official signatures (a stand-in with a recorded VERSION: protected, and
// outdated once they age), a remote service (not Verdict's engine), and "Update
// signatures now" (freshclam's real offline failure; a system clamd left alone).
import { join } from 'node:path';
import { loadFdPassing } from '../../../electron/engine/clamd/fd-passing.ts';
import { describe, expect, test } from 'vitest';
import type { ProtectionView } from '../../../shared/bridge/api.ts';
import { startClamd } from '../../support/clamd.ts';
import { datedVersionLine, startClamdStandIn } from '../../support/clamd-stand-in.ts';
import { FAST } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-protection-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('the protection state of the engine the embedded service uses', () => {
  test('the built-in engine, chosen: limited, and the way back to ClamAV is the action', async () => {
    const core = await fixture.open();
    const view = value(await core.protection.status());
    expect(view.remote).toBeNull();
    expect(view.status).toMatchObject({
      state: 'limited',
      reason: { code: 'builtin_requested' },
      action: 'use_clamav',
      engine: { name: 'builtin', source: 'builtin', version: null, signatures: null },
    });
  });

  test('a real clamd with the test database: outdated (no dated signatures), its version and where it answers', async (context) => {
    const clamd = await startClamd();
    if (!clamd) return context.skip();
    fixture.onCleanup(() => clamd.stop());
    const core = await fixture.open(FAST, { localService: { engine: 'clamd', clamdSocket: clamd.socketPath } });
    const view = value(await core.protection.status());
    expect(view.status).toMatchObject({
      state: 'outdated',
      reason: { code: 'signatures_undated' },
      action: 'check_system_updater',
      engine: { name: 'clamav', source: 'configured', where: `unix:${clamd.socketPath}`, signatures: null },
    });
    expect(view.status?.engine.version).toMatch(/^\d+\.\d+/);
    // Not Verdict's database: the update is answered, and freshclam never runs.
    expect(value(await core.protection.updateSignatures())).toMatchObject({ code: 'system_database' });
  });

  test('dated signatures a day old: protected; ten days old after a refresh: outdated, and listeners hear it', async () => {
    const fresh = datedVersionLine(26);
    const standIn = await startClamdStandIn(fixture.dataDir(), fresh.line);
    fixture.onCleanup(() => standIn.close());
    // No automatic update: this stand-in is not a clamd freshclam could feed (auto-update has a test of its own).
    const core = await fixture.open({ ...FAST, engine: { autoUpdate: false } }, { localService: { engine: 'clamd', clamdSocket: standIn.socketPath } });
    const view = value(await core.protection.status());
    // The stand-in scans nothing, so its self-test could not run (self-test.test.ts tests it for real).
    // Its scan limits (coverage) have a test of their own; here only that Verdict's own clamd reports what lies beyond them.
    const { selfTest: _selfTest, coverage, detection, ...status } = view.status ?? {};
    expect(coverage).toMatchObject({ reported: { limits: true, encrypted: true } });
    // The detection settings of Verdict's own clamd (issue 28 §2) have tests of their own.
    expect(detection).toMatchObject({ source: 'own' });
    expect(status).toEqual({
      state: 'protected',
      reason: { code: 'signatures_fresh', params: { signatureVersion: 27467, ageDays: 1 } },
      action: 'none',
      engine: {
        name: 'clamav',
        source: 'own',
        where: `unix:${standIn.socketPath}`,
        version: '1.4.6',
        signatures: { version: 27467, date: fresh.date.toISOString(), ageDays: 1 },
        // How files reach it: by descriptor over its socket where the fd-passing addon loads, else streamed.
        transport: loadFdPassing().ok ? 'fildes' : 'instream',
      },
      streamLimit: null,
    });
    expect(view.databaseDir).toBe(join(fixture.dataDir(), 'clamav-db'));

    const heard: ProtectionView[] = [];
    const stop = core.protection.onChange((next) => heard.push(next));
    standIn.setVersion(datedVersionLine(240, 27400).line);
    const after = value(await core.protection.refresh());
    stop();
    expect(after.status).toMatchObject({ state: 'outdated', reason: { code: 'signatures_old', params: { ageDays: 10, maxAgeDays: 3 } }, action: 'update_signatures' });
    expect(heard.at(-1)?.status?.state).toBe('outdated');
    // Looking again with nothing changed tells no one.
    const count = heard.length;
    core.protection.onChange((next) => heard.push(next));
    await core.protection.refresh();
    expect(heard).toHaveLength(count);
  });

  test('a remote service: no ClamAV state of Verdict\'s, the remote service named instead', async () => {
    const core = await fixture.open(FAST, { serviceOverride: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k'.repeat(32) } });
    const view = value(await core.protection.status());
    expect(view).toMatchObject({ status: null, remote: 'http://127.0.0.1:9', databaseDir: null });
    expect(value(await core.protection.updateSignatures())).toMatchObject({ code: 'remote_service' });
  });
});

describe('switching the default service in Settings', () => {
  test('to a remote service: the view names it and drops the ClamAV state; back to the built-in service: the engine again', async () => {
    const core = await fixture.open();
    await core.protection.status();
    const heard: ProtectionView[] = [];
    core.protection.onChange((view) => heard.push(view));
    expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: 'https://scan.example.invalid' } })).ok).toBe(true);
    await expect.poll(() => heard.at(-1)?.remote ?? null).toBe('https://scan.example.invalid');
    expect(heard.at(-1)?.status).toBeNull();
    expect((await core.settings.update({ backend: { kind: 'local' } })).ok).toBe(true);
    await expect.poll(() => heard.at(-1)?.status?.state ?? null).toBe('limited');
    expect(heard.at(-1)?.remote).toBeNull();
  });
});

describe('Update signatures now', () => {
  test('freshclam for real with no mirror reachable: running with progress, then "no connection" in the view', async () => {
    const core = await fixture.open({ ...FAST, engine: { freshclam: { mirror: '127.0.0.1:9', maxAttempts: 1 } } });
    await core.protection.status();
    const phases: string[] = [];
    core.protection.onChange((view) => phases.push(view.update.phase));
    const outcome = value(await core.protection.updateSignatures());
    expect(outcome.code).toBe('no_connection');
    expect(phases[0]).toBe('running');
    expect(phases.at(-1)).toBe('idle');
    const view = value(await core.protection.status());
    expect(view.update).toMatchObject({ phase: 'idle', last: { code: 'no_connection' } });
  });
});
