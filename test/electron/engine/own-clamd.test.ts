// Verdict's own clamd, for real: the system's clamd binary started by OwnClamd from
// a database the test writes, scanned through, killed, reloaded and left behind.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { isAlive } from '../../../electron/engine/own-clamd/clamd-lock.ts';
import { OwnClamd, type OwnClamdOptions, type OwnClamdState } from '../../../electron/engine/own-clamd/own-clamd.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { EICAR_SIGNATURE, writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { processMemory, MiB } from '../../support/process-memory.ts';

const clamdPath = findClamd();
if (clamdPath === null && process.env.CI) throw new Error('clamd is not installed, and CI must run the own-clamd tests');
const CHILD = join(import.meta.dirname, 'fixtures', 'own-clamd-child.ts');

let root: string;
let dataDir: string;
let dbDir: string;
const running: OwnClamd[] = [];

function ownClamd(options: Partial<OwnClamdOptions> = {}): OwnClamd {
  const clamd = new OwnClamd({ dataDir, databaseDir: dbDir, backoffMs: [50, 100], startTimeoutMs: 60_000, ...options });
  running.push(clamd);
  return clamd;
}

function running_(state: OwnClamdState): Extract<OwnClamdState, { status: 'running' }> {
  if (state.status !== 'running') throw new Error(`clamd is not running: ${JSON.stringify(state)}`);
  return state;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-own-clamd-'));
  dataDir = join(root, 'data');
  dbDir = await writeEicarDatabase(join(root, 'db'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((clamd) => clamd.close()));
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(clamdPath === null)('Verdict starts, supervises and stops its own clamd', () => {
  test('it scans through its private socket, with the limits and config it wrote', async () => {
    const startedAt = performance.now();
    const clamd = ownClamd();
    const state = running_(await clamd.start());
    const engine = new ClamdEngine({ endpoint: { socketPath: state.socketPath } });
    const eicar = await engine.scanBytes(Buffer.from(EICAR_TEST_STRING, 'latin1'));
    const firstVerdictMs = performance.now() - startedAt;
    expect(eicar.findings).toEqual([{ name: EICAR_SIGNATURE }]);

    const custom = await writeCustomSignature(dbDir, root, 'custom-threat');
    expect(custom.signature).toBe('custom-threat.bin.UNOFFICIAL');
    expect((await engine.scan(custom.file)).safe).toBe(true); // not loaded yet

    expect(state.socketPath).toBe(join(dataDir, 'clamd.sock'));
    expect(statSync(state.socketPath).mode & 0o777).toBe(0o600);
    expect(state.versionLine).toMatch(/^ClamAV \d+\.\d+/);
    const config = await readFile(join(dataDir, 'clamd.conf'), 'utf8');
    expect(config).toContain(`DatabaseDirectory ${dbDir}\n`);
    expect(config).toContain('LocalSocketMode 600\n');
    expect(config).toMatch(/^StreamMaxLength 120M$/m);
    expect(config).not.toMatch(/^TCP/m);
    expect(Number((await readFile(join(dataDir, 'clamd.pid'), 'utf8')).trim())).toBe(clamd.pid);

    const memory = await processMemory(state.pid);
    console.info(`own clamd: first verdict ${Math.round(firstVerdictMs)} ms after start; RSS ${(memory.rss / MiB).toFixed(1)} MiB (test database)`);
  });

  test('clamd SIGKILLed is restarted and scans again; close() ends it and frees the data directory', async () => {
    const states: string[] = [];
    const clamd = ownClamd({ onState: (state) => states.push(state.status) });
    const first = running_(await clamd.start());
    process.kill(first.pid, 'SIGKILL');
    await until(() => clamd.state.status === 'starting', 'the restart');
    const second = running_(await clamd.whenSettled());
    expect(second.pid).not.toBe(first.pid);
    const engine = new ClamdEngine({ endpoint: { socketPath: second.socketPath } });
    expect((await engine.scanBytes(Buffer.from(EICAR_TEST_STRING, 'latin1'))).safe).toBe(false);
    expect(states).toEqual(['starting', 'starting', 'running', 'starting', 'starting', 'running']);

    await clamd.close();
    expect(isAlive(second.pid)).toBe(false);
    expect(existsSync(join(dataDir, 'clamd.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'clamd.lock'))).toBe(false);
    expect(clamd.state).toEqual({ status: 'stopped' });
  });

  test('close() while the files are being prepared: nothing started, the folder free again', async () => {
    const clamd = ownClamd();
    const starting = clamd.start();
    await clamd.close();
    expect(await starting).toEqual({ status: 'stopped' });
    expect(clamd.pid).toBeNull();
    expect(existsSync(join(dataDir, 'clamd.lock'))).toBe(false);
    expect((await ownClamd().start()).status).toBe('running');
  });

  test('close() right after the spawn (loading or answering): clamd ends, the lock is freed', async () => {
    const clamd = ownClamd();
    const starting = clamd.start();
    await until(() => clamd.pid !== null, 'the spawn');
    const pid = clamd.pid ?? -1;
    await clamd.close();
    expect(['running', 'stopped']).toContain((await starting).status);
    expect(isRunning(pid)).toBe(false);
    expect(existsSync(join(dataDir, 'clamd.lock'))).toBe(false);
  });

  test('one clamd per data directory: a second one is refused with the owner named', async () => {
    running_(await ownClamd().start());
    const second = await ownClamd().start();
    expect(second).toMatchObject({ status: 'not_running', problem: 'in_use' });
    expect(second.status === 'not_running' && second.detail).toContain(String(process.pid));
  });

  test('RELOAD picks up a signature added to the database folder', async () => {
    const clamd = ownClamd();
    const state = running_(await clamd.start());
    const engine = new ClamdEngine({ endpoint: { socketPath: state.socketPath } });
    const custom = await writeCustomSignature(dbDir, root, 'added-later');
    expect((await engine.scan(custom.file)).safe).toBe(true);
    await clamd.reload();
    // clamd reloads in the background and keeps answering with the old database meanwhile.
    await until(async () => !(await engine.scan(custom.file)).safe, 'the reloaded signature');
    expect((await engine.scan(custom.file)).findings).toEqual([{ name: custom.signature }]);
  });
});

describe.skipIf(clamdPath === null)('no clamd outlives the Verdict that started it', () => {
  async function startChild(watchdog: boolean): Promise<{ pid: number; childPid: number; kill(): Promise<void> }> {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, OWN_CLAMD_DATA_DIR: dataDir, OWN_CLAMD_DB_DIR: dbDir, OWN_CLAMD_WATCHDOG: watchdog ? 'yes' : 'no' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let out = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => {
        out += data.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
      });
      child.once('exit', () => reject(new Error(`the child exited early: ${out}`)));
    });
    const { status, pid } = JSON.parse(line) as { status: string; pid: number };
    expect(status).toBe('running');
    return {
      pid,
      childPid: child.pid ?? -1,
      async kill() {
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  test('after a SIGKILL of its owner, the watchdog ends clamd', async () => {
    const child = await startChild(true);
    await child.kill();
    await until(() => !isRunning(child.pid), 'clamd to end with its owner');
  });

  test('a clamd left by a SIGKILLed owner (no watchdog) is ended by the next start, which then runs its own', async () => {
    const child = await startChild(false);
    await child.kill();
    expect(isRunning(child.pid)).toBe(true); // the orphan
    const state = running_(await ownClamd().start());
    expect(isRunning(child.pid)).toBe(false);
    expect(state.pid).not.toBe(child.pid);
  });

  test('another live Verdict process holds the data directory: refused, its clamd left alone', async () => {
    const child = await startChild(true);
    try {
      const second = await ownClamd().start();
      expect(second).toMatchObject({ status: 'not_running', problem: 'in_use', detail: expect.stringContaining(String(child.childPid)) });
      expect(isRunning(child.pid)).toBe(true);
    } finally {
      await child.kill();
    }
  });

  test('a pid file naming some other process is not acted on', async () => {
    const stranger = spawn('sleep', ['30']);
    const clamd = ownClamd();
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'clamd.pid'), `${stranger.pid}\n`);
    running_(await clamd.start());
    expect(isAlive(stranger.pid ?? -1)).toBe(true);
    stranger.kill('SIGKILL');
  });
});

/** Alive and not a zombie (an orphan's new parent may reap it late). */
function isRunning(pid: number): boolean {
  try {
    return isAlive(pid) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
