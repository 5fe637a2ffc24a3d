// `verdict recheck` as a user runs it (`node bin/verdict.mjs recheck`), on Verdict's own clamd:
// files scanned clean with database A; the folder then holds database B too (it knows one of
// them), so the next clamd loads other signatures. The recheck prints each file it judged,
// says which one is detected now, and exits 1 as `scan` does for a threat; run again, there is
// nothing left to recheck (exit 0). In German when the settings say so.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('verdict-cli-recheck-');
});
afterAll(async () => {
  await dir?.remove();
});

function verdict(dataDir: string, args: string[]): Promise<ChildRun> {
  return runNode([join(ROOT, 'bin/verdict.mjs'), ...args, '--data-dir', dataDir], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, LANG: 'en_US.UTF-8' },
    timeoutMs: 90_000,
  });
}

async function systemClamdAnswers(): Promise<boolean> {
  return (await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)))).includes(true);
}

describe('verdict recheck', () => {
  it.skipIf(findClamd() === null)('judges the recent files again with the new signatures: the one detected now is told, exit 1; then nothing is left', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const dataDir = join(dir.path, 'data');
    const dbDir = join(dataDir, 'clamav-db');
    await writeEicarDatabase(dbDir);
    const invoice = join(dir.path, 'invoice.pdf');
    const notes = join(dir.path, 'notes.txt');
    await writeFile(invoice, randomBytes(3000));
    await writeFile(notes, randomBytes(3000));

    const scan = await verdict(dataDir, ['scan', invoice, notes]);
    expect(scan.code, scan.stderr).toBe(0);
    // Under the same signatures nothing is detected (a verdict made before clamd named its signatures is judged once more).
    const before = await verdict(dataDir, ['recheck']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stderr).not.toContain('NOW DETECTED');

    // Database B: invoice.pdf by its MD5 (sigtool --md5), as a signature feed or an update would bring it.
    await writeFile(join(dbDir, 'database-b.hdb'), `${execFileSync('sigtool', ['--md5', invoice], { encoding: 'utf8' }).trim()}\n`);
    const run = await verdict(dataDir, ['recheck']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('Judging again 2 files first seen in the last 14 days and judged clean under older signatures…');
    expect(run.stderr).toContain(`NOW DETECTED ${invoice} (first seen today, judged clean before): invoice.pdf.UNOFFICIAL`);
    expect(run.stderr).toContain('Rechecked 2 files: 1 is now detected, 1 changed its verdict in all.');
    expect(run.stdout).toContain(`THREAT ${invoice}  (infected: invoice.pdf.UNOFFICIAL)`);
    expect(run.stdout).toContain(`CLEAN  ${notes}  (clean)`);

    const again = await verdict(dataDir, ['recheck']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Nothing to recheck');

    // Database C knows notes.txt: with --json, its changed verdict names the scan it replaces (the clean one of the recheck above).
    await writeFile(join(dbDir, 'database-c.hdb'), `${execFileSync('sigtool', ['--md5', notes], { encoding: 'utf8' }).trim()}\n`);
    const json = await verdict(dataDir, ['recheck', '--json']);
    expect(json.code, json.stderr).toBe(1);
    const lines = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { path: string; verdict: string; externalReferenceId: string; recheckOf: { id: string; externalReferenceId: string | null; completedAt: string | null } | null });
    expect(lines.map((line) => [line.path, line.verdict])).toEqual([[notes, 'unsafe']]);
    const [changed] = lines;
    // The earlier scan: a job's clean row, compacted since (its id and reference are the compact row's), with its date.
    expect(changed?.recheckOf).toEqual({ id: expect.stringMatching(/^clean:\d+$/), externalReferenceId: changed?.recheckOf?.id, completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    // German, as the settings say; the window can be turned off: then it says so.
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, language: 'de', recheckAfterUpdateDays: 0 }));
    const off = await verdict(dataDir, ['recheck']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toContain('Die Nachprüfung nach einem Signatur-Update ist ausgeschaltet');

    const bad = await verdict(dataDir, ['recheck', '--nope']);
    expect(bad.code).toBe(2);
  }, 240_000);
});
