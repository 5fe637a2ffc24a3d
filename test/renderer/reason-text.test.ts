// Skip and quarantine reasons worded by the renderer from the core's code and
// parameters: the core's own exclusionError(), linkOutside() and explainQuarantineError() feed
// the renderer's wording, English reads as the core's sentence, German is German,
// and a record without parameters (written before they existed) keeps its English.
import { describe, expect, it } from 'vitest';
import { exclusionError, type ExclusionHit } from '../../electron/exclusions/exclusion-matcher.ts';
import { explainQuarantineError, quarantineRefusal } from '../../electron/quarantine/error-params.ts';
import { linkOutside } from '../../electron/intake/link-outside.ts';
import { exclusionText, linkOutsideText } from '../../renderer/detail/exclusion-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { quarantineReason, quarantineReasonShown } from '../../renderer/quarantine/quarantine-reason.ts';
import { QUARANTINE_ERROR_CAUSES, QUARANTINE_ERROR_CODES } from '../../shared/quarantine/entry.ts';
import { EXCLUSION_REASONS } from '../../shared/scans/exclusion.ts';

const en = translator('en');
const de = translator('de');
const MB = 1024 * 1024;

describe('exclusion reasons', () => {
  const cases: Array<[ExclusionHit, number | null, 'file' | 'folder']> = [];
  for (const scope of ['global', 'folder'] as const) {
    cases.push([{ reason: 'excluded_path', detail: '~/Private', scope }, 12, 'file']);
    cases.push([{ reason: 'excluded_path', detail: '/srv/cache', scope }, null, 'folder']);
    cases.push([{ reason: 'excluded_glob', detail: '*.iso', scope }, 5, 'file']);
    cases.push([{ reason: 'excluded_glob', detail: 'node_modules', scope }, null, 'folder']);
    cases.push([{ reason: 'excluded_extension', detail: '.ISO', scope }, 5, 'file']);
    cases.push([{ reason: 'over_auto_scan_size', detail: String(25 * MB), scope }, 30 * MB, 'file']);
    cases.push([{ reason: 'over_auto_scan_size', detail: String(20 * MB), scope }, null, 'file']);
  }

  it('every reason, scope and target: English from the parameters reads exactly as the core wrote it; German differs and names the rule', () => {
    expect(new Set(cases.map(([hit]) => hit.reason))).toEqual(new Set(EXCLUSION_REASONS));
    for (const [hit, size, kind] of cases) {
      const error = exclusionError(hit, size, kind);
      expect(error.params, error.message).toBeDefined();
      expect(exclusionText(en, error)).toBe(error.message);
      const german = exclusionText(de, error);
      expect(german, error.message).not.toBe(error.message);
      expect(german).toMatch(/^Nicht (automatisch )?geprüft: /);
      if (hit.reason !== 'over_auto_scan_size') expect(german).toContain(hit.detail.replace(/^\.+/, ''));
    }
  });

  it('German wording of each kind, with sizes in the German number format', () => {
    expect(exclusionText(de, exclusionError({ reason: 'excluded_extension', detail: 'iso', scope: 'global' }))).toBe(
      'Nicht geprüft: Dateien mit der Endung .iso sind ausgeschlossen (globale Ausschlüsse).',
    );
    expect(exclusionText(de, exclusionError({ reason: 'excluded_glob', detail: 'node_modules', scope: 'folder' }, null, 'folder'))).toBe(
      'Nicht geprüft: Der Ordner passt auf das Muster „node_modules“ (Ausschlüsse dieses überwachten Ordners); nichts darin wurde angesehen.',
    );
    expect(exclusionText(de, exclusionError({ reason: 'over_auto_scan_size', detail: String(25 * MB), scope: 'global' }, 30.5 * MB))).toBe(
      'Nicht automatisch geprüft: Sie ist 30,5 MB groß und damit über der Grenze von 25 MB für automatische Prüfungen (Einstellungen). Prüfen Sie sie von Hand.',
    );
  });

  it('keeps the English sentence of a record without (or with unusable) parameters, and of other codes', () => {
    const old = { code: 'excluded_extension', message: 'Not scanned: files ending in .iso are excluded in the global exclusions.' };
    expect(exclusionText(de, old)).toBe(old.message);
    expect(exclusionText(de, { ...old, params: { scope: 'nowhere', target: 'file', rule: 'iso' } })).toBe(old.message);
    expect(exclusionText(de, { code: 'not_found', message: 'gone', params: { scope: 'global', target: 'file', rule: 'x' } })).toBe('gone');
  });
});

describe('a link out of the chosen folder', () => {
  /** The record's error as the pipeline stores it from the intake's item. */
  const recorded = (link: string, target: string) => {
    const { code, message, params } = linkOutside(link, target, '/home/u/Downloads');
    return { code, message, params };
  };

  it('English from the parameters reads exactly as the core wrote it (the CLI line); German differs and names the link and its target', () => {
    const error = recorded('/home/u/Downloads/notes.txt', '/home/u/.ssh/id_rsa');
    expect(linkOutsideText(en, error)).toBe(error.message);
    expect(linkOutsideText(en, error)).toBe(
      'Not scanned: /home/u/Downloads/notes.txt is a symbolic link to /home/u/.ssh/id_rsa, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.',
    );
    expect(linkOutsideText(de, error)).toBe(
      'Nicht geprüft: /home/u/Downloads/notes.txt ist eine symbolische Verknüpfung auf /home/u/.ssh/id_rsa, außerhalb des gewählten Ordners; Verdict folgt ihr nicht. Fügen Sie das Ziel selbst hinzu, um es zu prüfen.',
    );
  });

  it('shows the link and the target through displayName(): a hidden override cannot disguise either', () => {
    const error = recorded('/home/u/Downloads/invoice\u202Efdp.exe', '/home/u/.ssh/id\u202Easr');
    for (const translator of [en, de]) {
      const text = linkOutsideText(translator, error);
      expect(text).not.toContain('\u202E');
      expect(text).toContain('invoice⟨U+202E⟩fdp.exe');
      expect(text).toContain('id⟨U+202E⟩asr');
    }
  });

  it('keeps the English sentence of a record without usable parameters', () => {
    const { message } = recorded('/a/link', '/b/target');
    expect(linkOutsideText(de, { code: 'link_outside', message })).toBe(message);
    expect(linkOutsideText(de, { code: 'link_outside', message, params: { path: '/a/link' } })).toBe(message);
  });
});

describe('quarantine reasons', () => {
  /** What the core sends for each code (and case), with the parameters it adds. */
  const sent = [
    quarantineRefusal('not_found', 'There is no scan with this id.'),
    quarantineRefusal('not_found', 'This content is not on the allowed list.', 'not_allowed'),
    explainQuarantineError({ code: 'invalid_state', message: 'This file is not in quarantine (it is deleted).' }, 'restore', '/home/u/a.exe'),
    quarantineRefusal('invalid_state', 'Only a file judged unsafe is moved to quarantine.', 'not_unsafe'),
    quarantineRefusal('invalid_state', 'This file is in quarantine already.', 'in_quarantine'),
    explainQuarantineError({ code: 'busy', message: 'Another action on this file is still running.' }, 'move', '/home/u/a.exe'),
    explainQuarantineError({ code: 'hash_mismatch', message: '/home/u/a.exe changed since it was scanned, so it was not moved; scan it again.' }, 'move', '/home/u/a.exe'),
    explainQuarantineError({ code: 'hash_mismatch', message: 'The quarantined file no longer has the content that was quarantined; it was not restored.' }, 'restore', '/home/u/a.exe'),
    quarantineRefusal('hash_mismatch', 'This scan has no fingerprint; scan the file again.', 'not_fingerprinted'),
    explainQuarantineError({ code: 'restore_conflict', message: 'Something exists at /home/u/a.exe already; choose another location.' }, 'restore', '/home/u/a.exe'),
    explainQuarantineError({ code: 'target_folder_missing', message: 'The folder /home/u/gone does not exist; choose another location.' }, 'restore', '/home/u/gone/a.exe'),
    explainQuarantineError({ code: 'original_path_unknown', message: 'Where this file came from is not known; choose a location to restore it to.' }, 'restore', null),
    explainQuarantineError({ code: 'source_missing', message: 'There is no file at /home/u/a.exe any more.' }, 'move', '/home/u/a.exe'),
    explainQuarantineError({ code: 'not_regular_file', message: '/home/u/a.exe is not a regular file; only files can be quarantined.' }, 'move', '/home/u/a.exe'),
    explainQuarantineError({ code: 'invalid_target', message: 'A file cannot be restored into the quarantine folder.' }, 'restore', '/q/files/x'),
    explainQuarantineError({ code: 'file_lost', message: 'The quarantined file is missing from the quarantine folder; it cannot be restored.' }, 'restore', '/home/u/a.exe'),
    explainQuarantineError({ code: 'invalid_request', message: 'A sha256 (64 hex digits) is needed.' }, 'move', null),
    explainQuarantineError({ code: 'io_error', message: '/home/u/a.exe could not be moved: permission denied.' }, 'move', '/home/u/a.exe'),
    explainQuarantineError({ code: 'io_error', message: '/q/files/x: EIO: i/o error' }, 'delete', null),
  ];

  it('every code and case the core sends is worded in both languages, with the path or folder it is about', () => {
    expect(new Set(sent.map((error) => error.code))).toEqual(new Set(QUARANTINE_ERROR_CODES));
    expect(new Set(sent.flatMap((error) => (error.params?.cause ? [error.params.cause] : [])))).toEqual(new Set(QUARANTINE_ERROR_CAUSES));
    const seen = new Set<string>();
    for (const error of sent) {
      const english = quarantineReason(en, error);
      const german = quarantineReason(de, error);
      expect(german, error.message).not.toBe(english);
      expect(german, error.message).not.toBe(error.message);
      // Each case has wording of its own, not one catch-all sentence.
      expect(seen.has(german), german).toBe(false);
      seen.add(german);
      for (const value of [error.params?.path, error.params?.folder]) {
        if (typeof value === 'string') {
          expect(english).toContain(value);
          expect(german).toContain(value);
        }
      }
    }
    expect(quarantineReason(de, sent[9]!)).toBe('Unter /home/u/a.exe liegt bereits etwas. Verdict ersetzt es nie; wählen Sie einen anderen Ort.');
    expect(quarantineReason(de, sent[10]!)).toBe('Den Ordner /home/u/gone gibt es nicht; wählen Sie einen anderen Ort.');
  });

  it('keeps the English sentence for a code it does not know, or when a parameter its wording needs is missing', () => {
    expect(quarantineReason(de, { code: 'engine_unavailable', message: 'The engine is not running.' })).toBe('The engine is not running.');
    expect(quarantineReason(de, { code: 'restore_conflict', message: 'Something exists there already.' })).toBe('Something exists there already.');
    expect(quarantineReason(de, { code: 'busy', message: 'busy', params: { cause: 'no-such-cause' } })).toBe('busy');
  });

  it('shows that English sentence as the core’s words, and a worded reason as text of the UI’s language', () => {
    expect(quarantineReasonShown(de, { code: 'engine_unavailable', message: 'The engine is not running.' })).toEqual({ said: { tool: 'core', words: 'The engine is not running.' } });
    expect(quarantineReasonShown(de, { code: 'restore_conflict', message: 'Something exists there already.' })).toEqual({ said: { tool: 'core', words: 'Something exists there already.' } });
    for (const error of sent) {
      expect(quarantineReasonShown(de, error), error.message).toEqual({ text: quarantineReason(de, error) });
    }
  });

  it('leaves parameters the core set on purpose alone', () => {
    const refusal = quarantineRefusal('invalid_state', 'Only a file judged unsafe is moved to quarantine.', 'not_unsafe');
    expect(explainQuarantineError(refusal, 'restore', '/x')).toBe(refusal);
  });
});
