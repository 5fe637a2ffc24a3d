// Issue 26 §6 on a clamd the user names (`--clamd unix:PATH`), loading custom databases only (no
// signature version in VERSION): Verdict finds that clamd's process, its config and its database
// folder (electron/engine/conf/clamd-process.ts) and knows its signatures by a digest of that folder,
// so `verdict scan` of an unchanged tree, run again, reads no file: no `scans` row is written and
// every file is reported once, as unchanged. A database added after clamd loaded its folder makes
// the signatures unknown again: every file is read again. `status` says how the signatures are known.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { countScansInserts, scansInserted } from '../scans/scans-inserted.ts';
import { startClamdRelay } from '../engine/clamd-relay.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** RACY_WINDOW_MS (no entry for a file changed this close to its scan), and the 2 s clamd-process.ts takes a clamd's load as earlier than its start. */
const STAND_STILL_MS = 3_200;
const FILES = 12;

let dir: Awaited<ReturnType<typeof tempDir>>;
let clamd: RunningClamd | null;
let tree: string;

beforeAll(async () => {
  dir = await tempDir('verdict-named-unchanged-');
  clamd = await startClamd();
  tree = join(dir.path, 'tree');
  await mkdir(join(tree, 'sub'), { recursive: true });
  for (let i = 0; i < FILES; i++) await writeFile(join(tree, i % 2 ? 'sub' : '', `file-${i}.txt`), `file number ${i}\n`.repeat(i + 1));
  await new Promise((resolve) => setTimeout(resolve, STAND_STILL_MS));
  // Started again after its databases and the files stood still: it loaded the folder as it is now.
  await clamd?.restart();
}, 60_000);
afterAll(async () => {
  await clamd?.stop();
  await dir?.remove();
});

function scan(dataDir: string, socketPath: string): Promise<ChildRun> {
  return verdict(['scan', '--json', '--data-dir', dataDir, '--clamd', `unix:${socketPath}`, tree]);
}

function verdict(args: string[]): Promise<ChildRun> {
  return runNode([join(ROOT, 'bin/verdict.mjs'), ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' },
    timeoutMs: 90_000,
  });
}

/** The --json lines by path: a path reported twice fails. */
function reported(run: ChildRun): Map<string, { status: string; reuseKind: string | null; safe: boolean }> {
  const byPath = new Map<string, { status: string; reuseKind: string | null; safe: boolean }>();
  for (const line of run.stdout.split('\n').filter((text) => text.startsWith('{'))) {
    const record = JSON.parse(line) as { path: string; status: string; reuseKind: string | null; safe: boolean };
    expect(byPath.has(record.path), `reported twice: ${record.path}`).toBe(false);
    byPath.set(record.path, record);
  }
  return byPath;
}

describe.skipIf(process.platform !== 'linux')('an unchanged tree scanned again on a named clamd with custom databases', () => {
  it('status says how the signatures are known: by the database folder, or by VERSION alone for a clamd whose folder Verdict cannot find', async ({ skip }) => {
    if (!clamd) return skip();
    const dataDir = join(dir.path, 'data-status');
    const named = await verdict(['status', '--data-dir', dataDir, '--clamd', `unix:${clamd.socketPath}`]);
    expect(named.stdout).toContain(`Database folder: ${clamd.dbDir}\n`);
    expect(named.stdout).toContain('Signatures known by: the database files clamd loaded, and its VERSION');
    const german = join(dir.path, 'data-de');
    await mkdir(german);
    await writeFile(join(german, 'settings.json'), JSON.stringify({ version: 1, language: 'de' }));
    const deutsch = await verdict(['status', '--data-dir', german, '--clamd', `unix:${clamd.socketPath}`]);
    expect(deutsch.stdout).toContain('Signaturen erkannt an: den Datenbankdateien, die clamd geladen hat, und seiner VERSION');
    // Behind a relay (as behind a container's socket) no clamd process serves that path: VERSION alone, said so.
    const relay = await startClamdRelay(clamd.socketPath, dir.path, 'forward');
    try {
      const hidden = await verdict(['status', '--data-dir', dataDir, '--clamd', `unix:${relay.path}`]);
      expect(hidden.stdout).not.toContain('Database folder:');
      expect(hidden.stdout).toContain("Signatures known by: clamd's VERSION alone: Verdict cannot read this clamd's database folder");
      expect(hidden.stdout).toContain('with no signature version every file is read again at each scan');
    } finally {
      await relay.close();
    }
  });

  it('reads no file and writes no scans row; every file reported once; a database added since clamd loaded: every file read again', async ({ skip }) => {
    if (!clamd) return skip();
    const dataDir = join(dir.path, 'data');
    const first = reported(await scan(dataDir, clamd.socketPath));
    expect(first.size).toBe(FILES);
    expect([...first.values()].every((record) => record.status === 'completed' && record.safe && record.reuseKind === null)).toBe(true);

    countScansInserts(dataDir);
    const againRun = await scan(dataDir, clamd.socketPath);
    expect(againRun.code, againRun.stderr).toBe(0);
    const again = reported(againRun);
    expect([...again.keys()].sort()).toEqual([...first.keys()].sort());
    expect([...again.values()].map((record) => record.reuseKind)).toEqual(Array(FILES).fill('unchanged'));
    expect(scansInserted(dataDir)).toBe(0);

    // A custom database changed after clamd loaded its folder: what clamd holds is not known, so nothing is skipped.
    await writeFile(join(clamd.dbDir, 'extra.ndb'), 'Verdict-Test-Extra:0:*:0123456789abcdef0123456789abcdef\n');
    const afterUpdate = reported(await scan(dataDir, clamd.socketPath));
    expect(afterUpdate.size).toBe(FILES);
    expect([...afterUpdate.values()].every((record) => record.reuseKind === null && record.safe)).toBe(true);
    expect(scansInserted(dataDir)).toBe(FILES);
  });

});
