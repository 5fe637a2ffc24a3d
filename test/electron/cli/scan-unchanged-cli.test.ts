// The unchanged-file skip as a user meets it (issue 26 §6): `node bin/verdict.mjs scan FOLDER`
// twice on one data folder. The second run lists every file once, with the same verdicts and
// the same exit code, and says how many it did not read again; --force reads them all. With
// Verdict's own clamd on a custom database (no official version: before §6 nothing was ever
// reused), a database file added to the folder makes every file be read again.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { RACY_WINDOW_MS } from '../../../electron/scans/pipeline/unchanged.ts';
import { writeCustomSignature, writeEicarDatabase } from '../../support/clamav-db.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { writeTree } from '../jobs/job-kit.ts';
import { tempDir } from '../scans/harness.ts';
import { countScansInserts, scansInserted } from '../scans/scans-inserted.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-unchanged-');
});
afterEach(async () => {
  await dir?.remove();
});

function scan(dataDir: string, args: string[]): Promise<ChildRun> {
  return runNode([join(ROOT, 'bin/verdict.mjs'), 'scan', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}` },
    timeoutMs: 90_000,
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);
/** Each listed file's line without what tells how its verdict came (`…, unchanged since …`, or a duplicate's `…, earlier verdict reused`). */
const verdicts = (run: ChildRun) => lines(run.stdout).map((line) => line.replace(/, (unchanged since an earlier scan: not read again|earlier verdict reused)\)$/, ')')).sort();
const unchangedCount = (run: ChildRun) => Number(/^(\d+) of them unchanged since an earlier scan/m.exec(run.stderr)?.[1] ?? 0);
const standStill = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 200));

async function systemClamdAnswers(): Promise<boolean> {
  return (await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)))).includes(true);
}

describe('scan FOLDER twice', () => {
  it('the built-in engine: the second run reads nothing, lists every file once with the same verdicts and exit code, and says so', async () => {
    const folder = join(dir.path, 'folder');
    const paths = await writeTree(folder, 60);
    await writeFile(join(folder, 'copy.txt'), readFileSync(paths[0] as string));
    await standStill();
    const dataDir = join(dir.path, 'data');
    const first = await scan(dataDir, ['--engine', 'builtin', folder]);
    expect(lines(first.stdout)).toHaveLength(61);
    expect(unchangedCount(first)).toBe(0);
    countScansInserts(dataDir);
    const second = await scan(dataDir, ['--engine', 'builtin', folder]);
    // The whole run counts: the unchanged files went straight into the job's compact store, never as `scans` rows.
    expect(scansInserted(dataDir)).toBe(0);
    expect(second.code, second.stderr).toBe(first.code);
    expect(lines(second.stdout)).toHaveLength(61);
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(lines(second.stdout).every((line) => line.endsWith(', unchanged since an earlier scan: not read again)'))).toBe(true);
    expect(unchangedCount(second)).toBe(61);
    expect(second.stderr).toMatch(/^61 of them unchanged since an earlier scan with the same signatures: not read again \(--force reads every file\)\.$/m);

    const forced = await scan(dataDir, ['--engine', 'builtin', '--force', folder]);
    expect(forced.code).toBe(first.code);
    expect(verdicts(forced)).toEqual(verdicts(first));
    expect(unchangedCount(forced)).toBe(0);
    expect(scansInserted(dataDir)).toBe(61);
  }, 60_000);

  it.skipIf(findClamd() === null)("Verdict's own clamd on custom databases: skipped while they are the same, read again once one is added", async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const db = join(dir.path, 'db');
    await writeEicarDatabase(db);
    const folder = join(dir.path, 'folder');
    await mkdir(folder);
    await writeTree(folder, 30);
    await standStill();
    const dataDir = join(dir.path, 'data');
    const run = () => scan(dataDir, ['--clamav-db', db, folder]);
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(unchangedCount(first)).toBe(0);
    countScansInserts(dataDir);
    const second = await run();
    expect(second.code).toBe(0);
    expect(scansInserted(dataDir)).toBe(0);
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(unchangedCount(second)).toBe(30);

    // A signature update: a database file added to the folder (not in `folder`, so the files themselves are unchanged).
    await writeCustomSignature(db, dir.path, 'added-later');
    const afterUpdate = await run();
    expect(afterUpdate.code).toBe(0);
    expect(unchangedCount(afterUpdate)).toBe(0);
    expect(scansInserted(dataDir)).toBe(30);
    expect(unchangedCount(await run())).toBe(30);
    expect(readdirSync(db).sort()).toEqual(['added-later.hdb', 'verdict-eicar.ndb']);
  }, 120_000);
});
