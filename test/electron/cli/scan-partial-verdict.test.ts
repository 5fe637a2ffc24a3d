// `verdict scan` as a user runs it (node bin/verdict.mjs scan --clamav-db DB …), on Verdict's own
// clamd: an encrypted zip (which clamd cannot open) prints its own status, PARTIAL, with the reason,
// reads `partial` in --json, is counted in a folder's summary, and makes the exit code 2 (part of a
// file was not inspected); EICAR beside it is still a THREAT (exit 1).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let db: string;
let files: string;

function verdict(dataDir: string, args: string[]): Promise<ChildRun> {
  return runNode([join(ROOT, 'bin/verdict.mjs'), 'scan', '--clamav-db', db, '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}` },
    timeoutMs: 90_000,
  });
}

beforeAll(async () => {
  dir = await tempDir('verdict-cli-partial-');
  db = await writeEicarDatabase(join(dir.path, 'db'));
  files = join(dir.path, 'files');
  await mkdir(files);
  await writeFile(join(files, 'notes.txt'), 'secret notes\n');
  await writeFile(join(dir.path, 'eicar.com'), EICAR_TEST_STRING, 'latin1');
  execFileSync('zip', ['-q', '-j', '-e', '-P', 'pw', join(files, 'notes.zip'), join(files, 'notes.txt')]);
});
afterAll(async () => {
  await dir?.remove();
});

describe.skipIf(findClamd() === null)('scan CLI: scanned in part', () => {
  it('prints PARTIAL with the reason, --json says partial, exit 2; with EICAR beside it, exit 1', async () => {
    const zip = join(files, 'notes.zip');
    const run = await verdict(join(dir.path, 'data-plain'), [zip]);
    expect(run.stdout).toContain(`PARTIAL ${zip}  (scanned in part: an encrypted archive: its contents could not be inspected)`);
    expect(run.stdout).not.toContain('CLEAN');
    expect(run.code, run.stderr).toBe(2);

    const json = await verdict(join(dir.path, 'data-json'), ['--json', zip, join(dir.path, 'eicar.com')]);
    const lines = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { path: string; verdict: string; safe: boolean; findings: { name: string }[] });
    expect(lines.find((line) => line.path === zip)).toMatchObject({ verdict: 'partial', safe: false, findings: [{ name: 'Heuristics.Encrypted.Zip' }] });
    expect(lines.find((line) => line.path.endsWith('eicar.com'))).toMatchObject({ verdict: 'unsafe' });
    expect(json.code, json.stderr).toBe(1);
  });

  it("a folder's summary counts the files scanned in part, by reason", async () => {
    const run = await verdict(join(dir.path, 'data-job'), [files]);
    expect(run.stdout).toContain(`PARTIAL ${join(files, 'notes.zip')}`);
    expect(run.stdout).toContain(`CLEAN  ${join(files, 'notes.txt')}`);
    expect(run.stderr).toContain('1 file was scanned in part: 1 encrypted archive.');
    expect(run.stderr).toMatch(/scan done: 2 scanned \(1 scanned in part\), 0 threats, 0 could not scan/);
    expect(run.code, run.stderr).toBe(2);
  });
});
