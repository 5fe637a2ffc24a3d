// `npm run -s status` for real: a child `node electron/cli/status.ts` against
// Verdict's own clamd (started from a database the test writes), the built-in
// engine, bad arguments, and a clamd that reports dated official signatures
// (a stand-in answering with a recorded VERSION line: no official database offline).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { loadFdPassing } from '../../../electron/engine/clamd/fd-passing.ts';

const STATUS = join(import.meta.dirname, '..', '..', '..', 'electron', 'cli', 'status.ts');
const clamdPath = findClamd();

let root: string;
let dataDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-status-'));
  dataDir = join(root, 'data');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function status(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STATUS, '--data-dir', dataDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - startedAt }));
  });
}

/** clamds whose command line names this test's data directory (none may outlive a run). */
async function clamdsOf(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (cmdline.includes(`${dir}/clamd.conf`) && !/^State:\s+Z/m.test(state)) pids.push(Number(entry));
  }
  return pids;
}

describe.skipIf(clamdPath === null)('with Verdict\'s own clamd', () => {
  test('--json: one object in the issue\'s shape; custom signatures only are undated, so outdated (exit 1); no clamd left', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const run = await status(['--json', '--clamav-db', db]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const json = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['state', 'engine', 'reason', 'selfTest']);
    // This run's self-test: the clamd detected EICAR with the test database.
    expect(json.selfTest).toMatchObject({ result: 'passed', detail: 'Verdict-Test-Eicar.UNOFFICIAL', engine: { name: 'clamav', source: 'own' }, at: expect.any(String) });
    expect(json).toMatchObject({
      state: 'outdated',
      engine: { name: 'clamav', source: 'own', where: `unix:${join(dataDir, 'clamd.sock')}`, version: expect.stringMatching(/^\d+\.\d+/), signatures: null },
      reason: expect.stringContaining('no dated official signatures'),
    });
    expect(Object.keys(json.engine as object)).toEqual(['name', 'source', 'where', 'version', 'signatures', 'transport']);
    // How files reach Verdict's own clamd: by descriptor over its socket (streamed without the fd-passing addon).
    expect((json.engine as { transport: string }).transport).toBe(loadFdPassing().ok ? 'descriptor' : 'stream');
    expect(await clamdsOf(dataDir)).toEqual([]);
    console.info(`status CLI with --clamav-db (starts and stops its own clamd): ${Math.round(run.ms)} ms wall`);
  });

  test('text: the state, the engine, its database folder and what to do', async () => {
    const db = await writeEicarDatabase(join(root, 'db'));
    const run = await status(['--clamav-db', db]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Protection: outdated\n');
    expect(run.stdout).toMatch(/^Engine: ClamAV \d+\.\d+\.\d+, Verdict's own clamd at unix:/m);
    expect(run.stdout).toContain(`Database folder: ${db}\n`);
    expect(run.stdout).toContain('What to do: Update the signatures now');
  });

  test('a database folder clamd refuses: not running, with clamd\'s words (exit 1)', async () => {
    const db = join(root, 'corrupt');
    await mkdir(db);
    await writeFile(join(db, 'broken.ndb'), 'not:a:signature:zz\n');
    // The supervisor's default backoff (1 s, 5 s) applies: three quick failures, then it gives up.
    const run = await status(['--json', '--clamav-db', db]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ state: 'not_running', engine: { name: 'clamav', source: 'own', version: null }, reason: expect.stringMatching(/clamd_failed.*Malformed/) });
    expect(await clamdsOf(dataDir)).toEqual([]);
  }, 60_000);

  test('an empty database folder: not running, said at once', async () => {
    await mkdir(join(root, 'empty'));
    const run = await status(['--json', '--clamav-db', join(root, 'empty')]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ state: 'not_running', reason: expect.stringContaining('database_empty') });
  });
});

describe('a clamd with dated official signatures (recorded VERSION answer)', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = null;
  });

  /** Answers PING and VERSION like clamd, at the socket a running own clamd of `dataDir` would have. */
  async function standIn(versionLine: string): Promise<void> {
    await mkdir(dataDir, { recursive: true });
    const socketPath = join(dataDir, 'clamd.sock');
    await writeFile(join(dataDir, 'clamd.conf'), `LocalSocket ${socketPath}\n`);
    server = createServer((socket) => {
      socket.on('data', (data) => {
        const command = data.toString();
        socket.end(command.includes('PING') ? 'PONG\0' : command.includes('VERSION') ? `${versionLine}\0` : 'UNKNOWN COMMAND\0');
      });
    });
    await new Promise<void>((resolve) => server?.listen(socketPath, resolve));
  }

  const ctime = (date: Date) => date.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, (_, day, d, month, year, time) => `${day} ${month} ${String(Number(d)).padStart(2, ' ')} ${time} ${year}`);

  test('fresh signatures: protected, exit 0, with the signatures\' version, date and age', async () => {
    const built = new Date(Date.now() - 26 * 3_600_000);
    built.setUTCMilliseconds(0);
    await standIn(`ClamAV 1.4.6/27467/${ctime(built)}`);
    const run = await status(['--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      state: 'protected',
      engine: { name: 'clamav', source: 'own', where: `unix:${join(dataDir, 'clamd.sock')}`, version: '1.4.6', signatures: { version: 27467, date: built.toISOString(), ageDays: 1 }, transport: expect.stringMatching(/^(descriptor|stream)$/) },
      reason: expect.stringContaining('signatures (version 27467) are 1 day old'),
      // The stand-in answers no scan: a self-test that could not run proves nothing either way.
      selfTest: expect.objectContaining({ result: 'error' }),
    });
  });

  test('signatures 5 days old: outdated, exit 1', async () => {
    await standIn(`ClamAV 1.4.6/27460/${ctime(new Date(Date.now() - 5 * 86_400_000))}`);
    const run = await status([]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Protection: outdated\n');
    expect(run.stdout).toMatch(/^Signatures: version 27460 of \d{4}-\d{2}-\d{2} \(5 days old\)$/m);
  });
});

describe('the built-in engine and bad arguments', () => {
  test('--engine builtin: limited, exit 1', async () => {
    const run = await status(['--engine', 'builtin', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      state: 'limited',
      engine: { name: 'builtin', source: 'builtin', where: 'in-process', version: null, signatures: null, transport: null },
      reason: expect.stringContaining('only the EICAR test file'),
      selfTest: expect.objectContaining({ result: 'passed', engine: expect.objectContaining({ name: 'builtin' }) }),
    });
  });

  test.each([
    [['--engine', 'fast']],
    [['--bogus']],
    [['some-file']],
    [['--clamav-db', '']],
    [['--engine', 'builtin', '--clamav-db', '/x']],
  ])('%j: exit 2 with the reason on stderr', async (args) => {
    const run = await status(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.length).toBeGreaterThan(10);
  });

  test('--help: the usage on stdout, exit 0', async () => {
    const run = await status(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run -s status');
  });
});
