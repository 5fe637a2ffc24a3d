// The settings file for real, in a temp data folder: defaults, validation,
// damaged and future files, atomic writes (including a kill mid-write) and
// the promise that the API key is never a setting.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME } from '../../../electron/settings/settings-store.ts';
import { defaultSettings, SETTINGS_VERSION, settingsSchema, type Settings } from '../../../shared/settings/settings.ts';
import { runUntilKilled } from '../history/fixtures/run-until-killed.ts';

let dataDir: string;
let file: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-settings-'));
  file = path.join(dataDir, SETTINGS_FILE_NAME);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(file, 'utf8')) as Settings;
const asideFiles = () => readdirSync(dataDir).filter((name) => name.startsWith(`${SETTINGS_FILE_NAME}.corrupt-`));

/** Every field set to a non-default value: what a settings file at its fullest looks like. */
const fullSettings: Settings = {
  version: SETTINGS_VERSION,
  language: 'de',
  backend: { kind: 'remote', baseUrl: 'https://scan.example.com/api' },
  remoteBaseUrl: 'https://scan.example.com/api',
  mode: 'async',
  reuseVerdictDays: 7,
  notifyClean: true,
  watchingPaused: true,
  startAtLogin: true,
  startAtLoginOffered: true,
  scanSchedules: { quick: { repeat: 'daily', time: '12:30' }, full: { repeat: 'weekly', weekday: 0, time: '03:00' }, skipOnBattery: false },
  clamavDatabaseDir: '/srv/clamav-db',
  clamd: { kind: 'address', address: 'tcp:127.0.0.1:3310' },
  autoUpdateSignatures: false,
  startOwnClamd: false,
  detection: { pua: { enabled: true, mode: 'except', categories: ['Tool', 'NetTool'] }, maxFileSizeMb: 50, maxScanSizeMb: 200, maxRecursion: 10, maxFiles: 5000, scanArchives: false, heuristicAlerts: false },
  recheckAfterUpdateDays: 7,
  drives: { when: 'auto', autoScanMaxGb: 128, alwaysScan: [{ uuid: 'ABCD-1234', label: 'STICK' }] },
  allowedDetectionNames: ['Win.Tool.Foo-123'],
  watchedFolders: [
    {
      id: 'w1',
      path: '/home/user/Downloads',
      recursive: false,
      ignore: ['*.tmp'],
      paused: true,
      scanExisting: true,
      threatAction: 'quarantine',
      exclusions: { paths: ['cache'], globs: ['*.part'], extensions: ['iso'] },
      maxAutoScanSize: 10_000_000,
      backend: 'local',
    },
  ],
  threatAction: 'quarantine',
  exclusions: { paths: ['~/Private'], globs: ['node_modules'], extensions: ['vmdk'] },
  maxAutoScanSize: 50_000_000,
  confirmRemoteUploads: false,
  remoteUploadConsentHosts: ['https://scan.example.com'],
  historyRetention: { keepDays: 30, keepScans: 5000 },
};

describe('openSettings', () => {
  it('uses the defaults when there is no file, and writes nothing until a change', async () => {
    const store = await openSettings(dataDir);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.warning).toBeNull();
    expect(store.readOnly).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('creates a missing data folder', async () => {
    const nested = path.join(dataDir, 'a', 'b');
    const store = await openSettings(nested);
    expect((await store.update({ notifyClean: true })).ok).toBe(true);
    expect(statSync(path.join(nested, SETTINGS_FILE_NAME)).isFile()).toBe(true);
  });

  it('saves a change, validated, owner-only, and reads it back in a new session', async () => {
    const store = await openSettings(dataDir);
    const result = await store.update({ language: 'de', backend: { kind: 'remote', baseUrl: 'https://scan.example.com' } });
    expect(result).toEqual({ ok: true, value: { ...defaultSettings(), language: 'de', backend: { kind: 'remote', baseUrl: 'https://scan.example.com' } } });
    expect(onDisk()).toEqual(result.ok && result.value);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual([SETTINGS_FILE_NAME]); // no temp file left behind

    const again = await openSettings(dataDir);
    expect(again.get()).toEqual(store.get());
    expect(again.warning).toBeNull();
  });

  it('hands out one deeply frozen snapshot until a change replaces it', async () => {
    writeFileSync(file, JSON.stringify(fullSettings));
    const store = await openSettings(dataDir);
    const first = store.get();
    expect(store.get()).toBe(first); // no copy per call
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.watchedFolders[0]?.exclusions.paths)).toBe(true);
    expect(() => first.watchedFolders.push(first.watchedFolders[0] as Settings['watchedFolders'][number])).toThrow(TypeError);
    expect(() => ((first.exclusions as { paths: string[] }).paths[0] = 'x')).toThrow(TypeError);

    const folders = [{ ...fullSettings.watchedFolders[0], id: 'w2' }] as Settings['watchedFolders'];
    const seen: Settings[] = [];
    store.onChange((next) => seen.push(next));
    const result = await store.update({ watchedFolders: folders });
    const second = store.get();
    expect(second).not.toBe(first);
    expect(result.ok && result.value).toBe(second);
    expect(seen).toEqual([second]);
    expect(Object.isFrozen(second.watchedFolders[0])).toBe(true);
    expect(first.watchedFolders[0]?.id).toBe('w1'); // the old snapshot stays as it was
    expect(Object.isFrozen(folders[0])).toBe(false); // the caller's objects are not frozen
    folders[0]!.id = 'changed';
    expect(store.get().watchedFolders[0]?.id).toBe('w2');
  });

  it('rejects an invalid change and keeps the file as it was', async () => {
    const store = await openSettings(dataDir);
    await store.update({ notifyClean: true });
    const before = readFileSync(file, 'utf8');
    const bad = await store.update({ backend: { kind: 'remote', baseUrl: 'ftp://user:pw@example.com' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_settings' } });
    const negative = await store.update({ reuseVerdictDays: -1 });
    expect(negative).toMatchObject({ ok: false, error: { code: 'invalid_settings' } });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(store.get().notifyClean).toBe(true);
  });

  it('applies concurrent changes in call order, each on top of the last', async () => {
    const store = await openSettings(dataDir);
    const results = await Promise.all([store.update({ language: 'en' }), store.update({ mode: 'sync' }), store.update({ language: 'de' })]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(store.get()).toMatchObject({ language: 'de', mode: 'sync' });
    expect(onDisk()).toMatchObject({ language: 'de', mode: 'sync' });
  });

  it('tells listeners about saved changes, and a failing listener harms nobody', async () => {
    const store = await openSettings(dataDir);
    const seen: Array<[boolean, boolean]> = [];
    store.onChange(() => {
      throw new Error('listener bug');
    });
    const unsubscribe = store.onChange((next, previous) => seen.push([next.notifyClean, previous.notifyClean]));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      expect((await store.update({ notifyClean: true })).ok).toBe(true);
      await store.update({ reuseVerdictDays: 3650_000 }); // invalid: no event
      unsubscribe();
      await store.update({ notifyClean: false });
    } finally {
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
    }
    expect(seen).toEqual([[true, false]]);
    expect(warnings.some((w) => w.includes('listener bug'))).toBe(true);
    expect(onDisk().notifyClean).toBe(false);
  });

  it('sets a file that is not JSON aside and starts from the defaults', async () => {
    writeFileSync(file, '{"language": "de", ');
    const store = await openSettings(dataDir);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.readOnly).toBe(false);
    expect(store.warning).toMatch(/not valid JSON/);
    const aside = asideFiles();
    expect(aside).toHaveLength(1);
    expect(store.warning).toContain(aside[0]);
    expect(readFileSync(path.join(dataDir, aside[0]!), 'utf8')).toBe('{"language": "de", ');
    expect((await store.update({ language: 'en' })).ok).toBe(true);
    expect(onDisk().language).toBe('en');
  });

  it('sets a file that fails validation aside', async () => {
    writeFileSync(file, JSON.stringify({ version: 1, language: 'klingon' }));
    const store = await openSettings(dataDir);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.warning).toMatch(/not valid.*language/);
    expect(asideFiles()).toHaveLength(1);
  });

  it('sets an empty file and a JSON null aside', async () => {
    writeFileSync(file, '');
    expect((await openSettings(dataDir)).warning).toMatch(/not valid JSON/);
    writeFileSync(file, 'null');
    expect((await openSettings(dataDir)).warning).toMatch(/not valid/);
    expect(asideFiles().length).toBeGreaterThanOrEqual(1);
  });

  it('never overwrites a file from a newer version, and uses what it understands', async () => {
    const future = { version: SETTINGS_VERSION + 1, language: 'de', mode: 'sync', newThing: { x: 1 } };
    writeFileSync(file, JSON.stringify(future));
    const store = await openSettings(dataDir);
    expect(store.readOnly).toBe(true);
    expect(store.warning).toMatch(/newer version of Verdict/);
    expect(store.get()).toMatchObject({ language: 'de', mode: 'sync', version: SETTINGS_VERSION });
    const change = await store.update({ language: 'en' });
    expect(change).toMatchObject({ ok: false, error: { code: 'settings_read_only' } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(future);
    expect(asideFiles()).toEqual([]);
  });

  it('leaves a settings path it cannot read alone (read-only with a message)', async () => {
    mkdirSync(file); // a folder where the file should be
    const store = await openSettings(dataDir);
    expect(store.readOnly).toBe(true);
    expect(store.warning).toMatch(/could not be read/);
    expect((await store.update({ language: 'en' })).ok).toBe(false);
    expect(statSync(file).isDirectory()).toBe(true);
  });

  it('removes temp files a killed writer left behind, but not fresh ones', async () => {
    const stale = `${file}.tmp-99999-deadbeef`;
    const fresh = `${file}.tmp-99998-cafebabe`;
    writeFileSync(stale, '{');
    writeFileSync(fresh, '{');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(stale, old, old);
    await openSettings(dataDir);
    expect(readdirSync(dataDir).sort()).toEqual([path.basename(fresh)]);
  });
});

describe('the API key is never a setting', () => {
  it('has no field for a key, token or secret', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keys(inner, `${prefix}${key}.`)])
        : [];
    const all = keys(settingsSchema.parse(fullSettings));
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((key) => /key|token|secret|password|credential/i.test(key))).toEqual([]);
  });

  it('drops a key smuggled into a change or a file', async () => {
    const secret = 'sk-live-THIS-MUST-NOT-BE-SAVED-1234';
    writeFileSync(file, JSON.stringify({ ...fullSettings, apiKey: secret }));
    const store = await openSettings(dataDir);
    expect(store.warning).toBeNull();
    expect(JSON.stringify(store.get())).not.toContain(secret);
    const change = await store.update({ ...fullSettings, language: 'en', apiKey: secret } as unknown as Partial<Settings>);
    expect(change.ok).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain(secret);
    expect(JSON.stringify(store.get())).not.toContain(secret);
    expect(onDisk()).toEqual({ ...fullSettings, language: 'en' });
  });
});

describe('power cut', () => {
  it('leaves a complete, valid settings file when the writer is killed mid-stream', async () => {
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'update-until-killed.ts');
    for (const afterLines of [1, 25, 80]) {
      const run = await runUntilKilled(script, [dataDir], afterLines);
      expect(run.signal).toBe('SIGKILL');
      const lastSaved = Number(run.lines.at(-1));
      expect(lastSaved).toBeGreaterThanOrEqual(afterLines);
      const store = await openSettings(dataDir);
      expect(store.warning).toBeNull();
      // The file holds the last completed write or the one in flight: never a mix, never older.
      const days = store.get().reuseVerdictDays;
      expect([lastSaved, lastSaved + 1]).toContain(days);
      expect(store.get().watchedFolders[0]?.id).toBe(`f${days}`);
    }
  });
});
