// The detection settings as clamd.conf lines and back (issue 28 §2): what Verdict writes reads
// back as the same settings (generated settings), a system clamd.conf is read as clamd would read
// it (repeated ExcludePUA, sizes with units, clamd's defaults where it says nothing), and a system
// clamd run by another account (`clamav`, as Debian's) is shown read-only as its config says.
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DETECTION_BOUNDS, detectionKey, detectionSettingsSchema, PUA_CATEGORIES, type DetectionSettings } from '../../../shared/settings/detection.ts';
import { detectionProblemText } from '../../../shared/settings/detection-text.ts';
import { detectionConfigLines, detectionFromConf } from '../../../electron/engine/conf/detection-conf.ts';
import { engineStatus } from '../../../electron/engine/engine-status.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';

const int = (field: keyof typeof DETECTION_BOUNDS) => fc.integer(DETECTION_BOUNDS[field]);

const settingsArbitrary: fc.Arbitrary<DetectionSettings> = fc
  .record({
    pua: fc.record({ enabled: fc.boolean(), mode: fc.constantFrom('all' as const, 'except' as const, 'only' as const), categories: fc.uniqueArray(fc.constantFrom(...PUA_CATEGORIES), { minLength: 1, maxLength: 5 }) }),
    maxFileSizeMb: int('maxFileSizeMb'),
    maxScanSizeMb: int('maxScanSizeMb'),
    maxRecursion: int('maxRecursion'),
    maxFiles: int('maxFiles'),
    scanArchives: fc.boolean(),
    heuristicAlerts: fc.boolean(),
  })
  .filter((settings) => settings.maxScanSizeMb >= settings.maxFileSizeMb);

describe('detection settings ↔ clamd.conf', () => {
  test('what Verdict writes reads back as the same settings, and the same key', () => {
    fc.assert(
      fc.property(settingsArbitrary, (settings) => {
        const back = detectionFromConf(detectionConfigLines(settings).join('\n'));
        const effective = settings.pua.enabled ? settings : { ...settings, pua: { enabled: false, mode: 'all' as const, categories: [] } };
        expect(back).toEqual(settings.pua.enabled && settings.pua.mode !== 'all' ? effective : { ...effective, pua: { ...effective.pua, mode: 'all', categories: [] } });
        expect(detectionKey(back)).toBe(detectionKey(settings));
      }),
    );
  });

  test('a system clamd.conf: repeated ExcludePUA, sizes with units, comments, clamd’s defaults for the rest', () => {
    const text = ['# Debian-like', 'LocalSocket /run/clamav/clamd.ctl', 'DetectPUA true', 'ExcludePUA NetTool', 'ExcludePUA PWTool', 'MaxFileSize 25M', 'MaxScanSize 2048K', 'ScanArchive no', '#HeuristicAlerts no'].join('\n');
    expect(detectionFromConf(text)).toEqual({
      pua: { enabled: true, mode: 'except', categories: ['NetTool', 'PWTool'] },
      maxFileSizeMb: 25,
      maxScanSizeMb: 2,
      maxRecursion: 17,
      maxFiles: 10_000,
      scanArchives: false,
      heuristicAlerts: true,
    });
    expect(detectionFromConf('IncludePUA Spy\nDetectPUA yes\n').pua).toEqual({ enabled: true, mode: 'only', categories: ['Spy'] });
    expect(detectionFromConf('').pua.enabled).toBe(false);
  });

  test('values from outside (IPC, settings file, CLI): the schema and the words agree on every problem, and nothing invalid reaches clamd.conf', () => {
    const anyValue = fc.record({
      pua: fc.record({ enabled: fc.boolean(), mode: fc.constantFrom('all' as const, 'except' as const, 'only' as const), categories: fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }) }),
      maxFileSizeMb: fc.oneof(fc.integer({ min: -10, max: 5000 }), fc.double({ noNaN: true, min: -1, max: 10 })),
      maxScanSizeMb: fc.integer({ min: -10, max: 5000 }),
      maxRecursion: fc.integer({ min: -5, max: 200 }),
      maxFiles: fc.integer({ min: -5, max: 2_000_000 }),
      scanArchives: fc.boolean(),
      heuristicAlerts: fc.boolean(),
    });
    fc.assert(
      fc.property(anyValue, (value) => {
        const parsed = detectionSettingsSchema.safeParse(value);
        const problem = detectionProblemText(value, 'en');
        expect(parsed.success).toBe(problem === null);
        expect(detectionProblemText(value, 'de') === null).toBe(problem === null);
        if (parsed.success) {
          // One option per line, each value a number, yes/no or a category word: no line can add another setting.
          for (const line of detectionConfigLines(parsed.data)) expect(line).toMatch(/^[A-Za-z]+ [A-Za-z0-9]+$/);
        }
      }),
    );
  });
});

let system: RunningClamd | null = null;
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-detection-conf-'));
  // Another account's clamd at a "usual" socket, as Debian's system clamd runs as clamav (root needed; skipped otherwise).
  system = await startClamd({ user: 'clamav', extraConfig: ['DetectPUA yes', 'ExcludePUA NetTool', 'MaxRecursion 8', 'HeuristicAlerts no'] });
}, 60_000);
afterAll(async () => {
  await system?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('a system clamd is shown as its configuration says, read-only', () => {
  test('its DetectPUA, ExcludePUA and limits come from its clamd.conf; Verdict does not change that file', async (context) => {
    if (system === null) return context.skip();
    const found = await engineStatus({ kind: 'auto', dataDir: join(root, 'data'), socketCandidates: [system.socketPath], systemConfigPath: system.configPath, ownAllowed: false });
    expect(found.status.engine).toMatchObject({ name: 'clamav', source: 'system' });
    expect(found.status.detection).toEqual({
      source: 'system',
      configPath: system.configPath,
      settings: { pua: { enabled: true, mode: 'except', categories: ['NetTool'] }, maxFileSizeMb: 200, maxScanSizeMb: 400, maxRecursion: 8, maxFiles: 10_000, scanArchives: true, heuristicAlerts: false },
    });
    // The identity of a clamd Verdict does not configure carries no settings key.
    expect(found.status.engine).not.toHaveProperty('detection');
  }, 30_000);

  test('a clamd whose configuration Verdict cannot read: not known', async (context) => {
    if (system === null) return context.skip();
    const found = await engineStatus({ kind: 'auto', dataDir: join(root, 'data'), socketCandidates: [system.socketPath], systemConfigPath: join(root, 'missing.conf'), ownAllowed: false });
    expect(found.status.engine.source).toBe('system');
    expect(found.status.detection).toBeNull();
  }, 30_000);
});
