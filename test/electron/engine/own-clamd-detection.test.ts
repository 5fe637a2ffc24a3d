// The detection settings (issue 28 §2), for real: Verdict's own clamd started with PUA off, on,
// on except a category and on for one category only, on a database whose PUA signatures are in
// a `.ndu` file (clamd loads `*.ndu`/`*.hdu`/`*.ldu` only with DetectPUA, and its categories are
// the `.Cat.` parts of a `PUA.` name); and with a small MaxFileSize, under which a larger file is
// scanned in part. The engine identity carries the settings' key, none for the defaults.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_DETECTION, detectionKey, type DetectionSettings } from '../../../shared/settings/detection.ts';
import { verdictOf } from '../../../shared/scans/record.ts';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import type { EngineVerdict } from '../../../electron/engine/engine.ts';
import { ownRunningFolder } from '../../../electron/engine/databases/database-folder.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { OwnClamd } from '../../../electron/engine/own-clamd/own-clamd.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

const clamdPath = findClamd();
if (clamdPath === null && process.env.CI) throw new Error('clamd is not installed, and CI must run the own-clamd tests');

const TOOL = { marker: 'VERDICT-PUA-TOOL-MARKER', name: 'PUA.Win.Tool.VerdictTest-1' };
const SPY = { marker: 'VERDICT-PUA-SPY-MARKER', name: 'PUA.Unix.Spy.VerdictTest-2' };

let root: string;
let dbDir: string;
const files: Record<'tool' | 'spy' | 'big', string> = { tool: '', spy: '', big: '' };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-detection-'));
  dbDir = await writeEicarDatabase(join(root, 'db'));
  const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');
  await writeFile(join(dbDir, 'verdict-pua.ndu'), `${TOOL.name}:0:*:${hex(TOOL.marker)}\n${SPY.name}:0:*:${hex(SPY.marker)}\n`);
  files.tool = join(root, 'tool.txt');
  files.spy = join(root, 'spy.txt');
  files.big = join(root, 'big.bin');
  await writeFile(files.tool, `a tool: ${TOOL.marker}\n`);
  await writeFile(files.spy, `a spy: ${SPY.marker}\n`);
  await writeFile(files.big, randomBytes(3 * 1024 * 1024));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Verdict's own clamd with these settings, the findings for each test file, its config and identity; stopped after. */
async function scanWith(detection: DetectionSettings | undefined) {
  const clamd = new OwnClamd({ dataDir: join(root, 'data'), databaseDir: dbDir, backoffMs: [50], startTimeoutMs: 60_000, ...(detection ? { detection } : {}) });
  const state = await clamd.start();
  if (state.status !== 'running') throw new Error(`clamd is not running: ${JSON.stringify(state)}`);
  const engine = new ClamdEngine({ endpoint: { socketPath: state.socketPath }, databaseFolder: () => ownRunningFolder(clamd, state.databaseDir, clamd.loadedAtMs ?? 0) });
  try {
    const found: Record<string, string[]> = {};
    const verdicts: Record<string, EngineVerdict> = {};
    let identity;
    for (const [what, file] of Object.entries(files)) {
      const verdict = await engine.scan(file);
      verdicts[what] = verdict;
      found[what] = verdict.findings.map((finding) => finding.name);
      identity = verdict.engine;
    }
    // How each verdict reads in a record (the engine's answer as the history stores it).
    const reads = (what: string) => verdictOf({ status: 'completed', safe: verdicts[what]?.safe ?? null, detailed: verdicts[what]?.detailed ?? null, engine: null });
    return { found, config: await readFile(join(root, 'data', 'clamd.conf'), 'utf8'), identity, reads };
  } finally {
    await engine.close();
    await clamd.close();
  }
}

const pua = (enabled: boolean, mode: 'all' | 'except' | 'only' = 'all', categories: string[] = []): DetectionSettings => ({ ...DEFAULT_DETECTION, pua: { enabled, mode, categories } });

describe.skipIf(clamdPath === null)("Verdict's own clamd detects as its settings say", () => {
  test('the defaults: PUA off (the .ndu is not loaded), the limits as before, no key in the identity', async () => {
    const run = await scanWith(undefined);
    expect(run.found).toMatchObject({ tool: [], spy: [], big: [] });
    for (const line of ['DetectPUA no', 'MaxFileSize 120M', 'MaxScanSize 400M', 'MaxRecursion 17', 'MaxFiles 10000', 'ScanArchive yes', 'HeuristicAlerts yes', 'AlertExceedsMax yes']) {
      expect(run.config).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    expect(run.identity).toMatchObject({ name: 'clamav', signatureBasis: 'databases' });
    expect(run.identity).not.toHaveProperty('detection');
  }, 60_000);

  test('PUA on: both PUA signatures fire, and the identity names the settings', async () => {
    const run = await scanWith(pua(true));
    expect(run.found.tool).toEqual([`${TOOL.name}.UNOFFICIAL`]);
    expect(run.found.spy).toEqual([`${SPY.name}.UNOFFICIAL`]);
    expect(run.reads('tool')).toBe('unsafe');
    expect(run.config).toMatch(/^DetectPUA yes$/m);
    expect(run.identity).toMatchObject({ detection: detectionKey(pua(true)) });
  }, 60_000);

  test('PUA on except Tool (ExcludePUA), and only Tool (IncludePUA)', async () => {
    const except = await scanWith(pua(true, 'except', ['Tool']));
    expect(except.config).toMatch(/^ExcludePUA Tool$/m);
    expect(except.found).toMatchObject({ tool: [], spy: [`${SPY.name}.UNOFFICIAL`] });
    const only = await scanWith(pua(true, 'only', ['Tool']));
    expect(only.config).toMatch(/^IncludePUA Tool$/m);
    expect(only.found).toMatchObject({ tool: [`${TOOL.name}.UNOFFICIAL`], spy: [] });
    expect(except.identity?.detection).not.toBe(only.identity?.detection);
  }, 60_000);

  test('MaxFileSize 1 MB: the 3 MB file is scanned in part, never clean', async () => {
    const run = await scanWith({ ...DEFAULT_DETECTION, maxFileSizeMb: 1, maxScanSizeMb: 10 });
    expect(run.config).toMatch(/^MaxFileSize 1M$/m);
    expect(run.found.big).toEqual(['Heuristics.Limits.Exceeded.MaxFileSize']);
    expect(run.reads('big')).toBe('partial');
    expect(run.found.tool).toEqual([]);
  }, 60_000);
});
