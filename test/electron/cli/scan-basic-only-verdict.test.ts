// Basic checks only is never "clean", as a user sees it: `verdict scan --engine builtin FOLDER`
// (bin/verdict.mjs, a real process) prints BASIC for a file the built-in engine found nothing in,
// THREAT for the EICAR file, counts the basic ones in the summary, and exits 1 with a threat,
// 3 without one (never 0, "all clean").
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeEicar } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');
const BASIC_DETAIL = '(basic checks only (EICAR test file only); not a full scan: ClamAV was not available)';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-basic-only-');
});
afterAll(async () => dir?.remove());

function verdict(args: string[]): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-basic-only-test-${process.pid}` }, timeoutMs: 50_000 });
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('verdict scan with the built-in engine', () => {
  it('a clean file and the EICAR file: a BASIC line, a THREAT line, exit 1', async () => {
    const folder = join(dir.path, 'mixed');
    await mkdir(folder);
    const notes = join(folder, 'notes.txt');
    await writeFile(notes, 'meeting notes\n');
    const eicar = await writeEicar(join(folder, 'eicar.com'));
    const run = await verdict(['scan', '--engine', 'builtin', '--data-dir', join(dir.path, 'data-mixed'), folder]);
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stdout).sort()).toEqual([`BASIC  ${notes}  ${BASIC_DETAIL}`, `THREAT ${eicar}  (infected: EICAR-Test-File)`].sort());
    expect(run.stdout).not.toContain('CLEAN');
    expect(run.stderr).toContain('1 file was checked with basic checks only (EICAR test file only): ClamAV was not available. Scan it again with ClamAV for a full scan.');
    expect(lines(run.stderr).at(-1)).toMatch(/^Custom scan done: 2 scanned \(1 with basic checks only, not a full scan\), 1 threat, 0 could not scan, 0 skipped, /);
  });

  it('clean files only: BASIC lines, the count in the summary, exit 3; --json says verdict basic-only, safe true', async () => {
    const folder = join(dir.path, 'clean');
    await mkdir(folder);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(folder, name), `text of ${name}\n`);
    const run = await verdict(['scan', '--engine', 'builtin', '--data-dir', join(dir.path, 'data-clean'), folder]);
    expect(run.code, run.stderr).toBe(3);
    expect(lines(run.stdout)).toHaveLength(3);
    expect(lines(run.stdout).every((line) => line.startsWith('BASIC  ') && line.endsWith(BASIC_DETAIL))).toBe(true);
    expect(lines(run.stderr).at(-1)).toMatch(/^Custom scan done: 3 scanned \(3 with basic checks only, not a full scan\), 0 threats, 0 could not scan, 0 skipped, /);

    const json = await verdict(['scan', '--json', '--engine', 'builtin', '--data-dir', join(dir.path, 'data-json'), join(folder, 'a.txt')]);
    expect(json.code, json.stderr).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'basic-only', safe: true, engine: { name: 'builtin' } });
  });

  it('says what exit code 3 means in the usage', async () => {
    const help = await verdict(['scan', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout + help.stderr).toContain('3 no threat found, but some files were checked with basic checks only');
  });
});
