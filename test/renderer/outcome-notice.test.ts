// The notice after a quarantine action: a count when all went well, the new
// names of files restored under a numbered name, and the first failure's reason.
import { describe, expect, it } from 'vitest';
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { outcomeNotice, renamedFiles } from '../../renderer/quarantine/outcome-notice.ts';
import { quarantineReasonShown } from '../../renderer/quarantine/quarantine-reason.ts';

const entry = (fileName: string, restoredTo: string | null): QuarantineEntry => ({
  id: `entry-${fileName}-${restoredTo}`,
  originalPath: `/home/u/Downloads/${fileName}`,
  fileName,
  size: 68,
  mode: 0o644,
  sha256: 'a'.repeat(64),
  recordId: null,
  state: restoredTo ? 'restored' : 'deleted',
  quarantinedAt: '2026-01-01T00:00:00.000Z',
  resolvedAt: '2026-01-02T00:00:00.000Z',
  restoredTo,
});
const done = (value: QuarantineEntry): BulkOutcome<QuarantineEntry> => ({ id: value.id, ok: true, value });
const failed = (code: string, message: string): BulkOutcome<QuarantineEntry> => ({ id: code, ok: false, error: { code, message } });
const asIs = (error: { message: string }) => ({ text: error.message });

describe('outcomeNotice', () => {
  it('counts what was done when everything went through under its own name', () => {
    const outcomes = [done(entry('a.exe', '/restore/a.exe')), done(entry('b.exe', 'C:\\restore\\b.exe'))];
    expect(outcomeNotice(outcomes, 'quarantine.restored', asIs)).toEqual({ kind: 'info', key: 'quarantine.restored', params: { count: 2 } });
    expect(outcomeNotice([done(entry('c.exe', null))], 'quarantine.deleted', asIs)).toEqual({ kind: 'info', key: 'quarantine.deleted', params: { count: 1 } });
  });

  it('names the files that came back under a numbered name, in both languages', () => {
    const outcomes = [done(entry('setup.exe', '/restore/setup.exe')), done(entry('setup.exe', '/restore/setup (2).exe')), done(entry('x.bin', 'C:\\r\\x (2).bin'))];
    expect(renamedFiles(outcomes)).toEqual(['setup (2).exe', 'x (2).bin']);
    const notice = outcomeNotice(outcomes, 'quarantine.restored', asIs);
    expect(notice).toEqual({ kind: 'info', key: 'quarantine.restoredRenamed', params: { count: 3, names: 'setup (2).exe, x (2).bin' } });
    expect(translator('en').t(notice.key, notice.params)).toBe('Restored: 3. Given a new name because theirs was taken in that folder: setup (2).exe, x (2).bin');
    expect(translator('de').t(notice.key, notice.params)).toBe('Wiederhergestellt: 3. Mit neuem Namen, weil ihr Name in diesem Ordner vergeben war: setup (2).exe, x (2).bin');
    expect(outcomeNotice(outcomes, 'quarantine.allowed', asIs).key).toBe('quarantine.allowedRenamed');
  });

  it('lists at most three new names and counts the rest', () => {
    const outcomes = [2, 3, 4, 5, 6].map((n) => done(entry('s.exe', `/r/s (${n}).exe`)));
    expect(outcomeNotice(outcomes, 'quarantine.restored', asIs).params.names).toBe('s (2).exe, s (3).exe, s (4).exe, … (5)');
  });

  it('says how many could not be done, with the first reason as the caller words it', () => {
    const outcomes = [done(entry('a.exe', '/r/a.exe')), failed('io_error', 'permission denied'), failed('busy', 'busy')];
    expect(outcomeNotice(outcomes, 'quarantine.restored', (error) => ({ text: `[${error.code}]` }))).toEqual({
      kind: 'error',
      key: 'quarantine.partly',
      params: { done: 1, failed: 2, reason: '[io_error]' },
    });
  });

  it('never puts the core\'s English inside a translated sentence: a reason the UI cannot word is shown under it, marked English', () => {
    const de = translator('de');
    const unworded = failed('disk_on_fire', 'The quarantine folder is on fire');
    const notice = outcomeNotice([done(entry('a.exe', null)), unworded], 'quarantine.deleted', (error) => quarantineReasonShown(de, error));
    expect(notice).toEqual({ kind: 'error', key: 'quarantine.partlyInCoreWords', params: { done: 1, failed: 1 }, said: { tool: 'core', words: 'The quarantine folder is on fire' } });
    expect(de.t(notice.key, notice.params)).toBe('1 erledigt; 1 nicht möglich.');
    expect(translator('en').t(notice.key, notice.params)).toBe('1 done; 1 could not be.');
    // A worded reason stays inside the sentence, in the UI's language, with nothing in English under it.
    const worded = outcomeNotice([failed('busy', 'The quarantine is busy')], 'quarantine.moved', (error) => quarantineReasonShown(de, error));
    expect(worded.key).toBe('quarantine.partly');
    expect(worded.said).toBeUndefined();
    expect(de.t(worded.key, worded.params)).toMatch(/^0 erledigt; 1 nicht möglich: /);
    expect(de.t(worded.key, worded.params)).not.toContain('The quarantine is busy');
  });
});
