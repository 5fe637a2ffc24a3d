// Bad setups of Verdict's own clamd each end in one clear state with clamd's or the
// system's words: never a crash, never a loop of restarts.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { OwnClamd, type OwnClamdOptions, type OwnClamdState } from '../../../electron/engine/own-clamd/own-clamd.ts';
import { chooseSocketPlace, maxSocketPathBytes } from '../../../electron/engine/own-clamd/socket-place.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

const clamdPath = findClamd();
if (clamdPath === null && process.env.CI) throw new Error('clamd is not installed, and CI must run the own-clamd tests');

let root: string;
let dataDir: string;
const started: OwnClamd[] = [];

async function startWith(options: Partial<OwnClamdOptions>): Promise<{ state: OwnClamdState; launches: number; clamd: OwnClamd }> {
  let launches = 0;
  const clamd = new OwnClamd({
    dataDir,
    backoffMs: [20, 40],
    maxQuickFailures: 3,
    startTimeoutMs: 30_000,
    ...options,
    onState: (state) => {
      // Each spawn of clamd is a 'starting' with its socket and its attempt number.
      if (state.status === 'starting' && state.socketPath !== null) launches = Math.max(launches, state.attempt);
    },
  });
  started.push(clamd);
  const state = await clamd.start();
  return { state, launches, clamd };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-own-clamd-bad-'));
  dataDir = join(root, 'data');
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((clamd) => clamd.close()));
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(clamdPath === null)('bad database folders are reported before clamd is started', () => {
  test('an empty folder', async () => {
    await mkdir(join(root, 'empty'));
    const { state, launches } = await startWith({ databaseDir: join(root, 'empty') });
    expect(state).toMatchObject({ status: 'not_running', problem: 'database_empty' });
    expect(launches).toBe(0);
  });

  test('a folder that does not exist, and a path that is a file', async () => {
    expect((await startWith({ databaseDir: join(root, 'nowhere') })).state).toMatchObject({ status: 'not_running', problem: 'database_missing' });
    await writeFile(join(root, 'a-file'), 'x');
    const notADir = await startWith({ databaseDir: join(root, 'a-file') });
    expect(notADir.state).toMatchObject({ status: 'not_running', problem: 'database_unreadable', detail: expect.stringContaining('ENOTDIR') });
  });

  test('a corrupt database: clamd refuses it a few times, then it stays down with clamd\'s own words', async () => {
    const db = join(root, 'corrupt');
    await mkdir(db);
    await writeFile(join(db, 'broken.ndb'), 'not:a:signature:zz\n');
    const { state, launches, clamd } = await startWith({ databaseDir: db });
    expect(state).toMatchObject({ status: 'not_running', problem: 'clamd_failed' });
    expect(state.status === 'not_running' && state.detail).toMatch(/Malformed/i);
    expect(launches).toBe(3);
    // No restart loop: it stays down and holds nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clamd.state.status).toBe('not_running');
    expect(clamd.pid).toBeNull();
    expect(existsSync(join(dataDir, 'clamd.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'clamd.pid'))).toBe(false);
  });
});

describe.skipIf(clamdPath === null)('bad clamd paths', () => {
  test('a clamd that is not executable is reported without trying it', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const fake = join(root, 'clamd');
    await writeFile(fake, '#!/bin/sh\n');
    await chmod(fake, 0o644);
    const { state, launches } = await startWith({ databaseDir: db, clamdPath: fake });
    expect(state).toEqual({ status: 'not_running', problem: 'clamd_not_executable', detail: fake });
    expect(launches).toBe(0);
  });

  test('a program that is not clamd (it exits at once) ends as clamd_failed after the quick failures', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const fake = join(root, 'clamd');
    await writeFile(fake, '#!/bin/sh\necho "ERROR: this is no clamd" >&2\nexit 1\n');
    await chmod(fake, 0o755);
    const { state, launches } = await startWith({ databaseDir: db, clamdPath: fake });
    expect(state).toEqual({ status: 'not_running', problem: 'clamd_failed', detail: 'ERROR: this is no clamd' });
    expect(launches).toBe(3);
  });
});

describe.skipIf(clamdPath === null)('a clamd that takes too long to load', () => {
  test('is stopped and reported once, not restarted', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    // A clamd that never opens its socket (as one loading a huge database would, for a while).
    const silent = join(root, 'clamd');
    await writeFile(silent, '#!/bin/sh\nexec sleep 60\n');
    await chmod(silent, 0o755);
    const { state, launches, clamd } = await startWith({ databaseDir: db, clamdPath: silent, startTimeoutMs: 300 });
    expect(state).toMatchObject({ status: 'not_running', problem: 'start_timeout' });
    expect(launches).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(clamd.state.status).toBe('not_running');
    expect(existsSync(join(dataDir, 'clamd.lock'))).toBe(false);
  });
});

describe.skipIf(clamdPath === null)('where the socket goes', () => {
  test('a data directory whose socket path would be too long gets a short private one under the temp dir, and works', async () => {
    dataDir = join(root, 'd'.repeat(60), 'e'.repeat(60));
    expect(Buffer.byteLength(join(dataDir, 'clamd.sock'))).toBeGreaterThan(maxSocketPathBytes());
    const db = await writeEicarDatabase(join(root, 'db'));
    const { state } = await startWith({ databaseDir: db });
    if (state.status !== 'running') throw new Error(JSON.stringify(state));
    expect(state.socketPath.startsWith(join(tmpdir(), 'verdict-clamd-'))).toBe(true);
    const engine = new ClamdEngine({ endpoint: { socketPath: state.socketPath } });
    expect((await engine.scanBytes(Buffer.from(EICAR_TEST_STRING, 'latin1'))).safe).toBe(false);
  });

  test('too long everywhere: a clear problem', async () => {
    const place = await chooseSocketPlace(join(root, 'x'.repeat(120)), { tempDir: join(root, 'y'.repeat(120)) });
    expect(place).toMatchObject({ ok: false, problem: 'socket_path_too_long' });
  });

  // sysfs refuses Unix sockets (EPERM), as FAT and some network filesystems do.
  test.skipIf(!existsSync('/sys/kernel'))('a filesystem without Unix sockets: the temp dir, else a clear problem', async () => {
    expect(await chooseSocketPlace('/sys', { tempDir: root })).toMatchObject({ ok: true, fallback: 'sockets_unsupported' });
    const nowhere = await chooseSocketPlace('/sys', { tempDir: '/sys' });
    expect(nowhere).toMatchObject({ ok: false, problem: 'sockets_unsupported' });
    expect(!nowhere.ok && nowhere.detail).toContain('EPERM');
  });
});
