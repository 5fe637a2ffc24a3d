// `verdict engine-settings` as the user runs it (bin/verdict.mjs, real processes on one data dir):
// the desktop defaults with what each trades; PUA on except Tool and MaxFileSize 1 MB saved (--json);
// the next `verdict scan` on Verdict's own clamd (a `.ndu` PUA database) finds the Spy PUA, not the
// Tool one, and reads a 3 MB file PARTIAL. Bad values exit 2 with the reason (German where the
// system says so); a data directory in use by a running Verdict exits 1 and changes nothing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../../../electron/core/data-dir-lock.ts';
import { runEngineSettings } from '../../../electron/cli/engine-settings.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { tempDir } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');
const TOOL = { marker: 'VERDICT-PUA-TOOL-MARKER', name: 'PUA.Win.Tool.VerdictTest-1' };
const SPY = { marker: 'VERDICT-PUA-SPY-MARKER', name: 'PUA.Unix.Spy.VerdictTest-2' };

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-engine-settings-');
});
afterAll(async () => dir?.remove());

function verdict(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-engine-settings-test-${process.pid}`, ...env }, timeoutMs: 60_000 });
}

/** The command's own entry with an io that keeps what it prints. */
async function inProcess(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEngineSettings(args, { stdout: (line) => out.push(line), stderr: (line) => err.push(line), env: { ...process.env, ...env } });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

describe('verdict engine-settings', () => {
  it('shows the defaults, saves PUA except Tool and a 1 MB file limit, and the next scan works under them', async (context) => {
    const data = join(dir.path, 'data');
    const shown = await verdict(['engine-settings', '--data-dir', data]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Potentially unwanted applications (PUA) (DetectPUA): off');
    expect(shown.stdout).toContain('Largest file to scan (MaxFileSize): 120 MB');
    expect(shown.stdout).toContain('Off is faster, but threats packed in ZIP, RAR, 7z and the like are missed');

    const saved = await verdict(['engine-settings', '--data-dir', data, '--pua-except', 'Tool', '--max-file-size', '1', '--max-scan-size', '10', '--json']);
    expect(saved.code, saved.stderr).toBe(0);
    const answer = JSON.parse(saved.stdout) as { settings: unknown; changed: boolean };
    const expected = { pua: { enabled: true, mode: 'except', categories: ['Tool'] }, maxFileSizeMb: 1, maxScanSizeMb: 10, maxRecursion: 17, maxFiles: 10_000, scanArchives: true, heuristicAlerts: true };
    expect(answer).toMatchObject({ settings: expected, changed: true });
    expect(JSON.parse(readFileSync(join(data, 'settings.json'), 'utf8'))).toMatchObject({ detection: expected });

    if (findClamd() === null || (await systemClamdAnswers())) return context.skip();
    const db = await writeEicarDatabase(join(dir.path, 'db'));
    const hex = (text: string) => Buffer.from(text).toString('hex');
    await writeFile(join(db, 'verdict-pua.ndu'), `${TOOL.name}:0:*:${hex(TOOL.marker)}\n${SPY.name}:0:*:${hex(SPY.marker)}\n`);
    const tool = join(dir.path, 'tool.txt');
    const spy = join(dir.path, 'spy.txt');
    const big = join(dir.path, 'big.bin');
    await writeFile(tool, `a tool: ${TOOL.marker}\n`);
    await writeFile(spy, `a spy: ${SPY.marker}\n`);
    await writeFile(big, randomBytes(3 * 1024 * 1024));
    const scan = await verdict(['scan', '--engine', 'auto', '--clamav-db', db, '--data-dir', data, tool, spy, big]);
    expect(scan.code, scan.stderr).toBe(1);
    expect(scan.stdout).toContain(`THREAT ${spy}  (infected: ${SPY.name}.UNOFFICIAL)`);
    expect(scan.stdout).toContain(`CLEAN  ${tool}  (clean)`);
    expect(scan.stdout).toContain(`PARTIAL ${big}  (scanned in part: over the scan limit (MaxFileSize)`);
  });

  it('bad values exit 2 with the reason (German where the system speaks it); a running Verdict on the data directory: exit 1, nothing saved', async () => {
    const data = join(dir.path, 'data-args');
    const cases: Array<[string[], string]> = [
      [['--max-file-size', '5000'], 'Largest file to scan: at most 2,000.'],
      [['--max-file-size', '0'], 'Largest file to scan: at least 1.'],
      [['--max-recursion', '2.5'], 'Archive nesting depth: a whole number.'],
      [['--max-file-size', '300', '--max-scan-size', '200'], 'The most data scanned per file must be at least the largest file to scan.'],
      [['--pua-only', 'Tool;rm'], 'A PUA category is one word of letters and digits'],
      [['--archives', 'maybe'], '--archives takes on or off'],
      [['--pua-only', 'Tool', '--pua-all'], 'Give one of --pua-except, --pua-only and --pua-all.'],
    ];
    // In this process (the same command, without a process start each): the reasons as the user reads them.
    for (const [args, reason] of cases) {
      const run = await inProcess(['--data-dir', data, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(reason);
    }
    const de = await inProcess(['--data-dir', data, '--max-files', '0'], { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    expect(de.code).toBe(2);
    expect(de.stderr).toContain('Geprüfte Dateien je Archiv: mindestens 1.');

    const lock = acquireDataDirLock(data);
    try {
      const busy = await inProcess(['--data-dir', data, '--pua', 'on']);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain('Settings › Malware engine');
    } finally {
      lock.release();
    }
    const after = await inProcess(['--data-dir', data, '--json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ settings: { pua: { enabled: false } }, changed: false });
  });
});
