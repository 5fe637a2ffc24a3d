// `scan --clamav-db DIR` as a user runs it (a real `node electron/cli/scan.ts`): the
// built-in local service starts Verdict's own clamd (the system's clamd binary) on the
// test's database, says so in the engine line on stderr, and ClamAV judges the file; no
// clamd is left after the run. Also the engine line of the built-in engine and the
// arguments it refuses. The run's wall time is printed (the report's CLI figure).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { loadFdPassing } from '../../../electron/engine/clamd/fd-passing.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('verdict-cli-clamav-db-');
});
afterAll(async () => {
  await dir?.remove();
});

function scan(dataDir: string, args: string[]): Promise<ChildRun> {
  return runNode([join(ROOT, 'electron/cli/scan.ts'), '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}` },
    timeoutMs: 90_000,
  });
}

/** Pids of live processes whose command line holds `argument` (Linux /proc). */
function processesWith(argument: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(argument);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function systemClamdAnswers(): Promise<boolean> {
  return (await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)))).includes(true);
}

describe('scan CLI and the engine', () => {
  it.skipIf(findClamd() === null)("--clamav-db: Verdict's own clamd judges the file, the engine line says so, and no clamd is left", async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    // A database that knows EICAR, as every real one does: Verdict's self-test then passes.
    const db = await writeEicarDatabase(join(dir.path, 'db'));
    const custom = await writeCustomSignature(db, dir.path, 'cli-own');
    const dataDir = join(dir.path, 'data-own');
    const started = performance.now();
    const run = await scan(dataDir, ['--clamav-db', db, custom.file]);
    const wallMs = Math.round(performance.now() - started);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(`THREAT ${custom.file}  (infected: ${custom.signature})`);
    // While it loads, the line says so; once it answers, the line names it.
    const engineLines = run.stderr.split('\n').filter((line) => line.startsWith('Engine:'));
    const engineLine = engineLines.at(-1);
    expect(engineLines.slice(0, -1).every((line) => line.startsWith('Engine: Starting ClamAV…'))).toBe(true);
    expect(engineLine).toBe(`Engine: ClamAV ${/ClamAV (\S+)/.exec(engineLine ?? '')?.[1]} · custom signatures only at unix:${join(dataDir, 'clamd.sock')} (outdated), Verdict's own clamd, signatures from ${db}; ${loadFdPassing().ok ? 'files go to clamd by descriptor (FILDES)' : 'files are streamed to clamd (INSTREAM)'}`);
    expect(existsSync(join(dataDir, 'clamd.pid'))).toBe(false);
    expect(processesWith(`--config-file=${join(dataDir, 'clamd.conf')}`)).toEqual([]);
    console.info(`scan --clamav-db, one file: ${wallMs} ms wall time`);
  });

  it.skipIf(findClamd() === null)('a clamd whose database lacks EICAR: the self-test fails, scans go on, and each clean verdict says so (plain and --json)', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    // Another signature only: clamd answers and detects that one, but not the EICAR test file.
    const db = join(dir.path, 'db-no-eicar');
    await mkdir(db, { recursive: true });
    const custom = await writeCustomSignature(db, dir.path, 'cli-no-eicar');
    const file = join(dir.path, 'letter.txt');
    await writeFile(file, 'dear reader\n');
    const dataDir = join(dir.path, 'data-no-eicar');
    const plain = await scan(dataDir, ['--clamav-db', db, file, custom.file]);
    expect(plain.code, plain.stderr).toBe(1);
    expect(plain.stdout).toContain(`CLEAN  ${file}  (clean; given while the self-test failed: this engine did not detect the EICAR test file)`);
    // A threat is a threat whatever the self-test says: its line is as always.
    expect(plain.stdout).toContain(`THREAT ${custom.file}  (infected: ${custom.signature})`);

    const json = await scan(dataDir, ['--json', '--clamav-db', db, file]);
    expect(json.code, json.stderr).toBe(0);
    const line = JSON.parse(json.stdout.trim().split('\n').at(-1) ?? '{}') as { verdict: string; selfTest: string | null; engine: { name: string; selfTest?: string } };
    expect(line).toMatchObject({ verdict: 'safe', selfTest: 'failed', engine: { name: 'clamav', selfTest: 'failed' } });
  });

  it('the built-in engine: its engine line says why, and --clamav-db cannot go with it', async () => {
    const file = join(dir.path, 'plain.txt');
    await writeFile(file, 'nothing to see\n');
    const run = await scan(join(dir.path, 'data-builtin'), ['--engine', 'builtin', file]);
    // No threat, but basic checks only: exit 3, never "all clean".
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('Engine: basic checks (EICAR test file only): Basic checks were chosen instead of ClamAV');

    const refused = await scan(join(dir.path, 'data-refused'), ['--engine', 'builtin', '--clamav-db', join(dir.path, 'db'), file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--clamav-db is for ClamAV');
  });
});
