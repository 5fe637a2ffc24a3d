// The engine order and the facts behind the protection state, with real clamds:
// a "system" clamd (test/support/clamd.ts) at a socket given as a usual place,
// whose config file limits streams to 25 MB, and a configured clamd that is gone.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MB } from '../../../shared/service-contract/limits.ts';
import { engineStatus } from '../../../electron/engine/engine-status.ts';
import { parseClamdConf, parseSize, readClamdConf } from '../../../electron/engine/conf/system-clamd-conf.ts';
import { findClamd, checkDatabaseDir } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { OwnClamd } from '../../../electron/engine/own-clamd/own-clamd.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

let root: string;
let systemClamd: RunningClamd | null = null;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-engine-status-'));
  systemClamd = await startClamd({ streamMaxLength: '25M' });
});
afterAll(async () => {
  await systemClamd?.stop();
  await rm(root, { recursive: true, force: true });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('clamd.conf facts', () => {
  test('sizes as clamd reads them', () => {
    expect(parseSize('25M')).toBe(25 * MB);
    expect(parseSize('400m')).toBe(400 * MB);
    expect(parseSize('512K')).toBe(512 * 1024);
    expect(parseSize('1G')).toBe(1024 * MB);
    expect(parseSize('1048576')).toBe(1024 * 1024);
    expect(parseSize('lots')).toBeNull();
  });

  test('StreamMaxLength, LocalSocket and DatabaseDirectory; the default when unset; null when unreadable', async () => {
    const conf = join(root, 'a.conf');
    await writeFile(conf, '# comment\nLocalSocket /run/x.ctl\nstreammaxlength 30M\nStreamMaxLength 25M\nDatabaseDirectory /var/lib/clamav\n');
    expect(readClamdConf(conf)).toEqual({ localSocket: '/run/x.ctl', streamLimit: { bytes: 25 * MB, configPath: conf }, databaseDir: '/var/lib/clamav', selfCheckSeconds: 600 });
    await writeFile(conf, 'LocalSocket /run/x.ctl\n');
    expect(readClamdConf(conf)?.streamLimit.bytes).toBe(100 * MB);
    expect(readClamdConf(conf)?.databaseDir).toBeNull();
    await writeFile(conf, 'LocalSocket /run/x.ctl\nSelfCheck 3600\n');
    expect(readClamdConf(conf)?.selfCheckSeconds).toBe(3600);
    expect(readClamdConf(join(root, 'none.conf'))).toBeNull();
  });

  test.skipIf(!existsSync('/etc/clamav/clamd.conf'))("Debian's own clamd.conf is read (its StreamMaxLength is 25M as shipped)", () => {
    const facts = readClamdConf('/etc/clamav/clamd.conf');
    expect(facts?.streamLimit.bytes).toBeGreaterThan(0);
    expect(facts?.localSocket).toMatch(/^\//);
  });
});

describe.skipIf(findClamd() === null)('the order: configured, system, own, built-in', () => {
  test('a system clamd (run by another account, as Debian\'s runs as clamav) at a usual socket comes first, with its config\'s stream limit', async ({ skip }) => {
    const clamd = await startClamd({ streamMaxLength: '25M', user: 'clamav' });
    if (!clamd) return skip();
    try {
      const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd1'), socketCandidates: [join(root, 'nothing.sock'), clamd.socketPath], systemConfigPath: clamd.configPath });
      expect(result.started).toBeNull();
      expect(result.status).toMatchObject({
        state: 'outdated',
        reason: { code: 'signatures_undated' },
        action: 'check_system_updater',
        engine: { name: 'clamav', source: 'system', where: `unix:${clamd.socketPath}` },
        streamLimit: { bytes: 25 * MB, configPath: clamd.configPath },
      });
    } finally {
      await clamd.stop();
    }
  });

  test('a clamd the user\'s own account runs at a usual socket is not called the system\'s, whatever its path; the system config is not its', async () => {
    const clamd = systemClamd;
    if (!clamd) throw new Error('no clamd');
    const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd1b'), socketCandidates: [clamd.socketPath], systemConfigPath: clamd.configPath });
    expect(result.status).toMatchObject({ state: 'outdated', engine: { name: 'clamav', source: 'found', where: `unix:${clamd.socketPath}` }, streamLimit: null });
    expect(result.databaseDir).toBeNull();
  });

  test('a configured clamd that does not answer: not running (no fallback to the others)', async () => {
    const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd2'), clamdSocket: join(root, 'gone.sock'), socketCandidates: [systemClamd?.socketPath ?? ''] });
    expect(result.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_not_answering' }, engine: { source: 'configured', where: `unix:${join(root, 'gone.sock')}` } });
  });

  test('no system clamd: Verdict starts its own, and hands it to the caller', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd3'), clamavDb: db, socketCandidates: [join(root, 'nothing.sock')] });
    try {
      expect(result.status.engine).toMatchObject({ name: 'clamav', source: 'own', where: `unix:${join(root, 'd3', 'clamd.sock')}` });
      expect(result.databaseDir).toBe(db);
      expect(result.started?.state.status).toBe('running');
    } finally {
      await result.started?.close();
    }
  });

  test('another holder of the data directory whose clamd is still loading: not running yet, "starting"', async () => {
    const db = await writeEicarDatabase(join(root, 'db6'));
    const silent = join(root, 'silent-clamd');
    await writeFile(silent, '#!/bin/sh\nexec sleep 60\n');
    await chmod(silent, 0o755);
    const loading = new OwnClamd({ dataDir: join(root, 'd6'), databaseDir: db, clamdPath: silent });
    void loading.start();
    try {
      await until(() => loading.pid !== null);
      const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd6'), clamavDb: db, socketCandidates: [] });
      expect(result.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_starting' }, action: 'wait', engine: { where: `unix:${join(root, 'd6', 'clamd.sock')}` } });
    } finally {
      await loading.close();
    }
  });

  test('a clamd path that is no program: not running, with the problem named', async () => {
    const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd4'), socketCandidates: [], ownClamd: { clamdPath: join(root, 'no-clamd') } });
    expect(result.status).toMatchObject({ state: 'not_running', reason: { code: 'clamd_failed', params: { problem: 'clamd_not_executable' } }, action: 'start_clamav' });
  });

  // Depends on the machine: the system's database folder must be empty (as on the build machines).
  test.skipIf(checkDatabaseDir('/var/lib/clamav').ok)('clamd but no database anywhere: built-in (limited) in auto', async () => {
    const result = await engineStatus({ kind: 'auto', dataDir: join(root, 'd5'), socketCandidates: [] });
    expect(result.status).toMatchObject({ state: 'limited', reason: { code: 'database_not_found', params: { tried: expect.stringContaining(join(root, 'd5', 'clamav-db')) } }, action: 'get_database' });
    expect(result.started).toBeNull();
  });
});

test('clamd.conf parsing, fuzzed: never throws; sizes are whole and not negative', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      parseClamdConf(text);
      const size = parseSize(text);
      if (size !== null) expect(Number.isSafeInteger(size) && size >= 0).toBe(true);
    }),
    { numRuns: 2_000 },
  );
});
