// A threat whose quarantined file was removed outside Verdict: the core marks its
// record `deleted` with error file_lost (threat-state.ts recordOutcome); the list
// and the detail say it was lost, not that the user deleted it, in both languages.
import { describe, expect, it } from 'vitest';
import { translator } from '../../renderer/i18n/messages.ts';
import { deletedText, dispositionLabel, unsafeHint } from '../../renderer/quarantine/disposition-text.ts';
import { isLostFromQuarantine } from '../../shared/quarantine/entry.ts';

const en = translator('en');
const de = translator('de');
const lost = {
  disposition: 'deleted' as const,
  error: { code: 'file_lost', message: 'The file was removed from the quarantine folder outside Verdict; it can no longer be restored.' },
};
const deleted = { disposition: 'deleted' as const, error: null };

describe('a file lost from quarantine', () => {
  it('is told apart from one the user deleted, by its error code', () => {
    expect(isLostFromQuarantine(lost)).toBe(true);
    expect(isLostFromQuarantine(deleted)).toBe(false);
    // Another disposition with a leftover code is not "lost".
    expect(isLostFromQuarantine({ disposition: 'quarantine_failed', error: { code: 'file_lost' } })).toBe(false);
  });

  it('the detail says it was removed outside Verdict, in English and German, never "You deleted"', () => {
    expect(deletedText(en, lost)).toBe('The file was removed from the quarantine folder outside Verdict; it can no longer be restored.');
    expect(deletedText(de, lost)).toBe('Die Datei wurde außerhalb von Verdict aus dem Quarantäne-Ordner entfernt; sie kann nicht mehr wiederhergestellt werden.');
    expect(deletedText(en, deleted)).toBe('You deleted this file permanently from quarantine.');
    expect(deletedText(de, deleted)).toBe('Sie haben diese Datei endgültig aus der Quarantäne gelöscht.');
  });

  it('the list status reads "Lost from quarantine", not "Deleted"; other dispositions keep their word', () => {
    expect(dispositionLabel(en, lost)).toBe('Lost from quarantine');
    expect(dispositionLabel(de, lost)).toBe('Aus der Quarantäne verschwunden');
    expect(dispositionLabel(en, deleted)).toBe('Deleted');
    expect(dispositionLabel(de, { disposition: 'quarantined', error: null })).toBe('In Quarantäne');
  });

  it('the advice under "This file is dangerous" follows what happened: no "delete it" for a deleted file', () => {
    expect(unsafeHint(en, { disposition: null, error: null })).toBe('Do not open it. Delete it or move it somewhere safe.');
    expect(unsafeHint(en, { disposition: 'restored', error: null })).toBe('Do not open it. Delete it or move it somewhere safe.');
    expect(unsafeHint(en, { disposition: 'quarantined', error: null })).toMatch(/^Verdict moved it to quarantine/);
    expect(unsafeHint(en, deleted)).toMatch(/^Verdict deleted it permanently/);
    expect(unsafeHint(de, deleted)).toMatch(/^Verdict hat sie auf Ihren Wunsch endgültig gelöscht/);
    expect(unsafeHint(en, lost)).toBe('It is no longer in quarantine. If you moved it yourself, do not open it: delete it.');
    expect(unsafeHint(de, lost)).toMatch(/^Sie ist nicht mehr in der Quarantäne/);
  });
});
