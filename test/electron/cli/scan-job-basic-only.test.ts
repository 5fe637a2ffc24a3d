// `npm run -s scan -- --job quick --basic-only`, as a user runs it (a real `node
// electron/cli/scan.ts` process, a fake HOME and TMPDIR): ClamAV has scanned here before
// and no clamd answers now, so without the flag the job's files would wait for it (up to
// ten minutes); with it they get the built-in engine's verdicts, as a folder's files do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { tempDir, writeEicar } from '../scans/harness.ts';
import { writeTree } from '../jobs/job-kit.ts';
import { runNode } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-cli-job-basic-');
});
afterEach(async () => {
  await dir?.remove();
});

/** A system clamd, or a system database Verdict's own clamd would load, makes ClamAV available: not this case. */
async function clamavAvailable(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  let systemDatabase = false;
  try {
    systemDatabase = readdirSync('/var/lib/clamav').some((name) => /\.(cvd|cld|hdb|ndb|hsb|ldb)$/.test(name));
  } catch {
    // no system database folder
  }
  return answers.includes(true) || systemDatabase;
}

describe('scan --job with --basic-only', () => {
  it('gives the job its basic-checks verdicts while ClamAV, known here, is gone', async (context) => {
    if (await clamavAvailable()) return context.skip();
    const home = join(dir.path, 'home');
    const tmp = join(dir.path, 'tmp');
    await writeTree(join(home, 'Downloads'), 3);
    await writeEicar(join(home, 'Downloads', 'eicar.com'));
    const dataDir = join(dir.path, 'data');
    writeKnownClamav(join(dataDir, 'local-service'), { source: 'system', where: 'unix:/run/clamav/clamd.ctl', at: '2026-11-20T10:00:00.000Z' });

    const run = await runNode([join(ROOT, 'electron/cli/scan.ts'), '--data-dir', dataDir, '--engine', 'auto', '--json', '--job', 'quick', '--basic-only'], {
      cwd: ROOT,
      env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, HOME: home, TMPDIR: tmp, XDG_DOWNLOAD_DIR: '' },
      // Without the flag passed on, the files wait for ClamAV far longer than this: the child is killed.
      timeoutMs: 45_000,
    });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { path: string; verdict: string; detailed: string; engine: { name: string } | null });
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.engine?.name).toBe('builtin');
    const clean = lines.filter((line) => !line.path.endsWith('eicar.com'));
    expect(clean.map((line) => line.detailed)).toEqual(Array(3).fill('clean (basic checks only; ClamAV not available)'));
    // Never "safe": the built-in engine's clean answer reads basic-only; its EICAR stays a threat.
    expect(clean.map((line) => line.verdict)).toEqual(Array(3).fill('basic-only'));
    expect(lines.find((line) => line.path.endsWith('eicar.com'))?.verdict).toBe('unsafe');
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^Quick scan done: 4 scanned \(3 with basic checks only, not a full scan\), 1 threat, 0 could not scan, 0 skipped, /);
  });
});
