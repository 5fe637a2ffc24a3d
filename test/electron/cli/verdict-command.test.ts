// `verdict <command>`: which launches name a command (the packaged app routes them before
// its single-instance lock), and bin/verdict.mjs as a user runs it (`npx verdict …`, the npm
// scripts), with today's output and exit codes, and one sentence for a Node that is too old.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommandFrom } from '../../../electron/cli/commands.ts';
import { tempDir, writeEicar } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');

describe('cliCommandFrom', () => {
  it('finds the command after the executable (packaged) or the app folder (electron .)', () => {
    expect(cliCommandFrom(['/opt/Verdict/verdict', 'scan', '--json', 'a.exe'], 1)).toEqual({ name: 'scan', args: ['--json', 'a.exe'] });
    expect(cliCommandFrom(['/usr/lib/electron', '.', 'watch', '~/Downloads'], 2)).toEqual({ name: 'watch', args: ['~/Downloads'] });
    expect(cliCommandFrom(['verdict', 'service', '--port', '0'], 1)).toEqual({ name: 'service', args: ['--port', '0'] });
  });

  it('passes over switches before the command (Chromium flags, --hidden)', () => {
    expect(cliCommandFrom(['verdict', '--enable-logging', '--hidden', 'scan', 'x'], 1)).toEqual({ name: 'scan', args: ['x'] });
  });

  it('knows status, so that it is not taken for a file', () => {
    expect(cliCommandFrom(['verdict', 'status'], 1)).toEqual({ name: 'status', args: [] });
  });

  it('is null for a windowed launch: nothing, files from "Open with", or a command word later on', () => {
    expect(cliCommandFrom(['verdict'], 1)).toBeNull();
    expect(cliCommandFrom(['verdict', '--hidden'], 1)).toBeNull();
    expect(cliCommandFrom(['verdict', '/home/u/Downloads/scan'], 1)).toBeNull();
    expect(cliCommandFrom(['verdict', 'file:///home/u/a.exe', 'scan'], 1)).toBeNull();
    expect(cliCommandFrom(['verdict', 'toString'], 1)).toBeNull();
  });
});

function run(node: string, args: string[]): Promise<ChildRun> {
  return runNode([BIN, ...args], { node, cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-bin-test-${process.pid}` } });
}

describe('bin/verdict.mjs', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('verdict-bin-');
  });
  afterAll(async () => dir?.remove());

  it('scan: one JSON line per file and the exit codes of the scan CLI (3 basic checks only, 1 threat)', async () => {
    const clean = join(dir.path, 'clean.txt');
    await writeFile(clean, 'hello\n');
    const eicar = await writeEicar(join(dir.path, 'eicar.com'));
    const safe = await run(process.execPath, ['scan', '--json', '--engine', 'builtin', '--data-dir', join(dir.path, 'data-1'), clean]);
    // The built-in engine found nothing: no threat, but never "all clean" (exit 3).
    expect(safe.code).toBe(3);
    expect(JSON.parse(safe.stdout)).toMatchObject({ path: clean, status: 'completed', safe: true, verdict: 'basic-only' });
    const threat = await run(process.execPath, ['scan', '--json', '--engine', 'builtin', '--data-dir', join(dir.path, 'data-2'), eicar]);
    expect(threat.code).toBe(1);
    expect(JSON.parse(threat.stdout)).toMatchObject({ path: eicar, safe: false });
  });

  it('passes --help to the command, and prints its own usage for no command', async () => {
    const help = await run(process.execPath, ['watch', '--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toContain('Usage: npm run -s watch');
    const none = await run(process.execPath, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: verdict <command>');
  });

  it('answers status as npm run status does: the built-in engine is limited protection (exit 1), JSON on stdout', async () => {
    const dataDir = await tempDir();
    try {
      const status = await run(process.execPath, ['status', '--json', '--engine', 'builtin', '--data-dir', dataDir.path]);
      expect(status.code).toBe(1);
      expect(JSON.parse(status.stdout)).toMatchObject({ state: 'limited', engine: { name: 'builtin', source: 'builtin' } });
    } finally {
      await dataDir.remove();
    }
  });

  // The machines' own Node is 20 (/usr/bin/node); CI installs 24 beside it.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => {
    const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    return version !== undefined && version !== '' && Number(version.split('.')[0]) < 24;
  });
  it.skipIf(oldNode === undefined)('tells a Node older than 24 what to do, in one sentence, before loading any TypeScript', async () => {
    const result = await run(oldNode!, ['scan', 'x']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Verdict needs Node\.js 24 or newer, but this is Node\.js \d+\.\d+\.\d+: install Node\.js 24 .* and run the command again\.\n$/);
  });
});
