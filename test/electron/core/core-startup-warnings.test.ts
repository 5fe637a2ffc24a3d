// Start-up warnings get a stable code each (issue 7): every case is produced by the
// real stores (settings file, history and quarantine SQLite files), so a store that
// rewords its sentence fails here instead of silently losing the code the UI
// translates by. Also through createCore: core.startupWarnings and settings.startupWarnings().
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { STARTUP_WARNING_CODES } from '../../../shared/bridge/api.ts';
import { collectStartupWarnings, settingsWarning } from '../../../electron/core/startup-warnings.ts';
import { HISTORY_FILE_NAME, openHistory } from '../../../electron/history/history.ts';
import { openQuarantine, QUARANTINE_DB_NAME, QUARANTINE_DIR_NAME } from '../../../electron/quarantine/quarantine.ts';
import { openSettings, SETTINGS_FILE_NAME } from '../../../electron/settings/settings-store.ts';
import { FAST } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-startup-warnings-');
let dataDir: string;

beforeEach(async () => {
  dataDir = fixture.dataDir();
  await mkdir(dataDir);
});

const NO_PROBLEMS = {
  settings: { warning: null, problem: null },
  history: { warning: null },
  quarantine: { warning: null },
  recovery: { lost: [], problems: [] },
};

const writeSettings = (content: string) => writeFile(join(dataDir, SETTINGS_FILE_NAME), content);

describe('settings file codes (real settings store)', () => {
  it.each([
    ['not JSON', '{"language": "de", '],
    ['JSON that is not settings', JSON.stringify({ version: 1, language: 'fr' })],
  ])('%s: settings_damaged, naming the file it was set aside as', async (_label, content) => {
    await writeSettings(content);
    const warning = settingsWarning(await openSettings(dataDir));
    expect(warning).toMatchObject({ code: 'settings_damaged', message: expect.stringMatching(/damaged/) });
    expect(warning?.file).toMatch(/^settings\.json\.corrupt-/);
    expect(await readdir(dataDir)).toContain(warning?.file);
  });

  it('a newer version: settings_future_version', async () => {
    await writeSettings(JSON.stringify({ version: 999, language: 'de' }));
    expect(settingsWarning(await openSettings(dataDir))).toEqual({ code: 'settings_future_version', message: expect.stringMatching(/newer version/) });
  });

  it('unreadable (a folder where the file belongs): settings_unreadable with its path', async () => {
    await mkdir(join(dataDir, SETTINGS_FILE_NAME));
    const store = await openSettings(dataDir);
    expect(settingsWarning(store)).toEqual({ code: 'settings_unreadable', message: expect.stringMatching(/could not be read/), file: store.file });
  });

  it('takes the code and file from the store, the sentence as the message', () => {
    const warning = settingsWarning({
      warning: 'The settings file /d/settings.json is damaged (x) and could not be set aside (EACCES); default settings are in use and changes will not be saved.',
      problem: { code: 'settings_unreadable', file: '/d/settings.json' },
    });
    expect(warning).toMatchObject({ code: 'settings_unreadable', file: '/d/settings.json', message: expect.stringMatching(/could not be set aside/) });
  });

  it('a good file or none: no warning', async () => {
    expect(settingsWarning(await openSettings(dataDir))).toBeNull();
    await writeSettings(JSON.stringify({ version: 1, language: 'de' }));
    expect(settingsWarning(await openSettings(dataDir))).toBeNull();
  });
});

describe('history and quarantine codes (real SQLite files)', () => {
  it('a damaged history database: history_replaced, naming the file it was set aside as', async () => {
    await writeFile(join(dataDir, HISTORY_FILE_NAME), Buffer.concat([Buffer.from('definitely not SQLite '), randomBytes(8192)]));
    const history = openHistory(dataDir);
    fixture.onCleanup(() => history.close());
    const [warning] = collectStartupWarnings({ ...NO_PROBLEMS, history });
    expect(warning).toMatchObject({ code: 'history_replaced', message: history.warning });
    expect(warning?.file).toMatch(/^history\.sqlite\.corrupt-/);
    expect(await readdir(dataDir)).toContain(warning?.file);
  });

  it('a damaged quarantine index: quarantine_index_replaced', async () => {
    await mkdir(join(dataDir, QUARANTINE_DIR_NAME));
    await writeFile(join(dataDir, QUARANTINE_DIR_NAME, QUARANTINE_DB_NAME), 'this is not a database'.repeat(200));
    const quarantine = await openQuarantine(dataDir);
    fixture.onCleanup(() => quarantine.close());
    const recovery = await quarantine.recover();
    expect(collectStartupWarnings({ ...NO_PROBLEMS, quarantine, recovery })).toEqual([
      { code: 'quarantine_index_replaced', message: quarantine.warning },
    ]);
  });

  it('quarantine recovery: lost files and unfinished actions, with their counts', () => {
    const warnings = collectStartupWarnings({ ...NO_PROBLEMS, recovery: { lost: ['a', 'b'], problems: [{ id: 'c', message: 'EACCES' }] } });
    expect(warnings).toEqual([
      { code: 'quarantine_files_lost', count: 2, message: expect.stringMatching(/^2 quarantined files are missing/) },
      { code: 'quarantine_recovery_failed', count: 1, message: expect.stringMatching(/^1 quarantine action interrupted/) },
    ]);
  });

  it('every code the contract lists is one the collector can produce (and the reverse)', () => {
    const produced = new Set([
      ...collectStartupWarnings({
        settings: { warning: 'damaged', problem: { code: 'settings_damaged', file: 'settings.json.corrupt-1' } },
        history: { warning: 'set aside as history.sqlite.corrupt-1 and a new, empty history was started.' },
        quarantine: { warning: 'set aside' },
        recovery: { lost: ['a'], problems: [{}] },
      }),
      settingsWarning({ warning: 'written by a newer version of Verdict', problem: { code: 'settings_future_version' } })!,
      settingsWarning({ warning: 'could not be read', problem: { code: 'settings_unreadable', file: '/s' } })!,
    ].map((warning) => warning.code));
    expect([...produced].sort()).toEqual([...STARTUP_WARNING_CODES].sort());
  });
});

describe('through createCore', () => {
  const open = () => fixture.open({ ...FAST, watch: false });

  it('a damaged settings file and a damaged history: both warnings, in order, from the facade too', async () => {
    await writeSettings('{"language": ');
    await writeFile(join(dataDir, HISTORY_FILE_NAME), Buffer.concat([Buffer.from('definitely not SQLite '), randomBytes(8192)]));
    const core = await open();
    expect(core.startupWarnings.map((warning) => warning.code)).toEqual(['settings_damaged', 'history_replaced']);
    const answered = await core.settings.startupWarnings();
    expect(answered).toEqual({ ok: true, value: [...core.startupWarnings] });
    // The answer is a copy: changing it changes nothing.
    if (answered.ok) answered.value.pop();
    const again = await core.settings.startupWarnings();
    expect(again.ok && again.value).toHaveLength(2);
  });

  it('a clean start: no warnings', async () => {
    const core = await open();
    expect(core.startupWarnings).toEqual([]);
    expect(await core.settings.startupWarnings()).toEqual({ ok: true, value: [] });
  });

  it('a file removed from the quarantine folder behind Verdict’s back: quarantine_files_lost once', async () => {
    const files = join(fixture.dir.path, 'files');
    await mkdir(files);
    const source = join(files, 'evil.exe');
    await writeFile(source, 'EVIL');
    const quarantine = await openQuarantine(dataDir);
    await quarantine.recover();
    const entry = await quarantine.quarantine({ path: source, sha256: sha256Of('EVIL') });
    if (!entry.ok) throw new Error(entry.error.message);
    quarantine.close();
    await rm(join(dataDir, QUARANTINE_DIR_NAME, 'files'), { recursive: true, force: true });

    const core = await open();
    expect(core.startupWarnings).toEqual([{ code: 'quarantine_files_lost', count: 1, message: expect.stringMatching(/^1 quarantined file is missing/) }]);
    await core.close();
    // Marked lost now: the next start has nothing new to say.
    expect((await open()).startupWarnings).toEqual([]);
  });
});

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
