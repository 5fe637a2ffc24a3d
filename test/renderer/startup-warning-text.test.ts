// Start-up warnings in the UI's language: every code the core can send has an
// English and a German text (with the file name or count it carries), and a
// warning without its detail, or with a code this UI does not know, falls back
// to the core's English sentence rather than showing a hole.
import { describe, expect, it } from 'vitest';
import type { StartupWarning, StartupWarningCode } from '../../shared/bridge/api.ts';
import { startupWarningText } from '../../renderer/app/startup-warning-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';

const en = translator('en');
const de = translator('de');

const sample: Record<StartupWarningCode, StartupWarning> = {
  settings_damaged: { code: 'settings_damaged', message: 'english sentence', file: 'settings.json.corrupt-2026-11-23T10-00-00-000Z' },
  settings_unreadable: { code: 'settings_unreadable', message: 'english sentence', file: '/home/me/.config/Verdict/settings.json' },
  settings_future_version: { code: 'settings_future_version', message: 'english sentence' },
  history_replaced: { code: 'history_replaced', message: 'english sentence', file: 'history.sqlite.corrupt-1' },
  quarantine_index_replaced: { code: 'quarantine_index_replaced', message: 'english sentence' },
  quarantine_files_lost: { code: 'quarantine_files_lost', message: 'english sentence', count: 2 },
  quarantine_recovery_failed: { code: 'quarantine_recovery_failed', message: 'english sentence', count: 1 },
};

describe('startupWarningText', () => {
  it('translates every code into English and German, never leaving a placeholder', () => {
    for (const warning of Object.values(sample)) {
      const english = startupWarningText(en, warning);
      const german = startupWarningText(de, warning);
      for (const text of [english, german]) {
        expect(text, warning.code).not.toMatch(/[{}]/);
        expect(text, warning.code).not.toBe(warning.message);
      }
      expect(german, warning.code).not.toBe(english);
      if (warning.file) expect(german).toContain(warning.file);
    }
  });

  it('reads a damaged settings file plainly in both languages, naming where it went', () => {
    const warning = sample.settings_damaged;
    expect(startupWarningText(en, warning)).toBe(`Your settings file was damaged. It was set aside as ${warning.file}, and Verdict is using the default settings.`);
    expect(startupWarningText(de, warning)).toBe(`Ihre Einstellungsdatei war beschädigt. Sie wurde als ${warning.file} beiseitegelegt, und Verdict verwendet die Standardeinstellungen.`);
  });

  it('counts in the locale’s plural forms', () => {
    expect(startupWarningText(en, sample.quarantine_files_lost)).toMatch(/^2 quarantined files are missing/);
    expect(startupWarningText(en, { ...sample.quarantine_files_lost, count: 1 })).toMatch(/^1 quarantined file is missing/);
    expect(startupWarningText(de, sample.quarantine_recovery_failed)).toMatch(/^1 unterbrochene Quarantäne-Aktion konnte/);
  });

  it('falls back to the core’s sentence when the detail is missing or the code is unknown', () => {
    expect(startupWarningText(de, { code: 'settings_damaged', message: 'The settings file was damaged (x).' })).toBe('The settings file was damaged (x).');
    expect(startupWarningText(de, { code: 'quarantine_files_lost', message: 'Some files are missing.' })).toBe('Some files are missing.');
    expect(startupWarningText(de, { code: 'something_new', message: 'A newer core says so.' } as unknown as StartupWarning)).toBe('A newer core says so.');
  });
});
