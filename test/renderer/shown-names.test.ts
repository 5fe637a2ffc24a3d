// Names and paths in the renderer's sentences (notices, dialog questions, reasons,
// start-up warnings) are shown through displayName(): a bidi override in a name
// reads ⟨U+202E⟩ and the real extension ends it, in both languages. What is kept
// (the notice's parameters, what the core is sent) stays the real name.
import { describe, expect, it } from 'vitest';
import { displayName } from '../../shared/display-name.ts';
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { startupWarningText } from '../../renderer/app/startup-warning-text.ts';
import { exclusionText } from '../../renderer/detail/exclusion-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { shownParams } from '../../renderer/i18n/shown-params.ts';
import { outcomeNotice, restoredOneNotice } from '../../renderer/quarantine/outcome-notice.ts';
import { quarantineReason } from '../../renderer/quarantine/quarantine-reason.ts';

const en = translator('en');
const de = translator('de');
const disguised = 'invoice\u202Efdp.exe';
const shown = 'invoice⟨U+202E⟩fdp.exe';
const path = `/home/u/Downloads/${disguised}`;
const shownPath = `/home/u/Downloads/${shown}`;

const entry = (restoredTo: string): QuarantineEntry => ({
  id: `entry-${restoredTo}`,
  originalPath: path,
  fileName: disguised,
  size: 68,
  mode: 0o644,
  sha256: 'a'.repeat(64),
  recordId: null,
  state: 'restored',
  quarantinedAt: '2026-01-01T00:00:00.000Z',
  resolvedAt: '2026-01-02T00:00:00.000Z',
  restoredTo,
});

describe('notices after a quarantine action', () => {
  it('"Restored to <path>" shows the override escaped; the notice keeps the real path', () => {
    const notice = restoredOneNotice('restore', path);
    expect(notice.params.path).toBe(path);
    expect(en.t(notice.key, shownParams(notice.params))).toBe(`Restored to ${shownPath}`);
    expect(de.t(notice.key, shownParams(notice.params))).not.toContain('\u202E');
    const allowed = restoredOneNotice('allow', path);
    expect(en.t(allowed.key, shownParams(allowed.params))).toBe(`Allowed and restored to ${shownPath}`);
  });

  it('new names after a restore into a chosen folder, and a failure reason naming the path', () => {
    const outcomes: Array<BulkOutcome<QuarantineEntry>> = [
      { id: 'a', ok: true, value: entry('/restore/invoice\u202Efdp (2).exe') },
      { id: 'b', ok: true, value: entry(`/restore/${disguised}`) },
    ];
    const renamed = outcomeNotice(outcomes, 'quarantine.restored', (error) => ({ text: error.message }));
    expect(en.t(renamed.key, shownParams(renamed.params))).toBe('Restored: 2. Given a new name because theirs was taken in that folder: invoice⟨U+202E⟩fdp (2).exe');

    const failed: Array<BulkOutcome<QuarantineEntry>> = [{ id: 'c', ok: false, error: { code: 'source_missing', message: `There is no file at ${path}.`, params: { path } } }];
    const partly = outcomeNotice(failed, 'quarantine.moved', (error) => ({ text: quarantineReason(de, error) }));
    const text = de.t(partly.key, shownParams(partly.params));
    expect(text).toContain(shownPath);
    expect(text).not.toContain('\u202E');
  });

  it('a number parameter is still written as the locale writes it', () => {
    expect(en.t('quarantine.restored', shownParams({ count: 10_000 }))).toBe(en.t('quarantine.restored', { count: 10_000 }));
    expect(en.t('quarantine.restored', { count: 10_000 })).toContain('10,000');
  });
});

describe('dialog questions', () => {
  it('"A file already exists at <path>" (the restore conflict) shows the override escaped', () => {
    const params = shownParams({ path });
    expect(en.t('quarantine.conflictBody', params)).toContain(`A file already exists at ${shownPath}. `);
    expect(de.t('quarantine.noPlaceBody', params)).toContain(shownPath);
  });

  it('the upload question names the first file as displayName() shows it', () => {
    // DialogHost fills `name` with displayName(request.name); the e2e test checks the dialog itself.
    expect(en.tn('upload.what', 1, { name: displayName(disguised) })).toBe(`1 item: ${shown}`);
    expect(en.tn('upload.what', 3, { name: displayName('two\nlines.txt') })).toBe('3 items, including two⟨U+000A⟩lines.txt');
  });
});

describe('reasons and warnings that name a path', () => {
  it('a quarantine reason, worded or the core sentence, shows the path escaped', () => {
    for (const code of ['restore_conflict', 'source_missing', 'not_regular_file', 'io_error', 'hash_mismatch'] as const) {
      for (const t of [en, de]) expect(quarantineReason(t, { code, message: 'english', params: { path } }), code).toContain(shownPath);
    }
    expect(quarantineReason(en, { code: 'target_folder_missing', message: 'english', params: { folder: '/restore/\u2067here' } })).toContain('/restore/⟨U+2067⟩here');
    expect(quarantineReason(en, { code: 'some_other_code', message: `Cannot open ${path}` })).toBe(`Cannot open ${shownPath}`);
  });

  it('an excluded path or pattern in a skip reason shows the override escaped', () => {
    const text = exclusionText(en, { code: 'excluded_path', message: 'english', params: { scope: 'global', target: 'file', rule: '/home/u/\u202Eetavirp' } });
    expect(text).toContain('/home/u/⟨U+202E⟩etavirp');
    expect(exclusionText(de, { code: 'excluded_glob', message: 'english', params: { scope: 'folder', target: 'folder', rule: 'cache\u200B' } })).toContain('cache⟨U+200B⟩');
  });

  it('the file a start-up warning names is shown escaped', () => {
    const warning = { code: 'settings_damaged', message: 'english', file: '/home/u/.config/Verdict\u202E/settings.json.corrupt-1' } as const;
    expect(startupWarningText(en, warning)).toContain('/home/u/.config/Verdict⟨U+202E⟩/settings.json.corrupt-1');
    expect(startupWarningText(en, { code: 'settings_damaged', message: `Set aside ${path}` })).toBe(`Set aside ${shownPath}`);
  });
});
