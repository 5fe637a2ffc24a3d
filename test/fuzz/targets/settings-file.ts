// The settings file (settings/settings-store.ts): whatever `settings.json`
// holds, openSettings never throws; it uses the file, or sets it aside and
// uses defaults, or uses it read-only (newer version); the settings it hands
// out always validate, and an update afterwards is a Result, never a throw.
// Two targets: the parsing alone in memory (millions of inputs), and the file
// round trip (set aside, read-only, update) at the disk's pace.
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openSettings, readSettingsText, SETTINGS_FILE_NAME } from '../../../electron/settings/settings-store.ts';
import { defaultSettings, SETTINGS_VERSION, settingsSchema } from '../../../shared/settings/settings.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue, hostileString } from './support/strings.ts';

const FOLDER = { id: 'f1', path: '/home/user/Downloads', recursive: true, ignore: ['*.tmp'], scanExisting: false, threatAction: 'quarantine' };
const KEYS = [...Object.keys(defaultSettings()), 'unknownKey'];

/** A valid settings object with some members replaced by anything, some removed. */
const mutatedSettings = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(anyJsonValue, fc.constant([FOLDER]), fc.constant({ kind: 'remote', baseUrl: 'https://scan.example' })), { maxKeys: 4 }),
    fc.subarray(KEYS, { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([replaced, removed, withFolder]) => {
    const settings: Record<string, unknown> = { ...defaultSettings(), ...(withFolder ? { watchedFolders: [FOLDER] } : {}), ...replaced };
    for (const key of removed) delete settings[key];
    return settings;
  });

export const fileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: mutatedSettings.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: mutatedSettings.chain((value) => fc.nat().map((cut) => JSON.stringify(value).slice(0, cut % 400))) },
  { weight: 1, arbitrary: anyJsonValue.map((value) => JSON.stringify(value) ?? '') },
  { weight: 1, arbitrary: hostileString() },
);

/** Whether the text is valid settings as the schema alone judges it (the oracle both targets compare with). */
function validText(text: string): boolean {
  try {
    return settingsSchema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/** The parsing alone, in memory, at full speed: the same function openSettings reads the file's text with. */
export const settingsTextTarget: FuzzTarget<string> = {
  name: 'settings-text',
  about: 'readSettingsText (what openSettings parses settings.json with) on any text: valid settings, a newer version, or damage with a reason; never a throw',
  smoke: { runs: 2_000 },
  async: false,
  async open() {
    return {
      arbitrary: fileText,
      check(text) {
        const read = readSettingsText(text);
        const valid = validText(text);
        if (read.kind === 'valid') {
          expectThat(valid, 'settings read as valid that the schema refuses');
          expectThat(settingsSchema.safeParse(read.settings).success, 'settings handed out do not validate');
        } else if (read.kind === 'newer') {
          expectThat(read.version > SETTINGS_VERSION, `read as newer: version ${read.version}`);
          expectThat(read.understood === null || settingsSchema.safeParse(read.understood).success, 'understood settings do not validate');
        } else {
          expectThat(!valid, 'a valid file read as damaged');
          expectThat(read.reason.length > 0, 'damage without a reason');
        }
      },
      close: async () => {},
    };
  },
};

export const settingsFileTarget: FuzzTarget<string> = {
  name: 'settings-file',
  about: 'openSettings on any settings.json: valid settings in use, a damaged file set aside, or a newer one read-only; never a throw',
  smoke: { runs: 120 },
  async: true,
  async open() {
    const root = mkdtempSync(join(tmpdir(), 'verdict-fuzz-settings-'));
    let serial = 0;
    return {
      arbitrary: fileText,
      async check(text) {
        const dir = join(root, String(serial++ % 8));
        await rm(dir, { recursive: true, force: true });
        mkdirSync(dir);
        await writeFile(join(dir, SETTINGS_FILE_NAME), text);
        const store = await openSettings(dir);
        const settings = store.get();
        expectThat(settingsSchema.safeParse(settings).success, 'settings in use do not validate');
        const valid = validText(text);
        if (valid) expectThat(store.problem === null, () => `a valid file was refused: ${store.warning}`);
        if (store.problem?.code === 'settings_damaged') {
          expectThat(readdirSync(dir).some((name) => name === store.problem?.file), 'damaged file not kept aside');
          expectThat(!valid, 'a valid file was set aside');
        }
        if (store.problem) expectThat(typeof store.warning === 'string' && store.warning.length > 0, 'a problem without a warning');
        const updated = await store.update({ notifyClean: !settings.notifyClean });
        expectThat(updated.ok || store.readOnly, () => `update failed: ${updated.ok ? '' : updated.error.message}`);
      },
      close: () => rm(root, { recursive: true, force: true }),
    };
  },
};
